"""High card's bot: each seat taps a card nobody holds, chosen by the seed."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Any

from high_card import CARDS
from high_card.engine import SEATS, HighCardState
from kikimimi.games.base import Event, Scan, hand


class RandomBots:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def next_event(self, state: HighCardState, humans: Collection[int] = ()) -> Event | None:
        if state.phase == "over":
            return None
        for seat in SEATS:
            if state.cards[seat - 1] is None and seat not in humans:
                return Scan(hand(seat), self.rng.choice([c for c in CARDS if c not in state.cards]))
        return None


def random_bots(seed: int, setup: Mapping[str, Any]) -> RandomBots:
    return RandomBots(seed)
