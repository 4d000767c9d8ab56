"""What the table waits for, in words for the Priest: the game's own guide, else a generic line.

A game may give the console a guide (its UI object's `guide(report, state) -> list[str]`:
finished lines such as "Priest: give seat 2 two pieces from the basket"). Without one the console
says whose turn it is, or that the game is over. Pure: a function of the state report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def generic_guide(report: Mapping[str, Any]) -> list[str]:
    """Whose turn it is, or that the game is over; nothing a game alone would know."""
    if report.get("phase") == "over" or report.get("result"):
        return ["Next: the game is over. Press n for a new game."]
    turn = report.get("turn")
    if turn:
        return [f"Next: seat {turn} to move."]
    return []


def guide(report: Mapping[str, Any], state: Any = None, game_guide: Callable[..., Any] | None = None) -> list[str]:
    """The game's own guide lines when it has one (a failing one falls back), else the generic ones."""
    if game_guide is not None:
        try:
            return [str(line) for line in game_guide(report, state)]
        except Exception as exc:  # a game's guide bug must not stop the console
            return [f"(the game's guide failed: {exc!r})", *generic_guide(report)]
    return generic_guide(report)


def load_guide(info: Any) -> Callable[..., Any] | None:
    """The game's guide function, if its UI object has one."""
    try:
        return info.guide_function()
    except Exception:  # a UI that cannot be imported: the generic guide, as without one
        return None
