"""What the table waits for, in words for the Priest: the game's own guide, else a generic line.

A game may give the console a guide (its UI object's `guide(report, state) -> list`): lines as phrase keys
of the console catalog with their parameters (`["guide.trident.deal", {...}]`, said in the table's language
by `kikimimi.console.words`) or finished strings. Without one the console says whose turn it is, or that
the game is over. Pure: a function of the state report.

A line names one of the console's actions as `{action}` ("For a new game, {new_game}."): each console
says it its own way (`name_actions`), the terminal by its key ("press n"), the web page by its button
("tap “New game”"), so one guide reads right on both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kikimimi.console.words import Words

ACTION_MARK = re.compile(r"\{([a-z][a-z_]*)\}")  # {new_game}: an action of the console, by its name


def generic_guide(report: Mapping[str, Any]) -> list[Any]:
    """Whose turn it is, or that the game is over, or the phase it is in; nothing a game alone would know."""
    if report.get("phase") == "over" or report.get("result"):
        return [["guide.over", {}]]
    turn = report.get("turn")
    if turn:
        return [["guide.turn", {"seat": turn}]]
    phase = report.get("phase")
    if isinstance(phase, str) and phase:  # a deal, a set-up: no one seat to move, but the table waits
        return [["guide.phase", {"phase": phase}]]
    return []


def guide(report: Mapping[str, Any], state: Any = None, game_guide: Callable[..., Any] | None = None) -> list[Any]:
    """The game's own guide lines when it has one (a failing one falls back), else the generic ones."""
    if game_guide is not None:
        try:
            return list(game_guide(report, state))
        except Exception as exc:  # a game's guide bug must not stop the console
            return [["guide.failed", {"error": repr(exc)}], *generic_guide(report)]
    return generic_guide(report)


def say_guide(lines: Sequence[Any], said: Words) -> list[str]:
    """The guide's lines in the language of `said` (phrase keys said, finished strings as they are)."""
    return [said.render(line) for line in lines]


def name_actions(line: str, say: Callable[[str], str | None]) -> str:
    """`line` with each {action} said as `say(action)` gives it ("press n"); an action `say` does not know
    is written as words ("new game"), never left as a mark."""
    return ACTION_MARK.sub(lambda mark: say(mark.group(1)) or mark.group(1).replace("_", " "), line)


def load_guide(info: Any) -> Callable[..., Any] | None:
    """The game's guide function, if its UI object has one."""
    try:
        guide: Callable[..., Any] | None = info.guide_function()
        return guide
    except Exception:  # a UI that cannot be imported: the generic guide, as without one
        return None


def guide_of(view: Any) -> list[Any]:
    """What the table waits for, from a `TableView`: the game's own guide (taken where the state is), else
    whose turn it is."""
    if view.guide is None:
        return generic_guide(view.report)
    if view.guide_error:
        return [["guide.failed", {"error": view.guide_error}], *generic_guide(view.report)]
    return list(view.guide)
