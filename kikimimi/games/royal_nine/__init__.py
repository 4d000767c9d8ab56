"""Royal Nine: two seats lay open cards in 3x3 grids around one face-down common card."""

from kikimimi.games.registry import BotSet, GameClass, GameInfo, RefereeAction, SetupKey, package_parts, register
from kikimimi.games.royal_nine.cards import CARDS, CONTROLS

INFO = register(GameInfo(
    id="royal-nine", titles={"ja": "ロイヤルナイン", "en": "Royal Nine"}, seats=(2, 2),
    game_class=GameClass(__name__, "RoyalNine"), **package_parts(__name__),
    bots=BotSet(__name__, {"bot": "expectimax_bots", "chatty": "chatty_bots",
                           "greedy": "greedy_bots", "random": "random_bots"}),
    pieces=CARDS, controls=CONTROLS,  # cell-N: a tag per seat each
    max_events=2000,
    referee_actions=(RefereeAction("reveal", "Reveal the common card", "x"), RefereeAction("next", "Next round", "z")),
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="named first in prompts and the reveal"),
        SetupKey("tens", False, bool, help="play with red-10 and blue-10"),
        SetupKey("rounds", 5, int, minimum=1, help="rounds; the higher total wins"),
    ),
    summary="two seats lay open cards around a face-down common card: straights, flushes, royal nine",
))

__all__ = ["INFO"]
