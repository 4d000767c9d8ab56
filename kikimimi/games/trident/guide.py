"""The Trident's guide for the Priest's console (GameInfo.guide): what the table waits for, and under
competition rules what the Priest hands out.

In competition the Priest keeps the basket out of sight and hands pieces out (spec: Competition
rules), so the console says it in words: "Give seat 2 two pieces from the basket." Pure: a function
of the state report (and the piece the seat to move drew this turn, if any).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HAND_SIZE = 5
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def pieces(count: int) -> str:
    """`two pieces`, `one piece`."""
    word = _NUMBERS[count] if 0 <= count < len(_NUMBERS) else str(count)
    return f"{word} piece" if count == 1 else f"{word} pieces"


def waiting_for(report: Mapping[str, Any]) -> int | None:
    """The seat whose tap the table waits for now: the one answer the console's header (and its ▶) and the
    guide's "Next" line both give. While a seat owes draws, that seat (after a penalty out of turn it is not
    the seat whose turn it is: `turn` stays with the seat that moves once the drawing is done); in the deal
    and after the end, no one seat; otherwise the seat to move."""
    phase = report.get("phase")
    if phase in ("deal", "over"):
        return None
    if phase == "drawing":
        return next((int(seat) for seat, owed in report["owed"].items() if owed), report.get("turn"))
    return report.get("turn")


def guide(report: Mapping[str, Any], drew: str | None = None) -> list[str]:
    """Sentences for the Priest, most urgent first."""
    competition = report.get("rules") == "competition"
    phase, turn = report.get("phase"), waiting_for(report)
    basket = int(report.get("basket_count", 0))
    lines: list[str] = []
    if phase == "deal":
        short = {int(s): HAND_SIZE - len(h) for s, h in report["hands"].items() if len(h) < HAND_SIZE}
        parts = [f"seat {seat} {pieces(n)}" for seat, n in sorted(short.items())]
        if competition:
            lines.append(f"Give {_and(parts)} from the basket, to tap on their own hand reader.")
        else:
            lines.append(f"Deal: {_and(parts)} still to take from the basket and tap on their hand reader.")
    elif phase == "start":
        if competition:
            lines.append(f"Give seat {turn} one piece from the basket to tap on the field reader (the start).")
        else:
            lines.append(f"Seat {turn} takes one piece from the basket and taps it on the field reader.")
    elif phase == "drawing":
        drawer, owed = turn, int(report["owed"].get(str(turn), 0))
        if competition:
            lines.append(f"Give seat {drawer} {pieces(owed)} from the basket, one at a time, "
                         "to tap on their hand reader.")
        else:
            lines.append(f"Seat {drawer} draws {pieces(owed)} from the basket.")
        lines.append("Field taps wait until the drawing is done.")
    elif phase == "choose_suit":
        lines.append(f"Seat {turn} chooses the required suit (a suit tag; or press t to tap one for them).")
    elif phase == "turn":
        pending = int(report.get("pending_draw", 0))
        if pending:
            lines.append(f"Seat {turn} faces a draw of {pending}: answer with an attack or an Unknown, or accept.")
            if competition:
                lines.append(f"If seat {turn} accepts, give them {pieces(pending)} from the basket.")
            if basket < pending:
                lines.append(f"The basket holds only {pieces(basket)}: accepting is a crash.")
        elif drew is not None:
            lines.append(f"Seat {turn} has drawn: plays that piece or passes.")
        else:
            lines.append(f"Seat {turn} to move: plays a {report.get('required')} or a special piece, or draws one.")
            if competition:
                lines.append(f"If seat {turn} draws, give them one piece from the basket.")
            if basket == 0:
                lines.append("The basket is empty: a pass now is a crash.")
    elif phase == "over":
        lines.append("The game is over. For a new game, {new_game}.")
        if competition:
            lines.append("Collect every piece back into the basket.")
    return lines


def _and(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def console_guide(report: Mapping[str, Any], state: Any = None) -> list[str]:
    """The console's hook (the Trident's `GameUI.guide`): finished lines."""
    title = "Priest" if report.get("rules") == "competition" else "Next"
    return [f"{title}: {line}" for line in guide(report, getattr(state, "drew", None))]
