"""6 nimmt!: 2 to 10 players choose cards in secret; the 6th card of a row takes it."""

from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import GameEngine
from kikimimi.games.nimmt.pieces import CONTROLS, PIECES
from kikimimi.games.registry import GameInfo, GameUI, SetupKey, register


def _game() -> type[GameEngine[Any]]:
    from kikimimi.games.nimmt.engine import Nimmt

    return Nimmt


def _ui() -> GameUI:
    from kikimimi.games.nimmt.view import state_text

    return GameUI(view=state_text)


def _setup_check(setup: Mapping[str, Any]) -> str | None:
    from kikimimi.games.nimmt.engine import setup_problem

    return setup_problem(setup)


INFO = register(GameInfo(
    id="nimmt",
    titles={"ja": "ニムト", "en": "6 nimmt!"},
    seats=(2, 10),
    game_class=_game,
    ui=_ui,
    pieces=PIECES,
    controls=CONTROLS,
    setup_keys=(
        SetupKey("players", 4, int, minimum=2, maximum=10, help="the number of players"),
        SetupKey("first", 1, int, minimum=1, maximum=10, help="accepted, changes nothing: everyone chooses at once"),
        SetupKey("target", 0, int, minimum=0, help="0: one round; T: rounds until a total reaches T (66: long game)"),
    ),
    seat_key="players",
    setup_check=_setup_check,
    max_events=20000,
    summary="2-10 players choose cards in secret; the 6th card of a row takes its bullheads",
))

__all__ = ["INFO"]
