"""A brute-force expectimax, independent of the solver's tricks: the benchmark's and tests' reference.

No symmetry, no pair sums, no pooled weights: every placement, every set of second-half cards, every
permutation of them and every common card builds a full grid, scored line by line with the doubling
and the royal / spoiled nine applied to that grid. Vectorised over placements only, so that 200 deals
take minutes, not hours. Exact integers as the solver, so the two agree on ties.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations, permutations

import numpy as np

from kikimimi.games.royal_nine.cards import CENTRE, INDEX, OWN_CELLS
from kikimimi.games.royal_nine.scoring import DOUBLED, LINES, ROYAL_POINTS
from kikimimi.games.royal_nine.solver import line_table


def brute_values(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str],
                 future: int) -> tuple[list[tuple[int, ...]], np.ndarray, int]:
    """(placements, numerators, denominator) as `solver.solve`, computed the long way."""
    hand = sorted(hand)
    unseen = sorted(unseen)
    free = [c for c in OWN_CELLS if c not in fixed]
    placements = list(permutations(free, len(hand)))
    table = line_table()
    flat = table.reshape(-1)
    u = [INDEX[c] for c in unseen]
    grid = np.full((len(placements), 9), -1, dtype=np.intp)
    for cell, card in fixed.items():
        grid[:, cell] = INDEX[card]
    for i, placement in enumerate(placements):
        for card, cell in zip(hand, placement, strict=True):
            grid[i, cell] = INDEX[card]
    rest = np.array([[c for c in free if c not in p] for p in placements], dtype=np.intp).reshape(len(placements), -1)
    values = np.zeros(len(placements), dtype=np.int64)
    orders = list(permutations(range(future)))
    sigmas = np.array(orders, dtype=np.intp).reshape(len(orders), future)
    p_index = np.arange(len(placements))[:, None, None]
    s_index = np.arange(len(sigmas))[None, :, None]
    m_sets = list(combinations(u, future))
    for m in m_sets:
        commons = [c for c in u if c not in m]
        # Every (placement, permutation of M) as a full grid: shape (placements, permutations, 9).
        full = np.repeat(grid[:, None, :], len(sigmas), axis=1)
        if future:
            full[p_index, s_index, rest[:, None, :]] = np.array(m, dtype=np.intp)[sigmas][None, :, :]
        own_colours = full[:, :, list(OWN_CELLS)] // 10
        mono = (own_colours == own_colours[:, :, :1]).all(axis=2)
        # The lines off the centre do not change with the common card: scored once per grid.
        outer = sum(_line(flat, full, cells) for name, cells in LINES.items() if name not in DOUBLED)
        total = np.zeros(full.shape[:2], dtype=np.int64)
        for c in commons:
            full[:, :, CENTRE] = c
            score = outer + sum(2 * _line(flat, full, cells) for name, cells in LINES.items() if name in DOUBLED)
            same = own_colours[:, :, 0] == c // 10
            total += np.where(mono & same, score + ROYAL_POINTS, np.where(mono, 0, score))
        values += total.max(axis=1)
    return placements, values, len(m_sets) * (len(u) - future)


def _line(flat: np.ndarray, full: np.ndarray, cells: tuple[int, ...]) -> np.ndarray:
    a, b, d = cells
    n = int(round(len(flat) ** (1 / 3)))
    points: np.ndarray = flat[(full[:, :, a] * n + full[:, :, b]) * n + full[:, :, d]]
    return points


def brute_best(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str], future: int) -> tuple[int, ...]:
    """The lexicographically lowest best placement (cells in sorted-hand order)."""
    placements, values, _ = brute_values(fixed, hand, unseen, future)
    return placements[int(np.argmax(values))]

