"""The best role of any five cards, and every role of a hand.

A role splits five digits 3/2 into an equation with x, + and place value (two cards side by side are
one number) whose sides are equal; it scores that value (0-99, a 2-card side is never more than 99).

The tables are built from the values each side can take: a bitmask of values 0..99 for every multiset
of three digits (220 of them, over the 6 three-card forms and every order) and of two digits (55, over
AB, BA, AxB, A+B). A hand's best role is then the highest bit of `three & two` over its 10 splits: all
2002 multisets of five digits in a few milliseconds. A look-up is one dict access on the sorted digits.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations, combinations_with_replacement, permutations
from typing import NamedTuple

Digits = tuple[int, ...]  # sorted digits: the key of every table here
_LIMIT = 100  # a side worth 100 or more never equals a 2-card side


def _three_values(c: int, d: int, e: int) -> tuple[int, ...]:
    """The six 3-card forms of the seed, cards in this order: CD*E, CD+E, C*D*E, C*D+E, (C+D)*E, C+D+E."""
    cd = 10 * c + d
    return cd * e, cd + e, c * d * e, c * d + e, (c + d) * e, c + d + e


def _two_values(a: int, b: int) -> tuple[int, ...]:
    """The three 2-card forms: AB, A*B, A+B."""
    return 10 * a + b, a * b, a + b


def _mask(values: Iterable[int]) -> int:
    mask = 0
    for v in values:
        if v < _LIMIT:
            mask |= 1 << v
    return mask


def build_tables() -> tuple[dict[Digits, int], dict[Digits, int], dict[Digits, int | None]]:
    """(three-side masks, two-side masks, best role of every 5-multiset; None: no role). No caching:
    the benchmark times this from nothing."""
    three: dict[Digits, int] = {key: _mask(v for p in set(permutations(key)) for v in _three_values(*p))
             for key in combinations_with_replacement(range(10), 3)}
    two: dict[Digits, int] = {key: _mask(v for p in ((key[0], key[1]), (key[1], key[0])) for v in _two_values(*p))
           for key in combinations_with_replacement(range(10), 2)}
    best: dict[Digits, int | None] = {}
    splits = [(pair, tuple(i for i in range(5) if i not in pair)) for pair in combinations(range(5), 2)]
    for hand in combinations_with_replacement(range(10), 5):
        both = 0
        for (i, j), (x, y, z) in splits:
            both |= two[hand[i], hand[j]] & three[hand[x], hand[y], hand[z]]
        best[hand] = both.bit_length() - 1 if both else None
    return three, two, best


@cache
def tables() -> tuple[dict[Digits, int], dict[Digits, int], dict[Digits, int | None]]:
    return build_tables()


def best_table() -> dict[Digits, int | None]:
    """Sorted five digits -> the best role's points (None: no role). Built once."""
    return tables()[2]


def best(digits: Iterable[int]) -> int | None:
    """The best role's points of five digits in any order; None when they make no role (or are not 5)."""
    key = tuple(sorted(digits))
    if len(key) != 5:
        return None
    return best_table()[key]


# -- every role, as equation text ---------------------------------------------------------------------


class Role(NamedTuple):
    text: str  # canonical writing: 3-card side, '=', 2-card side (see equation.py)
    points: int


def _three_writings(c: int, d: int, e: int) -> tuple[tuple[str, int], ...]:
    # Canonical order already: the operand that is not a single digit first.
    cd = f"{c}{d}"
    values = _three_values(c, d, e)
    texts = (f"{cd}*{e}", f"{cd}+{e}", f"{c}*{d}*{e}", f"{c}*{d}+{e}", f"({c}+{d})*{e}", f"{c}+{d}+{e}")
    return tuple(zip(texts, values, strict=True))


def _two_writings(a: int, b: int) -> tuple[tuple[str, int], ...]:
    return tuple(zip((f"{a}{b}", f"{a}*{b}", f"{a}+{b}"), _two_values(a, b), strict=True))


def _same_up_to_order(text: str) -> str:
    """A key equal for writings that differ only in the order of the operands of + and x."""
    left, right = text.split("=")
    return f"{_side_key(left)}={_side_key(right)}"


def _side_key(side: str) -> str:
    if side.startswith("("):  # (C+D)*E
        inner, _, rest = side[1:].partition(")")
        return f"({'+'.join(sorted(inner.split('+')))}){rest}"
    terms = [("*".join(sorted(t.split("*"))) if "*" in t else t) for t in side.split("+")]
    return "+".join(sorted(terms))


@cache
def roles(digits: Digits) -> tuple[Role, ...]:
    """Every role of five digits (sorted), one writing per equation up to the order of + and x
    operands, best first."""
    if len(digits) != 5:
        return ()
    found: dict[str, Role] = {}
    for pair in combinations(range(5), 2):
        rest = [digits[i] for i in range(5) if i not in pair]
        lefts = {w for p in sorted(set(permutations(rest))) for w in _three_writings(*p)}
        a, b = digits[pair[0]], digits[pair[1]]
        rights = {w for p in sorted({(a, b), (b, a)}) for w in _two_writings(*p)}
        by_value: dict[int, list[str]] = {}
        for text, v in rights:
            by_value.setdefault(v, []).append(text)
        for left, v in lefts:
            for right in by_value.get(v, ()):
                text = f"{left}={right}"
                key = _same_up_to_order(text)
                if key not in found or text < found[key].text:
                    found[key] = Role(text, v)
    return tuple(sorted(found.values(), key=lambda r: (-r.points, r.text)))


def best_role(digits: Iterable[int]) -> Role | None:
    """One best role (the first writing in text order among those scoring most), None for no role."""
    key = tuple(sorted(digits))
    every = roles(key)
    return every[0] if every else None


def distribution() -> dict[str, int]:
    """How many of the 2002 multisets have no role, a role, a role of 96 or more."""
    table = best_table()
    values = list(table.values())
    return {
        "multisets": len(values),
        "no_role": sum(v is None for v in values),
        "role": sum(v is not None for v in values),
        "96_or_more": sum(v is not None and v >= 96 for v in values),
    }


def exchanges(hand: Digits, river: Digits, cap: int) -> Iterable[tuple[Digits, Digits, Digits]]:
    """Every way to discard k cards of `hand` and pick k of `river`, 1 <= k <= min(cap, len(river)):
    (discarded, picked, new hand sorted), each multiset once."""
    seen: set[tuple[Digits, Digits]] = set()
    for k in range(1, min(cap, len(river), len(hand)) + 1):
        for out in set(combinations(sorted(hand), k)):
            kept = list(hand)
            for d in out:
                kept.remove(d)
            for pick in set(combinations(sorted(river), k)):
                if (out, pick) in seen:
                    continue
                seen.add((out, pick))
                yield out, pick, tuple(sorted(kept + list(pick)))


def showdown_best(hand: Digits, river: Digits, cap: int) -> int | None:
    """The best role reachable by a showdown turn (None: none is, and the showdown is refused) [D6]."""
    table = best_table()
    found: int | None = None
    for _, _, new in exchanges(hand, river, cap):
        v = table[new]
        if v is not None and (found is None or v > found):
            found = v
    return found
