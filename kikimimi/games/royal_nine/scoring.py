"""Scoring a Royal Nine grid: the roles of the contract's "Scoring" section.

A line is a set of three cards (no order): a straight is three consecutive values (no wrap-around:
the values are plain integers 1..10, so 9-10-1 is never consecutive), a flush three cards of one
colour, a straight flush both (2, one role). `row-2` and `col-2` pass through the common card and
count double. Royal nine (all nine cards of one colour) adds 16; a spoiled nine (the eight own cards
of one colour, the common card of the other) makes the round 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from kikimimi.games.royal_nine.cards import CENTRE, OWN_CELLS, colour, value

# Line name -> its three grid indices (reading order); no diagonals.
LINES: dict[str, tuple[int, int, int]] = {
    "row-1": (0, 1, 2),
    "row-2": (3, 4, 5),
    "row-3": (6, 7, 8),
    "col-1": (0, 3, 6),
    "col-2": (1, 4, 7),
    "col-3": (2, 5, 8),
}
DOUBLED = frozenset({"row-2", "col-2"})  # the lines through the common card
ROYAL_POINTS = 16

STRAIGHT = "straight"
FLUSH = "flush"
STRAIGHT_FLUSH = "straight flush"
ROYAL_NINE = "royal nine"
SPOILED_NINE = "spoiled nine"
ROLES = (STRAIGHT, FLUSH, STRAIGHT_FLUSH, ROYAL_NINE, SPOILED_NINE)


class Role(NamedTuple):
    line: str  # row-1..col-3, or "grid" for royal / spoiled nine
    role: str
    points: int  # as counted (doubled on row-2 and col-2)

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "role": self.role, "points": self.points}


def line_role(cards: Sequence[str]) -> tuple[str, int] | None:
    """The role of three cards and its base points (not doubled); None for no role."""
    values = sorted(value(card) for card in cards)
    straight = values[1] == values[0] + 1 and values[2] == values[1] + 1
    flush = len({colour(card) for card in cards}) == 1
    if straight and flush:
        return STRAIGHT_FLUSH, 2
    if straight:
        return STRAIGHT, 1
    if flush:
        return FLUSH, 1
    return None


def grid_roles(grid: Sequence[str | None], common: str) -> list[Role]:
    """Every role of a full grid (9 entries in cell order; the centre entry is ignored) with `common`.

    A spoiled nine is the only entry when it happens (the round scores 0 whatever the lines).
    """
    cells = [card for card in (common if i == CENTRE else grid[i] for i in range(9)) if card is not None]
    if len(cells) != 9:
        raise ValueError("a grid is scored only when full")
    own_colours = {colour(cells[i]) for i in OWN_CELLS}
    if len(own_colours) == 1 and colour(common) not in own_colours:
        return [Role("grid", SPOILED_NINE, 0)]
    roles = []
    for name, indices in LINES.items():
        found = line_role([cells[i] for i in indices])
        if found:
            role, points = found
            roles.append(Role(name, role, points * 2 if name in DOUBLED else points))
    if len(own_colours) == 1:
        roles.append(Role("grid", ROYAL_NINE, ROYAL_POINTS))
    return roles


def score(roles: Sequence[Role]) -> int:
    return sum(role.points for role in roles)


def grid_score(grid: Sequence[str | None], common: str) -> int:
    return score(grid_roles(grid, common))
