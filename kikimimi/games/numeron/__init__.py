"""Numeron: guess the other seat's number of distinct digits; the table is the game master."""

from kikimimi.games.numeron.pieces import CONTROLS, PIECES
from kikimimi.games.registry import BotSet, EngineCheck, GameClass, GameInfo, SetupKey, package_parts, register

INFO = register(GameInfo(
    id="numeron", titles={"ja": "ヌメロン", "en": "Numeron"}, seats=(2, 2),
    game_class=GameClass(__name__, "Numeron"), **package_parts(__name__),
    bots=BotSet(__name__, {"bot": "numeron_bots"}),
    pieces=PIECES, controls=CONTROLS,
    setup_check=EngineCheck(__name__, "setup_check"), max_events=2000,
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="the seat that calls first"),
        SetupKey("digits", 3, int, choices=(3, 4, 5), help="digits in each number"),
        SetupKey("items", 0, int, minimum=0, maximum=7, help="items each seat may use (4+ digits)"),
        SetupKey("turn_seconds", 60, int, minimum=0, help="seconds per turn (0: no clock)"),
        SetupKey("practice", False, bool, help="one player (seat 1) against the table"),
        SetupKey("secret", "", str, help="practice: the table's number (drawn when empty)"),
    ),
    summary="two players guess each other's number by EAT and BITE; seven items",
))

__all__ = ["INFO"]
