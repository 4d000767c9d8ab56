"""The solver against a brute force over every writing the equation reader accepts."""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from kikimimi.games.suhjong import solver
from kikimimi.games.suhjong.equation import parse

OPS = {"*": "op-times", "+": "op-plus", "=": "op-equals", "(": "op-open", ")": "op-close"}
# Every shape of a 3-card and a 2-card side (x stands for a card), needless parentheses left out.
THREE = ["xx*x", "x*xx", "xx+x", "x+xx", "x*x*x", "x*x+x", "x+x*x", "(x+x)*x", "x*(x+x)", "x+x+x"]
TWO = ["xx", "x*x", "x+x"]


def tokens(shape: str, cards: tuple[int, ...]) -> list[str]:
    it = iter(cards)
    used: dict[int, int] = {}
    out = []
    for ch in shape:
        if ch == "x":
            v = next(it)
            used[v] = used.get(v, 0) + 1
            out.append(f"digit-{v}-{used[v]}")
        else:
            out.append(OPS[ch])
    return out


def brute_best(hand: tuple[int, ...]) -> int | None:
    best = None
    for order in set(permutations(hand)):
        for left in THREE:
            for right in TWO:
                for shape in (f"{left}={right}", f"{right}={left}"):
                    eq = parse(tokens(shape, order))
                    assert eq is not None, shape
                    if eq.holds and (best is None or eq.points > best):
                        best = eq.points
    return best


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=5, max_size=5))
def test_best_matches_a_brute_force_over_written_equations(hand):
    assert solver.best(hand) == brute_best(tuple(hand))


def test_every_listed_role_holds_and_the_first_is_the_best():
    for hand in list(combinations_with_replacement(range(10), 5))[::37]:
        roles = solver.roles(hand)
        assert (roles[0].points if roles else None) == solver.best(hand)
        for role in roles:
            used: dict[str, int] = {}
            toks = []
            for ch in role.text:
                if ch in OPS:
                    toks.append(OPS[ch])
                else:
                    used[ch] = used.get(ch, 0) + 1
                    toks.append(f"digit-{ch}-{used[ch]}")
            eq = parse(toks)
            assert eq is not None and eq.holds and eq.text == role.text and eq.points == role.points
            assert sorted(int(c) for c in role.text if c.isdigit()) == list(hand)


def test_distribution_and_build_time():
    import time

    started = time.perf_counter()
    solver.build_tables()
    assert time.perf_counter() - started < 0.5
    d = solver.distribution()
    assert d["multisets"] == 2002 and d["no_role"] + d["role"] == 2002
    assert d == {"multisets": 2002, "no_role": 358, "role": 1644, "96_or_more": 52}


def test_showdown_reachability():
    assert solver.showdown_best((4, 6, 8, 9, 0), (2,), 3) == 96
    assert solver.showdown_best((2, 2, 2, 5, 8), (2,), 3) is None
    assert solver.showdown_best((2, 2, 2, 5, 8), (), 3) is None
