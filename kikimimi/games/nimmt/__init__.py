"""6 nimmt!: 2 to 10 players choose cards in secret; the 6th card of a row takes it."""

from kikimimi.games.nimmt.pieces import CONTROLS, PIECES
from kikimimi.games.registry import GameInfo, SetupKey, register


def _setup_check(setup: dict) -> str | None:
    from kikimimi.games.nimmt.engine import setup_problem

    return setup_problem(setup)


INFO = register(GameInfo(
    id="nimmt",
    titles={"ja": "ニムト", "en": "6 nimmt!"},
    seats=(2, 10),
    engine="kikimimi.games.nimmt.engine:Nimmt",
    pieces=PIECES,
    controls=CONTROLS,
    setup_keys=(
        SetupKey("players", 4, int, minimum=2, maximum=10, help="the number of players"),
        SetupKey("first", 1, int, minimum=1, maximum=10, help="accepted, changes nothing: everyone chooses at once"),
        SetupKey("target", 0, int, minimum=0, help="0: one round; T: rounds until a total reaches T (66: long game)"),
    ),
    seat_key="players",
    setup_check=_setup_check,
    bots={"bot": "kikimimi.games.nimmt.bots:table_bots",
          "random": "kikimimi.games.nimmt.bots:random_bots",
          "safest": "kikimimi.games.nimmt.bots:safest_bots"},
    view="kikimimi.games.nimmt.view:state_text",
    privacy="kikimimi.games.nimmt.invariants:privacy_leaks",
    invariants="kikimimi.games.nimmt.invariants:check",
    bench="kikimimi.games.nimmt.bench",
    max_events=20000,
    summary="2-10 players choose cards in secret; the 6th card of a row takes its bullheads",
))

__all__ = ["INFO"]
