"""6 nimmt!: 2 to 10 players choose cards in secret; the 6th card of a row takes it."""

from kikimimi.games.nimmt.pieces import CONTROLS, PIECES
from kikimimi.games.registry import BotSet, EngineCheck, GameClass, GameInfo, SetupKey, package_parts, register

INFO = register(GameInfo(
    id="nimmt", titles={"ja": "ニムト", "en": "6 nimmt!"}, seats=(2, 10),
    game_class=GameClass(__name__, "Nimmt"), **package_parts(__name__),
    bots=BotSet(__name__, {"bot": "table_bots", "random": "random_bots", "safest": "safest_bots"}),
    pieces=PIECES, controls=CONTROLS,
    seat_key="players", setup_check=EngineCheck(__name__, "setup_problem"), max_events=20000,
    setup_keys=(
        SetupKey("players", 4, int, minimum=2, maximum=10, help="the number of players"),
        SetupKey("first", 1, int, minimum=1, maximum=10, help="accepted, changes nothing: everyone chooses at once"),
        SetupKey("target", 0, int, minimum=0, help="0: one round; T: rounds until a total reaches T (66: long game)"),
    ),
    summary="2-10 players choose cards in secret; the 6th card of a row takes its bullheads",
    heard_before_next=frozenset({"reveal.open"}),  # players choose again once they have heard the reveal
))

__all__ = ["INFO"]
