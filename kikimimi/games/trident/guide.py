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

# A line of the guide: a phrase key of the console catalog (voices/catalog/console.<lang>.toml, section
# guide.trident) and its parameters; each console says it in the table's language. A count of pieces is
# {"pieces": n} ("two pieces", "2枚"), a list of parts is said as one ("seat 1 …, seat 2 … and seat 3 …").
Step = list[Any]  # [key, params]: plain JSON, as the table's view carries it to consoles in other processes


def step(key: str, **params: Any) -> Step:
    return [f"guide.trident.{key}", params]


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


def guide(report: Mapping[str, Any], drew: str | None = None) -> list[Step]:
    """What the Priest is told, most urgent first, as phrase keys with parameters."""
    competition = report.get("rules") == "competition"
    phase, turn = report.get("phase"), waiting_for(report)
    basket = int(report.get("basket_count", 0))
    lines: list[Step] = []
    if phase == "deal":
        short = {int(s): HAND_SIZE - len(h) for s, h in report["hands"].items() if len(h) < HAND_SIZE}
        parts = [step("seat_pieces", seat=seat, count={"pieces": n}) for seat, n in sorted(short.items())]
        lines.append(step("deal_give" if competition else "deal", parts=parts))
    elif phase == "start":
        lines.append(step("start_give" if competition else "start", seat=turn))
    elif phase == "drawing":
        drawer, owed = turn, int(report["owed"].get(str(turn), 0))
        lines.append(step("drawing_give" if competition else "drawing", seat=drawer, count={"pieces": owed}))
        lines.append(step("drawing_wait"))
    elif phase == "choose_suit":
        lines.append(step("choose_suit", seat=turn))
    elif phase == "turn":
        pending = int(report.get("pending_draw", 0))
        if pending:
            lines.append(step("attacked", seat=turn, draw=pending))
            if competition:
                lines.append(step("attacked_give", seat=turn, count={"pieces": pending}))
            if basket < pending:
                lines.append(step("basket_short", count={"pieces": basket}))
        elif drew is not None:
            lines.append(step("drew", seat=turn))
        else:
            lines.append(step("move", seat=turn, suit=report.get("required")))
            if competition:
                lines.append(step("move_give", seat=turn))
            if basket == 0:
                lines.append(step("basket_empty"))
    elif phase == "over":
        lines.append(step("over"))
        if competition:
            lines.append(step("collect"))
    return lines


def console_guide(report: Mapping[str, Any], state: Any = None) -> list[Step]:
    """The console's hook (the Trident's `GameUI.guide`): each line under its heading (the Priest's own
    task in competition, else what comes next)."""
    title = "guide.priest" if report.get("rules") == "competition" else "guide.next"
    return [[title, {"line": line}] for line in guide(report, getattr(state, "drew", None))]
