"""argparse types for counts and durations: a value out of range is argparse's one error line naming the
flag ("argument --players: 2 to 10, not 99"), not a traceback or a run that silently does nothing."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` (to `high`)."""
    span = f"{low} to {high}" if high is not None else f"{low} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number, {span}, not {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{span}, not {value}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its message
    return parse


def seconds(low: float = 0.0, high: float | None = None) -> Callable[[str], float]:
    """A finite number of seconds from `low` (to `high`)."""
    span = f"{low:g} to {high:g} seconds" if high is not None else f"{low:g} seconds or more"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, {span}, not {text!r}") from None
        if not math.isfinite(value) or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{span}, not {text}")
        return value

    parse.__name__ = "seconds"
    return parse
