"""The Trident: the flagship game of the kikimimi table."""

from kikimimi.games.registry import BotSet, GameClass, GameInfo, RefereeAction, SetupKey, package_parts, register
from kikimimi.games.trident.pieces import CONTROLS, PIECES

INFO = register(GameInfo(
    id="trident", titles={"ja": "トライデント", "en": "The Trident"}, seats=(3, 3),
    # Its bench (`bench engine`, `bench trident`) is the repository's kikimimi_bench/trident.py.
    game_class=GameClass(__name__, "Trident"), **package_parts(__name__, bench=None),
    bots=BotSet(__name__, {"bot": "table_bots", "perfect": "perfect_bots",
                           "rules": "rule_bots", "strong": "strong_bots"}),
    pieces=tuple(PIECES), controls=CONTROLS,
    max_events=3000,
    referee_actions=(RefereeAction("forgot", "Everyone forgot", "f"),
                     RefereeAction("penalty", "Penalty", "p", ("seat",))),
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2, 3), help="the first player"),
        SetupKey("rules", "standard", str, choices=("standard", "competition"),
                 help="competition ranks by points in hand"),
    ),
    summary="three players shed pieces by suit; declare Trident at one or two",
))

__all__ = ["INFO"]
