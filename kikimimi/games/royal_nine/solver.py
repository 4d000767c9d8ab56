"""The exact placement solver: the expected round score of every placement of the cards in hand.

What a seat knows: its grid, its hand, the other seat's cards (cards are open) and so the unseen
cards U (the common card is among them until the reveal). The model (the contract's "Bot and hint"):

- place2: the common card is uniform over U (2 cards, 4 with tens).
- place1: the seat's 4 second-half cards M are uniform over the 4-subsets of U, the common card then
  uniform over U \\ M; the second half is placed knowing M, for the highest expected score with the
  common card uniform over U \\ M. (The other seat's second-half cards, which the real second-half
  decision will also know, are not modelled: see docs/rules/royal-nine.md, [R5].)

The value of a first-half placement P is  sum_M max_sigma sum_{c in U\\M} score(P, sigma(M), c),
divided by |M-sets| * |U\\M|: integers until the end, so ties are exact.

Why it is fast (a plain Python expectimax takes ~260 ms a first-half decision, ~710 ms with tens):
- The 8 own cards are "sources" 0..7 (fixed cards, hand cards, future cards); an arrangement maps
  cells to sources. Arrangements, and for every line the id of its source triple (or pair), are
  precomputed once per shape of the problem and cached.
- Per decision, each of the 56 source triples is scored once per M (a table lookup), and the lines
  through the common card become pair sums over the common card's pool (28 pairs): the common card
  disappears from the inner loop.
- An empty grid is symmetric under the 8 rotations and reflections of the square (they keep rows
  and columns, and lines have no order): only 210 of the 1680 first-half placements are computed.
- The rest is numpy gathers over (M, arrangement) and a max over the second-half permutations.
- All 8 own cards of one colour is a property of M, not of the arrangement: royal and spoiled nine
  only change the common card's pool and weight for that M (and add 16 per same-colour common).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, permutations, product

import numpy as np

from kikimimi.games.royal_nine.cards import CARDS, CENTRE, INDEX, OWN_CELLS
from kikimimi.games.royal_nine.scoring import LINES, ROYAL_POINTS, line_role

N = len(CARDS)
_OUTER = tuple(LINES[name] for name in ("row-1", "row-3", "col-1", "col-3"))
_INNER = tuple(tuple(i for i in LINES[name] if i != CENTRE) for name in ("row-2", "col-2"))
_TRIPLES = tuple(combinations(range(8), 3))
_PAIRS = tuple(combinations(range(8), 2))
_TRIPLE_A, _TRIPLE_B, _TRIPLE_C = (np.array(x) for x in zip(*_TRIPLES, strict=True))
_PAIR_A, _PAIR_B = (np.array(x) for x in zip(*_PAIRS, strict=True))
_COLOUR = np.array([i // 10 for i in range(N)])


@cache
def line_table() -> np.ndarray:
    """Base points (not doubled) of every ordered triple of distinct cards: shape (N, N, N)."""
    table = np.zeros((N, N, N), dtype=np.int32)
    for a, b, c in product(range(N), repeat=3):
        if a != b and b != c and a != c:
            found = line_role((CARDS[a], CARDS[b], CARDS[c]))
            table[a, b, c] = found[1] if found else 0
    return table


def _symmetries() -> list[tuple[int, ...]]:
    """The 8 symmetries of the square as permutations of the cell indices 0..8."""
    def rotate(i: int) -> int:
        row, col = divmod(i, 3)
        return col * 3 + (2 - row)

    def mirror(i: int) -> int:
        row, col = divmod(i, 3)
        return row * 3 + (2 - col)

    out = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for i in range(9):
                j = mirror(i) if flip else i
                for _ in range(turns):
                    j = rotate(j)
                perm.append(j)
            out.append(tuple(perm))
    return out


@dataclass(frozen=True)
class _Shape:
    """Everything about a problem that does not depend on which cards: arrangements and line ids."""

    placements: tuple[tuple[int, ...], ...]  # every placement of the hand (cell per hand card), lexicographic
    computed: np.ndarray  # index into `placements` of each placement computed (all, or the symmetry reps)
    value_of: np.ndarray  # for each placement, the index of its computed representative
    sigmas: int  # future permutations per computed placement
    triple_ids: np.ndarray  # (4 outer lines, computed * sigmas)
    pair_ids: np.ndarray  # (2 inner lines, computed * sigmas)


@lru_cache(maxsize=64)
def _shape(fixed_cells: tuple[int, ...], k: int, future: int) -> _Shape:
    free = [c for c in OWN_CELLS if c not in fixed_cells]
    f = len(fixed_cells)
    placements = tuple(permutations(free, k))
    index = {p: i for i, p in enumerate(placements)}
    if f == 0 and future and k == 4:
        # An empty grid: one representative per orbit of the square's symmetries (all orbits have 8).
        symmetries = _symmetries()
        rep = [index[min(tuple(g[c] for c in p) for g in symmetries)] for p in placements]
        computed = sorted(set(rep))
        slot = {p: i for i, p in enumerate(computed)}
        value_of = np.array([slot[r] for r in rep])
    else:
        computed = list(range(len(placements)))
        value_of = np.arange(len(placements))
    sigma_list = list(permutations(range(future)))
    triple_lookup: dict[tuple[int, ...], int] = {t: i for i, t in enumerate(_TRIPLES)}
    pair_lookup: dict[tuple[int, ...], int] = {p: i for i, p in enumerate(_PAIRS)}
    triple_ids: list[list[int]] = [[] for _ in _OUTER]
    pair_ids: list[list[int]] = [[] for _ in _INNER]
    for i in computed:
        placement = placements[i]
        rest = [c for c in free if c not in placement]
        for sigma in sigma_list:
            source = dict(zip(fixed_cells, range(f), strict=True))
            source.update({cell: f + j for j, cell in enumerate(placement)})
            source.update({cell: f + k + sigma[j] for j, cell in enumerate(rest)})
            for n, line in enumerate(_OUTER):
                triple_ids[n].append(triple_lookup[tuple(sorted(source[c] for c in line))])
            for n, pair in enumerate(_INNER):
                pair_ids[n].append(pair_lookup[tuple(sorted(source[c] for c in pair))])
    return _Shape(placements, np.array(computed), value_of, len(sigma_list),
                  np.array(triple_ids, dtype=np.intp), np.array(pair_ids, dtype=np.intp))


@dataclass(frozen=True)
class Solution:
    """The expected round score of every placement of `hand` (each a cell per card of `hand`)."""

    hand: tuple[str, ...]
    placements: tuple[tuple[int, ...], ...]
    numerators: np.ndarray  # int64 per placement: expected score = numerator / denominator
    denominator: int

    @property
    def best_value(self) -> float:
        return float(self.numerators.max()) / self.denominator

    def expected(self, placement: Sequence[int]) -> float:
        return float(self.numerators[self.placements.index(tuple(placement))]) / self.denominator

    def optimal(self) -> list[tuple[int, ...]]:
        top = self.numerators.max()
        return [self.placements[i] for i in np.flatnonzero(self.numerators == top)]

    def best(self) -> dict[str, int]:
        """The lexicographically lowest best placement: card -> cell index."""
        return dict(zip(self.hand, self.placements[int(np.argmax(self.numerators))], strict=True))

    def best_cell(self, card: str) -> int:
        """The card's cell in a best placement; ties: the lowest cell."""
        j = self.hand.index(card)
        return min(p[j] for p in self.optimal())


