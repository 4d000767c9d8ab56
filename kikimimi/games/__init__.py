"""Games of the kikimimi table, each a pure `apply(state, event) -> (state, effects)`.

Games are found through the registry (`kikimimi.games.registry`); nothing here names one.
"""

from __future__ import annotations

from typing import Any

from kikimimi.games.base import GameEngine


def get_game(name: str) -> GameEngine[Any]:
    """The game by its id in set-ups and scripts; KeyError names the known ones."""
    from kikimimi.games.registry import get_info

    return get_info(name).game
