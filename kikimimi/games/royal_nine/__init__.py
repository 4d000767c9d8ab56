"""Royal Nine: two seats lay open cards in 3x3 grids around one face-down common card."""

from typing import Any

from kikimimi.games.base import GameEngine
from kikimimi.games.registry import GameInfo, GameUI, RefereeAction, SetupKey, register
from kikimimi.games.royal_nine.cards import CARDS, CONTROLS


def load_game() -> type[GameEngine[Any]]:
    """The game class, imported when a game is played."""
    from kikimimi.games.royal_nine.engine import RoyalNine

    return RoyalNine


def load_ui() -> GameUI:
    """The console's panel and the keyboard seat."""
    from kikimimi.games.royal_nine.keyboard import KeyboardSeat
    from kikimimi.games.royal_nine.view import state_text

    return GameUI(view=state_text, keyboard=KeyboardSeat)


INFO = register(GameInfo(
    id="royal-nine",
    titles={"ja": "ロイヤルナイン", "en": "Royal Nine"},
    seats=(2, 2),
    game_class=load_game,
    ui=load_ui,
    pieces=CARDS,
    controls=CONTROLS,  # cell-1..cell-9: one tag per seat each (the reader tells the seat)
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="named first in prompts and the reveal"),
        SetupKey("tens", False, bool, help="play with red-10 and blue-10"),
        SetupKey("rounds", 5, int, minimum=1, help="rounds; the higher total wins"),
    ),
    referee_actions=(
        RefereeAction("reveal", "Reveal the common card", "x"),
        RefereeAction("next", "Next round", "z"),
    ),
    max_events=2000,
    summary="two seats lay open cards around a face-down common card: straights, flushes, royal nine",
))

__all__ = ["INFO"]
