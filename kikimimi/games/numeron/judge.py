"""EAT/BITE judging, the attack items' answers and the shipped solver trees (no numpy: the engine uses it)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources


def judge(secret: str, call: str) -> tuple[int, int]:
    """(EAT, BITE): a called digit at its place in the number is an EAT, elsewhere in it a BITE."""
    eat = sum(a == b for a, b in zip(secret, call, strict=True))
    return eat, len(set(secret) & set(call)) - eat


def slash(number: str) -> int:
    """SLASH's answer: the largest digit minus the smallest."""
    return int(max(number)) - int(min(number))


def class_word(cls: str) -> str:
    """The report's spelling of a class: "LOW" or "HIGH"."""
    return cls.upper()


def token(eat: int, bite: int) -> str:
    """One judgement in a tree key: "11" is 1 EAT 1 BITE."""
    return f"{eat}{bite}"


@cache
def tree(digits: int) -> dict[str, str]:
    """The shipped opening tree for `digits` (`data/tree<D>.json.gz`): judgement history -> next call."""
    try:
        data = resources.files("kikimimi.games.numeron").joinpath(f"data/tree{digits}.json.gz").read_bytes()
    except (FileNotFoundError, OSError):
        return {}
    calls: dict[str, str] = json.loads(gzip.decompress(data))["tree"]
    return calls


def tree_calls(secret: str, digits: int, book: dict[str, str] | None = None) -> int | None:
    """The calls the tree needs to find `secret` (NUMERON call included); None when it does not cover it."""
    book = tree(digits) if book is None else book
    key, calls = "", 0
    while key in book and calls <= 12:
        call = book[key]
        calls += 1
        eat, bite = judge(secret, call)
        if eat == digits:
            return calls
        key += token(eat, bite)
    return None


def solver_calls(secret: str, digits: int) -> int | None:
    """Practice mode's comparison: how many calls the table's solver needs for this number."""
    return tree_calls(secret, digits)
