"""The solver against the brute force, its symmetry, ties and the contract's pools; the policies."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kikimimi.games.royal_nine.brute import brute_values
from kikimimi.games.royal_nine.cards import deck
from kikimimi.games.royal_nine.policies import greedy_half, random_half
from kikimimi.games.royal_nine.scoring import grid_score
from kikimimi.games.royal_nine.solver import solve


def _deal(seed: int, tens: bool = False):
    cards = list(deck(tens))
    random.Random(seed).shuffle(cards)
    return cards


@pytest.mark.parametrize("seed", [1])
def test_first_half_equals_the_brute_force(seed):
    cards = _deal(seed)
    hand, other = cards[1:5], cards[5:9]
    unseen = [c for c in cards if c not in hand + other]
    assert len(unseen) == 10  # the contract's place1 pool
    placements, values, denominator = brute_values({}, hand, unseen, 4)
    solution = solve({}, hand, unseen, 4)
    assert list(solution.placements) == placements and solution.denominator == denominator
    assert np.array_equal(solution.numerators, values)


def test_partial_halves_and_the_tens_variant_equal_the_brute_force():
    cards = _deal(5, tens=True)
    hand, other = cards[1:5], cards[5:9]
    unseen = [c for c in cards if c not in hand + other]
    assert len(unseen) == 12
    fixed = {0: hand[0], 6: hand[1]}
    _, values, _ = brute_values(fixed, hand[2:], unseen, 4)
    assert np.array_equal(solve(fixed, hand[2:], unseen, 4).numerators, values)
    second, other2 = cards[9:13], cards[13:17]
    unseen2 = [c for c in cards if c not in hand + other + second + other2]
    assert len(unseen2) == 4
    fixed2 = dict(zip((1, 2, 3, 5), hand, strict=True))
    _, values2, _ = brute_values(fixed2, second, unseen2, 0)
    assert np.array_equal(solve(fixed2, second, unseen2, 0).numerators, values2)


def test_second_half_is_the_mean_over_the_unseen_commons():
    first = {0: "red-1", 1: "red-2", 2: "red-3", 3: "blue-7"}
    hand = ["red-6", "red-7", "red-8", "red-9"]
    unseen = ["blue-5", "red-4"]
    solution = solve(first, hand, unseen, 0)
    for placement in solution.placements[:6]:
        grid = [None] * 9
        for cell, card in first.items():
            grid[cell] = card
        for card, cell in zip(hand, placement, strict=True):
            grid[cell] = card
        expected = sum(grid_score(grid, c) for c in unseen) / 2
        assert solution.expected(placement) == pytest.approx(expected)


def test_symmetric_placements_have_equal_values():
    cards = _deal(3)
    hand, other = cards[1:5], cards[5:9]
    unseen = [c for c in cards if c not in hand + other]
    s = solve({}, hand, unseen, 4)
    p = s.placements[100]
    mirror = tuple({0: 2, 1: 1, 2: 0, 3: 5, 5: 3, 6: 8, 7: 7, 8: 6}[c] for c in p)
    transpose = tuple({0: 0, 1: 3, 2: 6, 3: 1, 5: 7, 6: 2, 7: 5, 8: 8}[c] for c in p)
    assert s.expected(p) == s.expected(mirror) == s.expected(transpose)


def test_best_is_the_lowest_optimal_placement_and_the_hint_the_lowest_cell():
    cards = _deal(4)
    hand, other = cards[1:5], cards[5:9]
    unseen = [c for c in cards if c not in hand + other]
    s = solve({}, hand, unseen, 4)
    optimal = s.optimal()
    assert len(optimal) >= 8  # the 8 symmetries of an empty grid
    best = s.best()
    assert tuple(best[c] for c in sorted(hand)) == min(optimal)
    for card in hand:
        assert s.best_cell(card) == min(p[sorted(hand).index(card)] for p in optimal)
    # Following the plan card by card keeps it the best.
    first = sorted(hand)[0]
    rest = solve({best[first]: first}, sorted(hand)[1:], unseen, 4).best()
    assert rest == {c: best[c] for c in sorted(hand)[1:]}


def test_royal_nine_chances_count():
    # Eight red own cards are sure: the common card is red (royal, +16) or blue (spoiled, 0).
    first = {0: "red-1", 1: "red-2", 2: "red-3", 3: "red-4"}
    s = solve(first, ["red-6", "red-7", "red-8", "red-9"], ["red-5", "blue-5"], 0)
    assert s.best_value == pytest.approx((12 + 16 + 0) / 2)


def test_the_policies_place_every_card_in_a_free_cell():
    fixed = {0: "red-1", 4 + 1: "blue-2"}
    hand = ["red-3", "red-4", "blue-5", "blue-6"]
    unseen = ["red-9", "blue-9", "red-8", "blue-8"]
    for policy in (greedy_half, random_half):
        placement = policy(fixed, hand, unseen, 0, random.Random(1))
        assert sorted(placement) == sorted(hand)
        assert len(set(placement.values())) == 4 and not set(placement.values()) & {0, 4, 5}


def test_greedy_completes_a_line():
    placement = greedy_half({}, ["red-1", "red-2", "red-3", "blue-9"], ["blue-1", "blue-2", "red-8"], 4)
    cells = sorted(placement[c] for c in ("red-1", "red-2", "red-3"))
    assert cells in ([0, 1, 2], [0, 3, 6], [2, 5, 8], [6, 7, 8])
