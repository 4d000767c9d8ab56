"""Royal Nine: two seats lay open cards in 3x3 grids around one face-down common card."""

from kikimimi.games.registry import GameInfo, RefereeAction, SetupKey, register
from kikimimi.games.royal_nine.cards import CARDS, CONTROLS

INFO = register(GameInfo(
    id="royal-nine",
    titles={"ja": "ロイヤルナイン", "en": "Royal Nine"},
    seats=(2, 2),
    engine="kikimimi.games.royal_nine.engine:RoyalNine",
    keyboard="kikimimi.games.royal_nine.keyboard:KeyboardSeat",
    pieces=CARDS,
    controls=CONTROLS,  # cell-1..cell-9: one tag per seat each (the reader tells the seat)
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="named first in prompts and the reveal"),
        SetupKey("tens", False, bool, help="play with red-10 and blue-10"),
        SetupKey("rounds", 5, int, minimum=1, help="rounds; the higher total wins"),
    ),
    bots={"bot": "kikimimi.games.royal_nine.bots:expectimax_bots",
          "chatty": "kikimimi.games.royal_nine.bots:chatty_bots",
          "greedy": "kikimimi.games.royal_nine.bots:greedy_bots",
          "random": "kikimimi.games.royal_nine.bots:random_bots"},
    view="kikimimi.games.royal_nine.view:state_text",
    referee_actions=(
        RefereeAction("reveal", "Reveal the common card", "x"),
        RefereeAction("next", "Next round", "z"),
    ),
    privacy="kikimimi.games.royal_nine.invariants:privacy_leaks",
    invariants="kikimimi.games.royal_nine.invariants:check",
    bench="kikimimi.games.royal_nine.bench",
    max_events=2000,
    summary="two seats lay open cards around a face-down common card: straights, flushes, royal nine",
))

__all__ = ["INFO"]
