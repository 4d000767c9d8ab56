"""The contract's two reference players, deciding from what one seat observes.

- **random**: a uniformly random card of the hand.
- **safest card**: the card of least cost if it were played alone now (a 6th card: the row's bullheads;
  a card lower than every row: the cheapest row's bullheads; else 0), then the smallest gap to the
  last card of its row, then the lowest card. A card lower than every row has no row, so its gap
  counts as the largest possible (our decision: the contract is silent).
Both take the cheapest row when they must: fewest bullheads, then fewest cards, then lowest number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.games.nimmt.pieces import BULLHEADS
from kikimimi.games.nimmt.state import ROW_LIMIT

NO_GAP = 105  # a lowest card's "gap": after every real gap (1..103)


def row_cost(row: Sequence[int]) -> int:
    return sum(BULLHEADS[card] for card in row)


def cheapest_row(rows: Sequence[Sequence[int]]) -> int:
    """The row (1-based) with the fewest bullheads, then the fewest cards, then the lowest number."""
    return min(range(len(rows)), key=lambda i: (row_cost(rows[i]), len(rows[i]), i)) + 1


def alone_cost(rows: Sequence[Sequence[int]], card: int) -> tuple[int, int, int]:
    """The safest-card key of one card: (cost if played alone now, gap to its row's last card, card)."""
    best, best_last = -1, 0
    for index, row in enumerate(rows):
        if best_last < row[-1] < card:
            best, best_last = index, row[-1]
    if best < 0:
        return row_cost(rows[cheapest_row(rows) - 1]), NO_GAP, card
    row = rows[best]
    return (row_cost(row) if len(row) >= ROW_LIMIT else 0), card - best_last, card


def hand_of(obs: Mapping[str, Any]) -> list[int]:
    return list(obs["hands"].get(str(obs["seat"]), ()))


def random_card(obs: Mapping[str, Any], rng: random.Random) -> int:
    hand = hand_of(obs)
    return hand[int(rng.random() * len(hand))]


def safest_card(obs: Mapping[str, Any], rng: random.Random | None = None) -> int:
    rows = obs["rows"]
    return min(hand_of(obs), key=lambda card: alone_cost(rows, card))


def cheapest_row_choice(obs: Mapping[str, Any], rng: random.Random | None = None) -> int:
    return cheapest_row(obs["rows"])
