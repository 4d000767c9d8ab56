"""The state of a Royal Nine game: an immutable value; `apply` makes a changed copy."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from kikimimi.games.base import Outcome
from kikimimi.games.royal_nine.cards import CENTRE, deck
from kikimimi.games.royal_nine.scoring import Role

SEATS = (1, 2)
HALF = 4  # cards dealt to each seat in each half

# Phases, as the state report names them.
COMMON = "common"
DEAL1 = "deal1"
PLACE1 = "place1"
DEAL2 = "deal2"
PLACE2 = "place2"
REVEAL = "reveal"
SCORED = "scored"
OVER = "over"
PHASES = (COMMON, DEAL1, PLACE1, DEAL2, PLACE2, REVEAL, SCORED, OVER)
DEALS = (DEAL1, DEAL2)
PLACES = (PLACE1, PLACE2)

Grid = tuple[str | None, ...]  # 9 entries in cell order; the centre is always None (the common card)
EMPTY_GRID: Grid = (None,) * 9


@dataclass(frozen=True, slots=True)
class RoyalNineState:
    first: int = 1  # named first in prompts and the reveal, nothing else
    tens: bool = False
    rounds: int = 5
    phase: str = COMMON
    round: int = 1
    common: str | None = None
    opened: bool = False  # the common card of this round has been revealed
    grids: tuple[Grid, Grid] = (EMPTY_GRID, EMPTY_GRID)
    hands: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    selected: tuple[str | None, str | None] = (None, None)
    round_scores: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    last_roles: tuple[tuple[Role, ...], tuple[Role, ...]] = ((), ())
    result: Outcome | None = field(default=None, compare=False)

    # -- derived facts ----------------------------------------------------------------------------

    def grid(self, seat: int) -> Grid:
        return self.grids[seat - 1]

    def hand(self, seat: int) -> frozenset[str]:
        return self.hands[seat - 1]

    def total(self, seat: int) -> int:
        return sum(self.round_scores[seat - 1])

    def placed(self, seat: int) -> int:
        return sum(1 for card in self.grid(seat) if card is not None)

    def cell_of(self, seat: int, card: str) -> int | None:
        try:
            return self.grid(seat).index(card)
        except ValueError:
            return None

    def owner(self, card: str) -> int | None:
        """The seat that holds or has placed a card this round; None for an undealt card."""
        for seat in SEATS:
            if card in self.hands[seat - 1] or card in self.grids[seat - 1]:
                return seat
        return None

    def dealt(self) -> frozenset[str]:
        """Every card dealt this round (in hands or grids): open cards everyone has heard."""
        cards = {c for grid in self.grids for c in grid if c is not None}
        return frozenset(cards).union(*self.hands)

    def unseen(self) -> tuple[str, ...]:
        """The cards no seat has heard this round: the common card (until opened) and the undealt."""
        seen = self.dealt()
        return tuple(card for card in deck(self.tens) if card not in seen)

    # -- changed copies -----------------------------------------------------------------------------

    def with_seat(self, seat: int, **values: Any) -> RoyalNineState:
        """A copy with one seat's entry of `grids`, `hands` or `selected` replaced."""
        changes: dict[str, Any] = {}  # the fields are named at run time
        for name, new in values.items():
            pair = list(getattr(self, name))
            pair[seat - 1] = new
            changes[name] = tuple(pair)
        return replace(self, **changes)


def other(seat: int) -> int:
    return 3 - seat


def order(first: int) -> tuple[int, int]:
    """The seats, `first` first."""
    return (first, other(first))


assert CENTRE == 4
