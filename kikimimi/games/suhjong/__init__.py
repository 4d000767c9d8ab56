"""Suhjong (数雀): a two-player equation game; roles declared by tapping, judged by the table."""

from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import GameEngine
from kikimimi.games.registry import GameInfo, GameUI, SetupKey, register
from kikimimi.games.suhjong.pieces import CARDS, CONTROLS


def _setup_check(setup: Mapping[str, Any]) -> str | None:
    from kikimimi.games.suhjong.engine import check_setup

    return check_setup(setup)


def _suhjong() -> type[GameEngine[Any]]:
    from kikimimi.games.suhjong.engine import Suhjong

    return Suhjong


def _panel() -> GameUI:
    from kikimimi.games.suhjong.view import state_text

    return GameUI(view=state_text)


INFO = register(GameInfo(
    id="suhjong",
    titles={"ja": "数雀", "en": "Suhjong"},
    seats=(2, 2),
    game_class=_suhjong,
    ui=_panel,
    pieces=CARDS,
    controls=CONTROLS,
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="round 1's first player; then it alternates"),
        SetupKey("discard_max", 3, int, minimum=1, maximum=5, help="most discards in a turn"),
        SetupKey("fold_points", 10, int, minimum=0, help="what the other seat scores on a fold"),
        SetupKey("rounds", 1, int, minimum=1, help="rounds (局) in the game"),
        SetupKey("hints", True, bool, help="say a better role after both declarations"),
    ),
    setup_check=_setup_check,
    max_events=4000,
    summary="two players split five digits into an equation; fold, showdown, declare by tapping",
))

__all__ = ["INFO"]
