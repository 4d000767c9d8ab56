"""The state of a Suhjong game: a small value that `apply` copies and never changes in place.

Where a card is follows from the state: in a hand, a river, the sea, or else in the pile. Only the
pile's contents are never stored: they are what is left.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from kikimimi.games.suhjong.pieces import CARD_SET

SEATS = (1, 2)
HAND_SIZE = 5

# Phases and steps, as the report names them.
DEAL = "deal"
TURN = "turn"
SCORING = "scoring"
SCORED = "scored"
OVER = "over"
START = "start"
DISCARD = "discard"
REFILL = "refill"

# Where a card is.
PILE = "pile"
SEA = "sea"
HAND = "hand"
RIVER = "river"

Declared = tuple[str | None, int, bool] | None  # (canonical equation or None, points, sides equal); None: not yet


@dataclass(slots=True, eq=True)
class SuhjongState:
    # set-up
    start_first: int = 1  # round 1's first player [D1]
    discard_max: int = 3
    fold_points: int = 10
    rounds: int = 1
    hints: bool = True
    # the round
    round: int = 1
    first: int = 1  # this round's first player
    phase: str = DEAL
    turn: int | None = None
    step: str | None = None
    grace: bool = False  # the turn under way is the grace turn after a showdown
    turn_count: tuple[int, int] = (0, 0)
    hands: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    rivers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    sea: tuple[str, ...] = ()
    discarded: int = 0  # cards discarded in the turn under way
    drew: bool = False  # the turn under way has drawn from the pile (no more pick-ups)
    showdown_by: int | None = None
    declaring: int | None = None
    taps: tuple[str, ...] = ()  # the declaration in progress: card ids and operator tags
    declared: tuple[Declared, Declared] = (None, None)
    scores: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # points per finished round
    result: Any = None  # the Outcome once over

    def copy(self) -> SuhjongState:
        new = object.__new__(SuhjongState)
        for name in _FIELD_NAMES:
            setattr(new, name, getattr(self, name))
        return new

    # -- derived facts -------------------------------------------------------------------------

    def hand(self, seat: int) -> frozenset[str]:
        return self.hands[seat - 1]

    def river(self, seat: int) -> tuple[str, ...]:
        return self.rivers[seat - 1]

    def where(self, card: str) -> tuple[str, int | None]:
        """(PILE | SEA | HAND | RIVER, the seat for a hand or river)."""
        for seat in SEATS:
            if card in self.hands[seat - 1]:
                return HAND, seat
            if card in self.rivers[seat - 1]:
                return RIVER, seat
        if card in self.sea:
            return SEA, None
        return PILE, None

    def pile(self) -> frozenset[str]:
        return CARD_SET.difference(self.sea, *self.hands, *self.rivers)

    @property
    def pile_count(self) -> int:
        return len(CARD_SET) - len(self.sea) - sum(map(len, self.hands)) - sum(map(len, self.rivers))

    def total(self, seat: int) -> int:
        return sum(self.scores[seat - 1])

    # -- small updates on a copy ---------------------------------------------------------------

    def set_hand(self, seat: int, cards: frozenset[str]) -> None:
        self.hands = (cards, self.hands[1]) if seat == 1 else (self.hands[0], cards)

    def set_river(self, seat: int, cards: tuple[str, ...]) -> None:
        self.rivers = (cards, self.rivers[1]) if seat == 1 else (self.rivers[0], cards)

    def set_declared(self, seat: int, value: Declared) -> None:
        self.declared = (value, self.declared[1]) if seat == 1 else (self.declared[0], value)


_FIELD_NAMES = tuple(f.name for f in fields(SuhjongState))


def other(seat: int) -> int:
    return 3 - seat
