"""What a seat knows about the other seat's number: the candidates left by the public record.

Each public record narrows or transforms the set: a seat's own judged calls and attack items' answers
narrow it; the other seat's DOUBLE reveal narrows it; the other seat's SHUFFLE, CHANGE and MOVE map every
candidate to every number it could have become (an exact set update: nothing is guessed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import numpy as np

from kikimimi.games.numeron.solver import _arrays, codes, index_of, numbers


@cache
def _lookup(digits: int) -> np.ndarray:
    """Decimal value of a digit string -> its index in `numbers` (-1 when digits repeat)."""
    table = np.full(10**digits, -1, dtype=np.int32)
    for i, n in enumerate(numbers(digits)):
        table[int(n)] = i
    return table


@cache
def _values(digits: int) -> np.ndarray:
    arr, _ = _arrays(digits)
    weights = 10 ** np.arange(digits - 1, -1, -1, dtype=np.int64)
    values: np.ndarray = (arr.astype(np.int64) * weights).sum(axis=1)
    return values


def _klass_mask(arr: np.ndarray, place: int, cls: str) -> np.ndarray:
    col = arr[:, place - 1]
    return col <= 4 if cls.lower() == "low" else col >= 5


def after_shuffle(digits: int, cands: np.ndarray) -> np.ndarray:
    """Every order of every candidate's digits."""
    _, masks = _arrays(digits)
    return np.flatnonzero(np.isin(masks, np.unique(masks[cands])))


def after_change(digits: int, cands: np.ndarray, place: int, cls: str) -> np.ndarray:
    """Every number a candidate becomes when the digit at `place` changes to another of class `cls`."""
    arr, masks = _arrays(digits)
    inset = np.zeros(len(arr), dtype=bool)
    inset[cands] = True
    lookup, values = _lookup(digits), _values(digits)
    weight = 10 ** (digits - place)
    col = arr[:, place - 1].astype(np.int64)
    ok = np.zeros(len(arr), dtype=bool)
    for d in (range(0, 5) if cls.lower() == "low" else range(5, 10)):
        old = lookup[values + (d - col) * weight]  # the number m was, with d at `place`
        fits = (old >= 0) & (col != d) & ((masks >> d) & 1 == 0)
        ok |= fits & inset[np.where(old >= 0, old, 0)]
    return np.flatnonzero(ok & _klass_mask(arr, place, cls))


def after_move(digits: int, cands: np.ndarray, src: int, dst: int) -> np.ndarray:
    """Every number a candidate becomes when some amount A >= 1 moves from place `src` to `dst`."""
    arr, _ = _arrays(digits)
    inset = np.zeros(len(arr), dtype=bool)
    inset[cands] = True
    lookup, values = _lookup(digits), _values(digits)
    ws, wd = 10 ** (digits - src), 10 ** (digits - dst)
    cs, cd = arr[:, src - 1].astype(np.int64), arr[:, dst - 1].astype(np.int64)
    ok = np.zeros(len(arr), dtype=bool)
    for amount in range(1, 10):
        legal = (cs + amount <= 9) & (cd - amount >= 0)
        old = lookup[np.where(legal, values + amount * ws - amount * wd, 0)]
        ok |= legal & (old >= 0) & inset[np.where(old >= 0, old, 0)]
    return np.flatnonzero(ok)


def candidates(digits: int, log: Iterable[Sequence[Any]], seat: int) -> np.ndarray:
    """The indices (into `numbers(digits)`) of every number the other seat may hold, as `seat` knows."""
    arr, masks = _arrays(digits)
    index = index_of(digits)
    cands = np.arange(len(arr))
    for record in log:
        kind, by = record[0], record[1]
        if kind == "call":
            if by == seat:
                _, _, call, eat, bite = record
                row = codes(digits, np.array([index[call]]), cands)[0]
                cands = cands[row == eat * 8 + bite]
            continue
        name, info = record[2], dict(record[3])
        if by == seat:
            if name == "high-low":
                for k, cls in enumerate(info["answer"], 1):
                    cands = cands[_klass_mask(arr[cands], k, cls)]
            elif name == "slash":
                sub = arr[cands]
                cands = cands[(sub.max(axis=1) - sub.min(axis=1)) == info["answer"]]
            elif name == "target":
                d, place = info["digit"], info["place"]
                absent = ((masks[cands] >> d) & 1) == 0
                cands = cands[absent] if place is None else cands[arr[cands, place - 1] == d]
        elif name == "double":
            cands = cands[arr[cands, info["place"] - 1] == info["digit"]]
        elif name == "shuffle":
            cands = after_shuffle(digits, cands)
        elif name == "change":
            cands = after_change(digits, cands, info["place"], str(info["class"]))
        elif name == "move":
            cands = after_move(digits, cands, info["from"], info["to"])
    return cands
