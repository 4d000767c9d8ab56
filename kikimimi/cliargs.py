"""argparse types for counts and durations: a value out of range is argparse's one error line naming the
flag ("argument --players: 2 to 10, not 99"), not a traceback or a run that silently does nothing."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

_N = TypeVar("_N", int, float)


def _bounded(convert: Callable[[str], _N], what: str, span: str, ok: Callable[[_N], bool],
             name: str) -> Callable[[str], _N]:
    """A parser of `what` (converted by `convert`) that refuses, naming `span`, a value `ok` turns down."""

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, {span}, not {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{span}, not {text.strip()}")
        return value

    parse.__name__ = name  # argparse names the type in its message
    return parse


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` (to `high`)."""
    span = f"{low} to {high}" if high is not None else f"{low} or more"
    return _bounded(int, "a whole number", span, lambda value: low <= value and (high is None or value <= high),
                    "whole number")


def seconds(low: float = 0.0, high: float | None = None) -> Callable[[str], float]:
    """A finite number of seconds from `low` (to `high`)."""
    span = f"{low:g} to {high:g} seconds" if high is not None else f"{low:g} seconds or more"
    return _bounded(float, "a number of seconds", span,
                    lambda value: math.isfinite(value) and low <= value and (high is None or value <= high),
                    "seconds")
