"""The state of a Trident game: a small value that `apply` copies and never changes in place.

Pieces are kept as bitmasks over the 54 piece indices (pieces.INDEX, in id order): a hand is one
integer, so legality is an AND of masks and a copy of the state copies a handful of integers. The
names the views, reports, tests and bots read (`hands`, `hand(seat)`, `field`, `drew`, `declared`)
are properties that give the ids, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeAlias

from kikimimi.games.base import Outcome
from kikimimi.games.trident.pieces import BIT, FULL_MASK, ID_OF, POINTS_MASKS, ids_of, mask_of

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

# The field in play order as nested pairs (earlier, id), () when empty: one tuple to extend per play.
FieldOrder: TypeAlias = "tuple[()] | tuple[FieldOrder, str]"


@dataclass(slots=True, eq=True)
class TridentState:
    rules: str = "standard"  # or "competition": ranking by points
    first: int = 1  # the game's first player
    phase: str = DEAL
    turn: int | None = None  # the seat to move (in start: the seat taking the start piece)
    required: str | None = None  # the required kind (a suit)
    pending: int = 0  # draw waiting for the seat to move
    masks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # [unused, hand 1, hand 2, hand 3]
    field_mask: int = 0  # the pieces on the field
    field_order: FieldOrder = ()  # the field in play order, as nested pairs (earlier, id): O(1) to extend
    drew_bit: int = 0  # the bit of the piece the seat to move drew this turn (0: none)
    declared_mask: int = 0  # bit seat-1 set: that seat's declaration stands
    drawer: int | None = None  # the seat that owes draws (phase drawing)
    owed: int = 0
    resume: str = RESUME_SAME
    penalties: tuple[tuple[int, str], ...] = ()
    result: Outcome | None = None

    def copy(self) -> TridentState:
        """A copy that shares nothing mutable (replaced below by a generated, faster one)."""
        new = object.__new__(TridentState)
        for name in _FIELD_NAMES:
            setattr(new, name, getattr(self, name))
        new.masks = self.masks[:]
        return new

    # -- the old names, as ids (views, reports, tests and the keyboard seat read these) ---------------

    @property
    def hands(self) -> tuple[frozenset[str], ...]:
        m = self.masks
        return frozenset(ids_of(m[1])), frozenset(ids_of(m[2])), frozenset(ids_of(m[3]))

    def hand(self, seat: int) -> frozenset[str]:
        return frozenset(ids_of(self.masks[seat]))

    @property
    def field(self) -> tuple[str, ...]:
        out = []
        node = self.field_order
        while node:
            node, piece = node
            out.append(piece)
        out.reverse()
        return tuple(out)

    @property
    def drew(self) -> str | None:
        return ID_OF[self.drew_bit.bit_length() - 1] if self.drew_bit else None

    @property
    def declared(self) -> tuple[bool, bool, bool]:
        d = self.declared_mask
        return bool(d & 1), bool(d & 2), bool(d & 4)

    # -- derived facts (never stored twice) ----------------------------------------------------

    def where(self, piece_id: str) -> int | str:
        """The seat holding a piece, ON_FIELD or IN_BASKET."""
        return self.where_bit(BIT[piece_id])

    def where_bit(self, bit: int) -> int | str:
        _, h1, h2, h3 = self.masks
        if h1 & bit:
            return 1
        if h2 & bit:
            return 2
        if h3 & bit:
            return 3
        return ON_FIELD if self.field_mask & bit else IN_BASKET

    @property
    def basket_mask(self) -> int:
        _, h1, h2, h3 = self.masks
        return FULL_MASK & ~(h1 | h2 | h3 | self.field_mask)

    @property
    def basket_count(self) -> int:
        return self.basket_mask.bit_count()

    def basket(self) -> frozenset[str]:
        return frozenset(ids_of(self.basket_mask))

    def count(self, seat: int) -> int:
        """How many pieces a seat holds."""
        return self.masks[seat].bit_count()

    def points(self, seat: int) -> int:
        return _points(self.masks[seat])

    # -- small updates on a copy ---------------------------------------------------------------

    def set_hand(self, seat: int, pieces: frozenset[str]) -> None:
        """A seat's hand as a whole, by ids (set-ups in tests and tools; the engine works on masks)."""
        self.masks[seat] = mask_of(pieces)

    def set_declared(self, seat: int, value: bool) -> None:
        if value:
            self.declared_mask |= 1 << (seat - 1)
        else:
            self.declared_mask &= ~(1 << (seat - 1))

    def add_to_field(self, piece_id: str) -> None:
        self.field_mask |= BIT[piece_id]
        self.field_order = (self.field_order, piece_id)

    def set_field(self, pieces: tuple[str, ...]) -> None:
        """The field as a whole (the referee's correction)."""
        self.field_mask = 0
        self.field_order = ()
        for piece in pieces:
            self.add_to_field(piece)


_FIELD_NAMES = tuple(f.name for f in fields(TridentState))


def _generated_points() -> Callable[[int], int]:
    # A hand's competition points as one straight-line sum of ANDs over the point classes: it is asked at
    # every game's end (the ranking and the scores), and a loop over the pieces costs a game 5 us.
    terms = " + ".join(f"{points} * (mask & {m}).bit_count()" for points, m in POINTS_MASKS)
    namespace: dict[str, Any] = {}
    exec(f"def points(mask):\n    return {terms}", namespace)  # noqa: S102 - code built from our own table
    points: Callable[[int], int] = namespace["points"]
    return points


_points = _generated_points()


def _generated_copy() -> Callable[[TridentState], TridentState]:
    # apply() copies the state once per event: straight-line attribute copies are about 3x faster
    # than a loop over the field names, and the engine's speed target depends on it.
    lines = ["def copy(self):", "    new = _new(TridentState)"]
    lines += [f"    new.{name} = self.{name}" + ("[:]" if name == "masks" else "") for name in _FIELD_NAMES]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "TridentState": TridentState}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from our own field names only
    copy: Callable[[TridentState], TridentState] = namespace["copy"]
    return copy


# The declared copy replaced on purpose by the generated one above (same signature): mypy refuses any
# assignment to a method.
TridentState.copy = _generated_copy()  # type: ignore[method-assign, assignment]


def next_seat(seat: int) -> int:
    """The left neighbour: the next seat in play order 1 -> 2 -> 3 -> 1."""
    return seat % 3 + 1


def previous_seat(seat: int) -> int:
    """The right neighbour."""
    return (seat - 2) % 3 + 1
