"""The state of a 6 nimmt! game: a small value that `apply` copies and never changes in place."""

from __future__ import annotations

from dataclasses import dataclass, fields

from kikimimi.games.base import Outcome
from kikimimi.games.nimmt.pieces import BULLHEADS

HAND_SIZE = 10
ROWS = 4
ROW_LIMIT = 5  # a 6th card takes the row

# Phases, as the state report names them.
DEAL = "deal"
CHOOSE = "choose"
TAKE_ROW = "take_row"
OVER = "over"

# Where a card is (besides a seat number for a hand).
IN_ROW = "row"
CHOSEN = "chosen"
TAKEN = "taken"
OUT = "out"  # not dealt (yet, in the deal; for the round, after it)


@dataclass(slots=True, eq=True)
class NimmtState:
    players: int = 4
    first: int = 1  # accepted, changes nothing (D2)
    target: int = 0  # 0: one round; T: rounds until a total reaches T (D3)
    phase: str = DEAL
    round: int = 1
    rows: tuple[tuple[int, ...], ...] = ()  # the rows laid, in row order
    hands: tuple[frozenset[int], ...] = ()  # seat - 1 -> cards
    chosen: tuple[int | None, ...] = ()  # seat - 1 -> the card laid face down (kept until placed, D8)
    taken: tuple[tuple[int, ...], ...] = ()  # seat - 1 -> cards taken this round, sorted
    past: tuple[int, ...] = ()  # seat - 1 -> bullheads of the rounds before this one
    revealed: tuple[tuple[int, int], ...] = ()  # (card, seat) of the turn being placed, ascending
    queue: tuple[tuple[int, int], ...] = ()  # of those, the ones not placed yet (take_row: the low card first)
    last_reveal: tuple[tuple[int, int], ...] = ()  # (card, seat) of the last turn revealed: public, heard by all
    taker: int | None = None  # the seat choosing a row
    result: Outcome | None = None

    @classmethod
    def new(cls, players: int, first: int = 1, target: int = 0) -> NimmtState:
        empty = tuple(frozenset[int]() for _ in range(players))
        return cls(players=players, first=first, target=target, hands=empty,
                   chosen=(None,) * players, taken=((),) * players, past=(0,) * players)

    def copy(self) -> NimmtState:
        new = object.__new__(NimmtState)
        for name in _FIELD_NAMES:
            setattr(new, name, getattr(self, name))
        return new

    # -- derived facts (never stored twice) ----------------------------------------------------

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)

    def hand(self, seat: int) -> frozenset[int]:
        return self.hands[seat - 1]

    def where(self, card: int) -> tuple[str | int, int | None]:
        """(seat, None) for a hand; (IN_ROW, row), (CHOSEN, seat), (TAKEN, seat) or (OUT, None)."""
        for index, held in enumerate(self.hands):
            if card in held:
                return index + 1, None
        for index, row in enumerate(self.rows):
            if card in row:
                return IN_ROW, index + 1
        for index, chosen in enumerate(self.chosen):
            if chosen == card:
                return CHOSEN, index + 1
        for index, pile in enumerate(self.taken):
            if card in pile:
                return TAKEN, index + 1
        return OUT, None

    def bullheads(self, seat: int) -> int:
        """This round's bullheads of a seat (the cards it took)."""
        return sum(BULLHEADS[card] for card in self.taken[seat - 1])

    def total(self, seat: int) -> int:
        """All rounds, this one included (D15)."""
        return self.past[seat - 1] + self.bullheads(seat)

    # -- small updates on a copy ---------------------------------------------------------------

    def set_hand(self, seat: int, cards: frozenset[int]) -> None:
        self.hands = (*self.hands[: seat - 1], cards, *self.hands[seat:])

    def set_chosen(self, seat: int, card: int | None) -> None:
        self.chosen = (*self.chosen[: seat - 1], card, *self.chosen[seat:])

    def add_taken(self, seat: int, cards: tuple[int, ...]) -> None:
        pile = tuple(sorted((*self.taken[seat - 1], *cards)))
        self.taken = (*self.taken[: seat - 1], pile, *self.taken[seat:])

    def set_row(self, row: int, cards: tuple[int, ...]) -> None:
        self.rows = (*self.rows[: row - 1], cards, *self.rows[row:])


_FIELD_NAMES = tuple(f.name for f in fields(NimmtState))


def row_bullheads(row: tuple[int, ...]) -> int:
    return sum(BULLHEADS[card] for card in row)


def row_for(rows: tuple[tuple[int, ...], ...], card: int) -> int | None:
    """The row (1-based) whose last card is the highest below `card` (D10); None if `card` is lowest."""
    best, best_last = None, 0
    for index, row in enumerate(rows):
        last = row[-1]
        if best_last < last < card:
            best, best_last = index + 1, last
    return best
