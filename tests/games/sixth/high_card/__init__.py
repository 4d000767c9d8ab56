"""High card: two seats each tap one card on their own hand reader; the higher card wins."""

from typing import Any

from kikimimi.games.base import GameEngine
from kikimimi.games.registry import GameInfo, GameUI, SetupKey, register

CARDS = tuple(f"card-{value}" for value in range(1, 10))


def high_card() -> type[GameEngine[Any]]:
    from high_card.engine import HighCard

    return HighCard


def panel() -> GameUI:
    from high_card.view import state_text

    return GameUI(view=state_text)


INFO = register(GameInfo(
    id="high-card",
    titles={"ja": "ハイカード", "en": "High card"},
    seats=(2, 2),
    game_class=high_card,
    ui=panel,
    pieces=CARDS,
    setup_keys=(SetupKey("first", 1, int, choices=(1, 2), help="named first when the cards are said"),),
    max_events=50,
    summary="two seats tap one card each in secret; the higher card wins",
))
