"""Placement policies: a half's cards to cells, from what a seat knows.

- expectimax: the solver's best placement (ties: the lexicographically lowest).
- greedy: each half for the expected points of the lines it completes (a line through the centre is
  complete with its two own cards; the common card averaged; royal nine ignored; ties: the lowest).
- random: each card to a random free cell.
A policy returns the whole hand's placement (card -> cell index); the bots place one card at a time,
and the solver's lowest best placement stays the lowest best once its first card is placed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from itertools import permutations
from typing import Any

from kikimimi.games.royal_nine.cards import CENTRE, OWN_CELLS
from kikimimi.games.royal_nine.scoring import DOUBLED, LINES, line_role
from kikimimi.games.royal_nine.solver import solve
from kikimimi.games.royal_nine.state import HALF, PLACE1

Placement = dict[str, int]
Policy = Callable[[Mapping[str, Any], int, random.Random], Placement]
_OUTER = [cells for name, cells in LINES.items() if name not in DOUBLED]
_INNER = [(cells[0], cells[2]) for name, cells in LINES.items() if name in DOUBLED]  # the own cells of each


def expectimax_half(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str], future: int,
                    rng: random.Random | None = None) -> Placement:
    return solve(fixed, hand, unseen, future).best()


def greedy_half(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str], future: int,
                rng: random.Random | None = None) -> Placement:
    """The half for the expected points of the lines it completes: a line off the centre once its three
    cells are filled, a line through the centre once its two own cells are (the common card averaged
    over the unseen cards). Later cards, royal and spoiled nine are ignored; ties: the lowest placement."""
    cards = sorted(hand)
    pool = list(unseen)
    free = [c for c in OWN_CELLS if c not in fixed]
    best, best_points = None, -1
    grid: list[str | None] = [fixed.get(i) for i in range(9)]
    for placement in permutations(free, len(cards)):
        for cell in free:
            grid[cell] = None
        for card, cell in zip(cards, placement, strict=True):
            grid[cell] = card
        points = 0  # in units of 1 / len(pool)
        for a, b, c in _OUTER:
            x, y, z = grid[a], grid[b], grid[c]
            if x is not None and y is not None and z is not None:
                points += _points(x, y, z) * len(pool)
        for a, c in _INNER:
            x, z = grid[a], grid[c]
            if x is not None and z is not None:
                points += 2 * sum(_points(x, common, z) for common in pool)
        if points > best_points:
            best, best_points = placement, points
    assert best is not None
    return dict(zip(cards, best, strict=True))


def random_half(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str], future: int,
                rng: random.Random | None = None) -> Placement:
    rng = rng or random.Random(0)
    cards = sorted(hand)
    free = [c for c in OWN_CELLS if c not in fixed]
    return dict(zip(cards, rng.sample(free, len(cards)), strict=True))


@cache
def _points(a: str, b: str, c: str) -> int:
    found = line_role((a, b, c))
    return found[1] if found else 0


HALF_POLICIES = {"expectimax": expectimax_half, "greedy": greedy_half, "random": random_half}


def problem(view: Mapping[str, Any], seat: int) -> tuple[dict[int, str], list[str], list[str], int]:
    """The placement problem a seat faces, from its observation only."""
    grid = view["grids"][str(seat)]
    fixed = {i: card for i, card in enumerate(grid) if card is not None and i != CENTRE}
    future = HALF if view["phase"] == PLACE1 else 0
    return fixed, sorted(view["hands"][str(seat)]), list(view["unseen"]), future


def _policy(name: str) -> Policy:
    half = HALF_POLICIES[name]

    def policy(view: Mapping[str, Any], seat: int, rng: random.Random) -> Placement:
        return half(*problem(view, seat), rng=rng)
    return policy


POLICIES: dict[str, Policy] = {name: _policy(name) for name in HALF_POLICIES}
