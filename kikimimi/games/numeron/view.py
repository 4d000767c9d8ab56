"""Numeron's panel of the Priest's console: a pure function of the state report.

The numbers (and a seat's unfinished number or SHUFFLE's new order) stay hidden unless `reveal` is set:
the players may see the screen. Calls, judgements, item answers and revealed digits are public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from kikimimi.games.numeron.keyboard import KeyboardSeat
from kikimimi.games.numeron.pieces import ITEMS
from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import SeatModel, TableModel, mark, score_items, winner_item

CALLS_SHOWN = 12
STEPS = {
    "call": "calling", "double_choice": "DOUBLE: the other seat chooses a place", "target": "TARGET: a digit",
    "shuffle": "SHUFFLE: re-entering", "change_place": "CHANGE: a place", "change_digit": "CHANGE: the new digit",
    "move_from": "MOVE: from", "move_to": "MOVE: to", "move_amount": "MOVE: the amount",
}
ITEM_NAMES = {"double": "DOUBLE", "high-low": "HIGH&LOW", "target": "TARGET", "slash": "SLASH",
              "shuffle": "SHUFFLE", "change": "CHANGE", "move": "MOVE"}


def _item_text(entry: Mapping[str, Any]) -> str:
    name: str = ITEM_NAMES.get(entry["item"], entry["item"])
    if entry["item"] == "high-low":
        return f"{name} {' '.join(entry['answer'])}"
    if entry["item"] == "slash":
        return f"{name} {entry['answer']}"
    if entry["item"] == "target":
        return f"{name} {entry['digit']}: " + (f"place {entry['place']}" if entry["place"] else "absent")
    if entry["item"] == "double":
        return f"{name} place {entry['place']} = {entry['digit']}"
    if entry["item"] == "change":
        return f"{name} place {entry['place']} to {entry['class']}"
    if entry["item"] == "move":
        return f"{name} place {entry['from']} -> {entry['to']}"
    return name


def state_text(report: Mapping[str, Any], *, reveal: bool = False,
               players: Mapping[int, str] | None = None, titles: Mapping[str, str] | None = None) -> Text:
    """Calls and judgements, items used and left, whose turn and step; numbers only with `reveal`."""
    text = Text()
    phase = report.get("phase")
    digits = report.get("digits", 3)
    items = int(report.get("items", 0) or 0)
    text.append("Phase ", "dim").append(str(phase), "bold")
    text.append("   digits ", "dim").append(str(digits))
    text.append("   items ", "dim").append(str(items))
    seconds = report.get("turn_seconds")
    text.append("   clock ", "dim").append(f"{seconds} s" if seconds else "off")
    if report.get("practice"):
        text.append("   practice (seat 2 is the table)", "magenta")
    text.append("\n")
    turn, step = report.get("turn"), report.get("step")
    text.append("To move ", "dim").append(f"seat {turn}" if turn else "–", "bold cyan")
    if step:
        text.append("   ", "dim").append(STEPS.get(step, step), "bold")
        if report.get("calls_left") == 2:
            text.append("  (two calls)", "bold magenta")
    entry = report.get("entry") or ""
    if entry and (step == "call" or reveal):  # a call is public; a number being set or shuffled is not
        text.append("   entry ", "dim").append(entry, "yellow")
    text.append("\n\n")
    used = report.get("items_used", {})
    revealed = report.get("revealed", {})
    calls = list(report.get("calls", []))
    for seat in (1, 2):
        key = str(seat)
        text.append("▶ " if seat == turn and phase == "play" else "  ", "bold cyan")
        text.append(f"Seat {seat}", "bold")
        name = (players or {}).get(seat)
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title})" if title else ""), "italic")
        number = report.get("numbers", {}).get(key)
        if phase == "set":
            text.append("  ready" if number else "  setting", "green" if number else "dim")
        if reveal:
            text.append(f"  number {number or '–'}", "yellow")
        text.append(f"  calls {sum(1 for c in calls if c['seat'] == seat)}")
        if items:
            spent = used.get(key, [])
            left = [ITEM_NAMES[i] for i in ITEMS if i not in spent] if len(spent) < items else []
            text.append(f"  items {len(spent)}/{items}")
            if spent:
                text.append(" used " + ", ".join(ITEM_NAMES.get(i, i) for i in spent), "red")
            text.append(" left " + (", ".join(left) or "none"), "dim")
        shown = revealed.get(key) or {}
        if shown:
            text.append("  revealed " + ", ".join(f"place {k} = {v}" for k, v in sorted(shown.items())), "magenta")
        text.append("\n")
    if not reveal:
        text.append("  numbers hidden (h reveals them)\n", "dim")
    text.append("\n")
    if calls:
        text.append("Calls ", "dim")
        if len(calls) > CALLS_SHOWN:
            text.append(f"({len(calls)}) … ")
        text.append("\n")
        for c in calls[-CALLS_SHOWN:]:
            judged = "NUMERON" if c["eat"] == digits else f"{c['eat']} EAT {c['bite']} BITE"
            text.append(f"  seat {c['seat']}  {c['call']}  ", "").append(judged + "\n", "bold")
    if report.get("item_log"):
        text.append("Items\n", "dim")
    for entry_ in report.get("item_log", []):
        text.append(f"  seat {entry_['seat']}  ", "").append(_item_text(entry_) + "\n", "magenta")
    result = report.get("result")
    if result:
        winner = result.get("winner")
        text.append("\nResult ", "dim")
        text.append(f"seat {winner} found the number" if winner else "ended without a winner", "bold green")
        text.append("  calls " + ", ".join(f"seat {k}: {v}" for k, v in result.get("calls", {}).items()))
        if report.get("practice") and report.get("solver_calls"):
            text.append(f"  (the solver: {report['solver_calls']})")
        text.append("\n")
    return text


# What the console, the demo and bring-up use of Numeron (the entry's `ui` loader takes it from here).

def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """Numeron's table for the consoles: the two seats (their numbers only when revealed), whose turn, the
    last calls with their eat and bite."""
    numbers = data.get("numbers") or {}
    seats = [SeatModel(seat, (players or {}).get(seat), None,
                       list(str(numbers[str(seat)])) if reveal and str(seat) in numbers else None,
                       turn=data.get("turn") == seat) for seat in (1, 2)]
    calls = [entry for entry in data.get("log") or [] if isinstance(entry, list | tuple) and entry[:1] == ["call"]]
    if not calls:
        calls = [["call", c.get("seat"), c.get("call"), c.get("eat"), c.get("bite")] for c in data.get("calls") or []]
    items = [mark("model.numeron.call", seat=c[1], call=c[2], eat=c[3], bite=c[4]) for c in calls[-4:]]
    items.insert(0, mark("model.numeron.digits", count=data.get("digits")))
    result = data.get("result") or {}
    if not result and data.get("phase") == "over":  # the public observation: the winner and the calls made
        result = {"winner": data.get("winner"), "calls": {str(s): sum(1 for c in calls if c[1] == s) for s in (1, 2)}}
    ends = ([mark("model.result.found", seat=result["winner"]) if result.get("winner") else winner_item(None)]
            + score_items(result.get("calls"), "model.result.calls")) if result else []
    return TableModel(seats, data.get("phase"), [], None, items, data.get("phase") == "over", result=ends)

UI = GameUI(view=state_text, model=model, keyboard=KeyboardSeat)
