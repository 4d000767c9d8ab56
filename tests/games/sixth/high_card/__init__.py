"""High card: two seats each tap one card on their own hand reader; the higher card wins."""

from kikimimi.games.registry import GameClass, GameInfo, SetupKey, register

CARDS = tuple(f"card-{value}" for value in range(1, 10))

INFO = register(GameInfo(
    id="high-card", titles={"ja": "ハイカード", "en": "High card"}, seats=(2, 2),
    game_class=GameClass(__name__, "HighCard"), pieces=CARDS,  # its UI: `UI` in view.py
    max_events=50,
    setup_keys=(SetupKey("first", 1, int, choices=(1, 2), help="named first when the cards are said"),),
    summary="two seats tap one card each in secret; the higher card wins",
))