def solve(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str], future: int) -> Solution:
    """Solve a placement: `fixed` cell -> card already placed, `hand` to place now, `future` cards still
    to come this round (4 in the first half, 0 in the second), `unseen` the cards the seat has not heard."""
    return _solve(tuple(sorted(fixed.items())), tuple(sorted(hand)), tuple(sorted(unseen)), future)


@lru_cache(maxsize=512)
def _solve(fixed: tuple[tuple[int, str], ...], hand: tuple[str, ...], unseen: tuple[str, ...],
           future: int) -> Solution:
    fixed_cells = tuple(cell for cell, _ in fixed)
    k = len(hand)
    if k == 0 or len(fixed) + k + future != 8 or len(unseen) <= future:
        raise ValueError("a placement needs cards in hand, 8 own cards in all and a common card to come")
    shape = _shape(fixed_cells, k, future)
    table = line_table()
    flat = table.reshape(-1)
    u = np.array([INDEX[c] for c in unseen])
    known = [INDEX[c] for _, c in fixed] + [INDEX[c] for c in hand]
    positions = list(combinations(range(len(u)), future))  # each M as positions in `u`
    ms = len(positions)
    own = np.empty((ms, 8), dtype=np.intp)
    own[:, :len(known)] = known
    pool = np.ones((ms, len(u)), dtype=bool)  # the common card's candidates for each M
    if future:
        pos = np.array(positions)
        own[:, len(known):] = u[pos]
        pool[np.arange(ms)[:, None], pos] = False
    colours = _COLOUR[own]
    mono = (colours == colours[:, :1]).all(axis=1)
    # All eight own cards of one colour: only a common card of that colour scores (+16); the others give 0.
    pool &= ~mono[:, None] | (_COLOUR[u][None, :] == colours[:, :1])
    weight = pool.sum(axis=1)
    bonus = np.where(mono, ROYAL_POINTS * weight, 0).astype(np.int64)
    # Each source triple scored once per M (outer lines), each source pair summed over the common's pool.
    triples = flat[own[:, _TRIPLE_A] * (N * N) + own[:, _TRIPLE_B] * N + own[:, _TRIPLE_C]] * weight[:, None]
    pairs = 2 * (table[own[:, _PAIR_A][:, :, None], u[None, None, :], own[:, _PAIR_B][:, :, None]]
                 * pool[:, None, :]).sum(axis=2)
    # int16 halves the memory traffic of the big gathers (a line is worth at most 4 * 12 here).
    triples = triples.astype(np.int16)
    pairs = pairs.astype(np.int16)
    ids = shape.triple_ids
    total = triples.take(ids[0], axis=1)
    for line in (1, 2, 3):
        total += triples.take(ids[line], axis=1)
    total += pairs.take(shape.pair_ids[0], axis=1)
    total += pairs.take(shape.pair_ids[1], axis=1)
    best = total.reshape(ms, len(shape.computed), shape.sigmas).max(axis=2).astype(np.int64) + bonus[:, None]
    values = best.sum(axis=0)[shape.value_of]
    return Solution(hand, shape.placements, values, ms * (len(u) - future))


def best_cell(fixed: Mapping[int, str], hand: Iterable[str], unseen: Iterable[str], future: int, card: str) -> int:
    """The hint: `card`'s cell (0..8) in a best placement of the hand; ties: the lowest."""
    return solve(fixed, hand, unseen, future).best_cell(card)


__all__ = ["Solution", "solve", "best_cell", "line_table"]
