"""Games of the kikimimi table, each a pure `apply(state, event) -> (state, effects)`."""

from __future__ import annotations

from kikimimi.games.base import Game


def get_game(name: str) -> Game:
    """The game by its name in set-ups and scripts."""
    if name == "trident":
        from kikimimi.games.trident import Trident

        return Trident()
    raise KeyError(f"unknown game {name!r} (known: trident)")
