"""The state of a Trident game: a small value that `apply` copies and never changes in place."""

from __future__ import annotations

from dataclasses import dataclass, fields

from kikimimi.games.base import Outcome
from kikimimi.games.trident.pieces import PIECES

SEATS = (1, 2, 3)
HAND_SIZE = 5

# Phases, as the state report names them.
DEAL = "deal"
START = "start"
TURN = "turn"
DRAWING = "drawing"
CHOOSE_SUIT = "choose_suit"
OVER = "over"

# Where a piece is: a seat number, on the field, or in the basket.
ON_FIELD = "field"
IN_BASKET = "basket"

# What happens when a seat has drawn everything it owed.
RESUME_SAME = "same"  # the turn as it was before (a wrong play's penalty)
RESUME_NEXT = "next"  # the turn passes, as after a play (an accepted attack, no-declaration penalty)


@dataclass(slots=True, eq=True)
class TridentState:
    rules: str = "standard"  # or "competition": ranking by points
    first: int = 1  # the game's first player
    phase: str = DEAL
    turn: int | None = None  # the seat to move (in start: the seat taking the start piece)
    required: str | None = None  # the required kind (a suit)
    pending: int = 0  # draw waiting for the seat to move
    hands: tuple[frozenset[str], ...] = (frozenset(), frozenset(), frozenset())
    declared: tuple[bool, ...] = (False, False, False)
    field: tuple[str, ...] = ()
    drew: str | None = None  # the piece the seat to move drew this turn
    drawer: int | None = None  # the seat that owes draws (phase drawing)
    owed: int = 0
    resume: str = RESUME_SAME
    penalties: tuple[tuple[int, str], ...] = ()
    result: Outcome | None = None

    def copy(self) -> TridentState:
        """A shallow copy (every field is immutable); replaced below by a generated, faster one."""
        new = object.__new__(TridentState)
        for name in _FIELD_NAMES:
            setattr(new, name, getattr(self, name))
        return new

    # -- derived facts (never stored twice) ----------------------------------------------------

    def hand(self, seat: int) -> frozenset[str]:
        return self.hands[seat - 1]

    def where(self, piece_id: str) -> int | str:
        """The seat holding a piece, ON_FIELD or IN_BASKET."""
        h1, h2, h3 = self.hands
        if piece_id in h1:
            return 1
        if piece_id in h2:
            return 2
        if piece_id in h3:
            return 3
        return ON_FIELD if piece_id in self.field else IN_BASKET

    @property
    def basket_count(self) -> int:
        return len(PIECES) - len(self.field) - sum(len(h) for h in self.hands)

    def basket(self) -> frozenset[str]:
        return frozenset(PIECES).difference(self.field, *self.hands)

    def points(self, seat: int) -> int:
        return sum(PIECES[p].points for p in self.hand(seat))

    # -- small updates on a copy ---------------------------------------------------------------

    def set_hand(self, seat: int, pieces: frozenset[str]) -> None:
        h1, h2, h3 = self.hands
        self.hands = (pieces, h2, h3) if seat == 1 else (h1, pieces, h3) if seat == 2 else (h1, h2, pieces)

    def set_declared(self, seat: int, value: bool) -> None:
        if self.declared[seat - 1] != value:
            declared = list(self.declared)
            declared[seat - 1] = value
            self.declared = tuple(declared)


_FIELD_NAMES = tuple(f.name for f in fields(TridentState))


def _generated_copy() -> object:
    # apply() copies the state once per event: straight-line attribute copies are about 3x faster
    # than a loop over the field names, and the engine's speed target depends on it.
    lines = ["def copy(self):", "    new = _new(TridentState)"]
    lines += [f"    new.{name} = self.{name}" for name in _FIELD_NAMES]
    lines.append("    return new")
    namespace = {"_new": object.__new__, "TridentState": TridentState}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from our own field names only
    return namespace["copy"]


TridentState.copy = _generated_copy()  # type: ignore[method-assign]


def next_seat(seat: int) -> int:
    """The left neighbour: the next seat in play order 1 -> 2 -> 3 -> 1."""
    return seat % 3 + 1


def previous_seat(seat: int) -> int:
    """The right neighbour."""
    return (seat - 2) % 3 + 1
