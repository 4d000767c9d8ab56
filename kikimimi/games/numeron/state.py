"""The state of a Numeron game: an immutable value; `apply` makes a new one with `replace`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

SEATS = (1, 2)
SET, PLAY, OVER = "set", "play", "over"
# Steps of a turn, as the report names them.
CALL = "call"
DOUBLE_CHOICE = "double_choice"
TARGET = "target"
SHUFFLE = "shuffle"
CHANGE_PLACE = "change_place"
CHANGE_DIGIT = "change_digit"
MOVE_FROM = "move_from"
MOVE_TO = "move_to"
MOVE_AMOUNT = "move_amount"
ITEM_STEP = {"double": DOUBLE_CHOICE, "target": TARGET, "shuffle": SHUFFLE, "change": CHANGE_PLACE,
             "move": MOVE_FROM}

# A public record, in the order it happened: a judged call or a spent item with what was said.
# ("call", seat, call, eat, bite) or ("item", seat, name, ((key, value), ...)).
Record = tuple[Any, ...]


def other(seat: int) -> int:
    return 3 - seat


@dataclass(frozen=True, slots=True)
class NumeronState:
    first: int = 1
    digits: int = 3
    items: int = 0
    turn_seconds: int = 60
    practice: bool = False  # one player (seat 1) against the table (seat 2), which never calls
    phase: str = SET
    numbers: tuple[str | None, str | None] = (None, None)
    entries: tuple[str, str] = ("", "")  # set phase: each seat's unfinished number
    entry_seat: int | None = None  # the seat whose set entry changed last
    turn: int | None = None
    step: str | None = None
    calls_left: int | None = None
    call: str = ""  # the call in progress
    item: str | None = None  # the item in progress (unspent)
    work: tuple[Any, ...] = ()  # the item's progress: SHUFFLE's digits, CHANGE's place, MOVE's places
    item_this_turn: bool = False  # an item was spent this turn
    log: tuple[Record, ...] = ()
    used: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    revealed: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = ((), ())
    winner: int | None = None
    reason: str = ""  # "numeron" or "referee" once over
    solver_calls: int | None = None  # practice: the solver's calls for the table's number

    def number(self, seat: int) -> str | None:
        return self.numbers[seat - 1]

    def used_by(self, seat: int) -> tuple[str, ...]:
        return self.used[seat - 1]

    def may_use(self, seat: int, name: str) -> bool:
        """Whether the seat may still use the item at all this game (not counting this turn)."""
        used = self.used_by(seat)
        return self.items > 0 and name not in used and len(used) < self.items

    def calls_by(self, seat: int) -> int:
        return sum(1 for r in self.log if r[0] == "call" and r[1] == seat)

    def with_seat(self, field: str, seat: int, value: Any) -> NumeronState:
        """A per-seat pair with one side replaced."""
        pair = list(getattr(self, field))
        pair[seat - 1] = value
        changes: dict[str, Any] = {field: tuple(pair)}  # the field is named at run time
        return replace(self, **changes)
