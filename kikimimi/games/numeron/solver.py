"""The guessing solver: candidates, EAT/BITE partitions and the choice of the next call.

Numbers are strings of distinct digits ("0319"). A judgement is coded `eat * 8 + bite` so that one
small integer indexes a partition. The choice rule (used both offline, to build the shipped opening
trees in `data/`, and at the table when the tree does not apply) scores every guess by the entropy of
the judgement it gets over the candidates (a candidate first among equals: it may win at once). The
offline build (`opening.py`) improves on it by a rollout: among the best-scored guesses it keeps the
one whose greedily completed subtree costs least.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import permutations

import numpy as np

CODES = 64  # eat * 8 + bite < 64


def code(eat: int, bite: int) -> int:
    return eat * 8 + bite


def judge(secret: str, call: str) -> tuple[int, int]:
    """(EAT, BITE) of `call` against `secret`."""
    eat = sum(a == b for a, b in zip(secret, call, strict=True))
    return eat, len(set(secret) & set(call)) - eat


@cache
def numbers(digits: int) -> tuple[str, ...]:
    """Every number of `digits` distinct digits, in increasing order."""
    return tuple("".join(p) for p in permutations("0123456789", digits))


@cache
def _arrays(digits: int) -> tuple[np.ndarray, np.ndarray]:
    """Each number's digits (n, digits) and its digit set as a 10-bit mask (n,)."""
    nums = numbers(digits)
    arr = np.array([[int(c) for c in n] for n in nums], dtype=np.int8)
    masks = (1 << arr.astype(np.int64)).sum(axis=1)
    return arr, masks


_POP = np.array([bin(i).count("1") for i in range(1024)], dtype=np.int8)


def index_of(digits: int) -> dict[str, int]:
    return _index(digits)


@cache
def _index(digits: int) -> dict[str, int]:
    return {n: i for i, n in enumerate(numbers(digits))}


def codes(digits: int, guesses: np.ndarray, cands: np.ndarray) -> np.ndarray:
    """The judgement code of every guess (rows) against every candidate (columns), as int16."""
    arr, masks = _arrays(digits)
    g, c = arr[guesses], arr[cands]
    eat = np.zeros((len(guesses), len(cands)), dtype=np.int8)  # int8 throughout: the run-time budget
    for k in range(digits):
        eat += g[:, k, None] == c[None, :, k]
    common = _POP[masks[guesses][:, None] & masks[cands][None, :]]
    table: np.ndarray = (eat * 7 + common).astype(np.int16)  # eat * 8 + (common - eat)
    return table


def score(digits: int, guesses: np.ndarray, cands: np.ndarray) -> np.ndarray:
    """Each guess's score, larger better: the entropy of the judgement it gets over the candidates,
    a candidate first among equals (it may win at once)."""
    table = codes(digits, guesses, cands)
    width = (digits + 1) ** 2  # judgements packed densely: eat * (D + 1) + bite
    packed = (table >> 3) * (digits + 1) + (table & 7)
    counts = np.bincount((np.arange(len(guesses), dtype=np.int32)[:, None] * width + packed).ravel(),
                         minlength=len(guesses) * width).reshape(len(guesses), width)
    n = len(cands)
    c = np.arange(n + 1, dtype=np.float64)
    c_log_c = c * np.log2(np.maximum(c, 1))  # sum of c log c over the parts gives the entropy
    entropy = np.log2(n) - c_log_c[counts].sum(axis=1) / n
    scores: np.ndarray = entropy + np.isin(guesses, cands) * 1e-6
    return scores


def guess_pool(digits: int, cands: np.ndarray, limit: int, rng: np.random.Generator | None) -> np.ndarray:
    """The guesses worth scoring: every number when that is cheap, else the candidates and a sample."""
    total = len(numbers(digits))
    if total * len(cands) <= limit:
        return np.arange(total)
    rng = rng or np.random.default_rng(0)
    if len(cands) * len(cands) > limit:  # too many candidates even to score them all: a sample of them
        return np.sort(rng.choice(cands, size=max(1, limit // len(cands)), replace=False))
    extra = max(0, limit // max(len(cands), 1) - len(cands))
    sample = rng.choice(total, size=min(total, extra), replace=False) if extra else np.array([], dtype=np.int64)
    return np.union1d(cands, sample)


def best_guesses(digits: int, cands: np.ndarray, top: int = 1, limit: int = 4_000_000,
                 rng: np.random.Generator | None = None) -> list[int]:
    """The `top` best guesses (indices) for the candidate set, best first."""
    if len(cands) <= 2:
        return [int(cands[0])]
    pool = guess_pool(digits, cands, limit, rng)
    s = score(digits, pool, cands)
    order = np.argsort(-s, kind="stable")[:top]
    return [int(pool[i]) for i in order]


def choose(digits: int, candidates: Iterable[str] | np.ndarray, limit: int = 1_500_000) -> str:
    """The next call for a candidate set (numbers, or sorted indices into `numbers`): the run-time rule."""
    if isinstance(candidates, np.ndarray):
        cands = candidates.astype(np.int64)
    else:
        index = _index(digits)
        cands = np.array(sorted(index[c] for c in candidates), dtype=np.int64)
    if len(cands) == 0:
        return numbers(digits)[0]
    return numbers(digits)[best_guesses(digits, cands, 1, limit)[0]]


def partition(digits: int, guess: int, cands: np.ndarray) -> dict[int, np.ndarray]:
    row = codes(digits, np.array([guess]), cands)[0]
    return {int(k): cands[row == k] for k in np.unique(row)}


def consistent(digits: int, history: Sequence[tuple[str, int, int]], pool: Iterable[str] | None = None) -> list[str]:
    """The numbers that give every recorded judgement (call, eat, bite)."""
    out = list(pool if pool is not None else numbers(digits))
    for call, eat, bite in history:
        out = [n for n in out if judge(n, call) == (eat, bite)]
    return out
