"""Seat choice order for every mix of ranks, peerages and dates of reaching a rank."""

from __future__ import annotations

import itertools
from dataclasses import replace

from kikimimi.games.trident.ladder import Rank, compare_precedence, player_status, seat_order

BASE = player_status([], name="?")


def who(name: str, rank: Rank, peerage: int = 0, since: int | None = 1):
    return replace(BASE, name=name, rank=rank, peerage=peerage, rank_since=None if since is None else (since,))


def test_lowest_chooses_first_then_highest_then_the_middle():
    people = [who("Bishop", Rank.BISHOP), who("General", Rank.GENERAL), who("Apprentice", Rank.APPRENTICE)]
    for perm in itertools.permutations(people):
        assert seat_order(list(perm)) == ["Apprentice", "General", "Bishop"]


def test_a_first_timer_chooses_before_any_apprentice():
    order = seat_order(
        [who("Appr", Rank.APPRENTICE), who("New", Rank.UNREGISTERED, since=None), who("Knight", Rank.KNIGHT)]
    )
    assert order == ["New", "Knight", "Appr"]


def test_all_first_timers_keep_the_order_given():
    names = ["C", "A", "B"]
    assert seat_order([who(n, Rank.UNREGISTERED, since=None) for n in names]) == names


def test_apprentices_are_all_equal_whatever_their_peerage_or_date():
    people = [who("A", Rank.APPRENTICE, 2, 5), who("B", Rank.APPRENTICE, 0, 1), who("C", Rank.APPRENTICE, 5, 9)]
    assert seat_order(people) == ["A", "B", "C"]
    assert compare_precedence(people[0], people[2]) == 0


def test_peerage_decides_within_a_rank():
    people = [who("Baron", Rank.WIZARD, 1), who("Duke", Rank.WIZARD, 5), who("Plain", Rank.WIZARD, 0)]
    assert seat_order(people) == ["Plain", "Duke", "Baron"]


def test_rank_outweighs_peerage():
    people = [who("DukeBishop", Rank.BISHOP, 5), who("Wizard", Rank.WIZARD, 0), who("EarlBishop", Rank.BISHOP, 3)]
    assert seat_order(people) == ["EarlBishop", "Wizard", "DukeBishop"]


def test_who_reached_the_rank_first_stands_higher():
    people = [who("Late", Rank.KNIGHT, 1, 30), who("Early", Rank.KNIGHT, 1, 10), who("Mid", Rank.KNIGHT, 1, 20)]
    assert seat_order(people) == ["Late", "Early", "Mid"]


def test_complete_equals_keep_the_order_given():
    people = [who(n, Rank.GENERAL, 2, 7) for n in "XYZ"]
    assert seat_order(people) == ["X", "Y", "Z"]


def test_two_players():
    assert seat_order([who("Hi", Rank.KING, 1), who("Lo", Rank.BISHOP)]) == ["Lo", "Hi"]


GRID = [
    who(f"{r.name}-{p}-{t}", r, p, t)
    for r in Rank
    for p in (0, 1, 5)
    for t in (1, 2)
    if r is not Rank.UNREGISTERED or (p, t) == (0, 1)
]


def test_every_mix_lowest_then_highest_then_between():
    """For every three players of the grid: nobody below the first chooser, nobody above the second."""
    for trio in itertools.combinations(GRID, 3):
        for given in (trio, trio[::-1]):
            order = seat_order(list(given))
            by_name = {s.name: s for s in given}
            first, second, third = (by_name[n] for n in order)
            assert sorted(order) == sorted(s.name for s in given)
            assert all(compare_precedence(first, s) <= 0 for s in given), order
            assert all(compare_precedence(second, s) >= 0 for s in given), order
            assert compare_precedence(first, third) <= 0 <= compare_precedence(second, third)
