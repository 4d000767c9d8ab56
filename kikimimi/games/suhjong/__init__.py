"""Suhjong (数雀): a two-player equation game; roles declared by tapping, judged by the table."""

from kikimimi.games.registry import BotSet, GameClass, GameInfo, SetupKey, package_parts, register
from kikimimi.games.suhjong.pieces import CARDS, CONTROLS

INFO = register(GameInfo(
    id="suhjong", titles={"ja": "数雀", "en": "Suhjong"}, seats=(2, 2),
    game_class=GameClass(__name__, "Suhjong"), **package_parts(__name__),
    bots=BotSet(__name__, {"bot": "table_bots", "random": "random_bots", "greedy": "greedy_bots"}),
    pieces=CARDS, controls=CONTROLS,
    max_events=4000,  # no setup_check: the keys' types and ranges say it all
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="round 1's first player; then it alternates"),
        SetupKey("discard_max", 3, int, minimum=1, maximum=5, help="most discards in a turn"),
        SetupKey("fold_points", 10, int, minimum=0, help="what the other seat scores on a fold"),
        SetupKey("rounds", 1, int, minimum=1, help="rounds (局) in the game"),
        SetupKey("hints", True, bool, help="say a better role after both declarations"),
    ),
    summary="two players split five digits into an equation; fold, showdown, declare by tapping",
))

__all__ = ["INFO"]
