"""The Trident's panel of the Priest's console: a pure function of the state report.

Hands stay hidden unless `reveal` is set: the players may see the screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, seat_ids
from kikimimi.games.trident.guide import console_guide, waiting_for
from kikimimi.games.trident.keyboard import KeyboardSeat
from kikimimi.games.trident.phrases import tag_phrase

FIELD_SHOWN = 8
PHASES = {
    "deal": "deal",
    "start": "start (start piece)",
    "turn": "turn",
    "drawing": "drawing",
    "choose_suit": "choosing a suit",
    "over": "game over",
}
PLACES = ("1st", "2nd", "3rd")


def state_text(report: Mapping[str, Any], *, reveal: bool = False,
               players: Mapping[int, str] | None = None, titles: Mapping[str, str] | None = None) -> Text:
    """The table at a glance. `players`: seat -> name in an open meeting; `titles`: name -> rank."""
    text = Text()
    phase = report.get("phase")
    text.append("Phase ", "dim").append(PHASES.get(str(phase), str(phase)), "bold")
    text.append("   rules ", "dim").append(str(report.get("rules", "standard")))
    text.append("   first ", "dim").append(f"seat {report.get('first', 1)}")
    text.append("\n")
    turn, next_up = report.get("turn"), waiting_for(report)  # the guide's "Next" names next_up too
    if phase == "drawing":
        owed = report["owed"].get(str(next_up), 0)
        text.append("Drawing ", "dim").append(f"seat {next_up}", "bold cyan").append(f" owes {owed}")
        if turn != next_up:
            text.append(", then ", "dim").append(f"seat {turn}", "bold").append(" to move", "dim")
    else:
        text.append("To move ", "dim").append(f"seat {next_up}" if next_up else "–", "bold cyan")
    text.append("   required ", "dim").append(str(report.get("required") or "–"), "bold")
    pending = report.get("pending_draw", 0)
    text.append("   pending draw ", "dim").append(str(pending), "bold red" if pending else "")
    text.append("   basket ", "dim").append(str(report.get("basket_count")))
    text.append("\n\n")
    for seat_key, hand in report["hands"].items():
        seat = int(seat_key)
        owed = report["owed"].get(seat_key, 0)
        mover = seat == next_up
        text.append("▶ " if mover else "  ", "bold cyan")
        text.append(f"Seat {seat}", "bold")
        text.append(f"  {len(hand)} piece{'s' if len(hand) != 1 else ''}")
        if report["declared"].get(seat_key):
            text.append("  TRIDENT", "bold magenta")
        if owed:
            text.append(f"  owes {owed}", "bold red")
        name = (players or {}).get(seat)
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title})" if title else ""), "italic")
        text.append("\n")
        if reveal:
            text.append("      " + (" ".join(hand) or "(empty)") + "\n", "yellow")
    if not reveal:
        text.append("  hands hidden (h reveals them)\n", "dim")
    field = list(report.get("field", []))
    text.append("\nField ", "dim")
    if len(field) > FIELD_SHOWN:
        text.append(f"({len(field)}) … ")
    text.append(" ".join(field[-FIELD_SHOWN:]) or "–")
    text.append("\n")
    penalties = report.get("penalties") or []
    if penalties:
        text.append("Penalties ", "dim")
        text.append(", ".join(f"seat {p['seat']} {str(p['reason']).replace('_', ' ')}" for p in penalties), "red")
        text.append("\n")
    result = report.get("result")
    if result:
        text.append(ranking_text(result, str(report.get("rules", "standard"))))
    return text


def ranking_text(result: Mapping[str, Any], rules: str) -> Text:
    text = Text("Ranking ", "dim")
    parts = []
    for place, seat in zip(PLACES, result["ranking"], strict=False):
        if seat == result.get("winner"):
            how = "out"
        elif seat == result.get("crashed"):
            how = "crashed"
        else:
            held = result["pieces"][str(seat)]
            how = f"{held} piece{'' if held == 1 else 's'}, {result['points'][str(seat)]} points"
        parts.append(f"{place} seat {seat} ({how})")
    text.append("  ".join(parts), "bold green")
    text.append(f"\n        by {'points' if rules == 'competition' else 'pieces'} in hand")
    if result.get("reason") == "referee":
        text.append(", ended by the Priest")
    text.append("\n")
    return text


# What the console, the demo and bring-up use of the Trident (the entry's `ui` loader takes it from here).

def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """The Trident's table for the consoles: three seats with their counts, declarations and draws owed, the
    field's last pieces, the basket, the required suit and any pending draw."""
    waiting = waiting_for(data)
    counts = data.get("hand_counts") or {s: len(h) for s, h in (data.get("hands") or {}).items()}
    hands = data.get("hands") or {}
    seats = []
    for seat in sorted({*seat_ids(counts), *seat_ids(data.get("owed"))}):
        marks = []
        if (data.get("declared") or {}).get(str(seat)):
            marks.append(mark("model.trident.declared"))
        owed = int((data.get("owed") or {}).get(str(seat), 0))
        if owed:
            marks.append(mark("model.owes", count=owed))
        penalties = sum(1 for p in data.get("penalties") or [] if isinstance(p, Mapping) and p.get("seat") == seat)
        if penalties:
            marks.append(mark("model.penalties", count=penalties))
        seats.append(SeatModel(seat, (players or {}).get(seat), counts.get(str(seat)),
                               list(hands[str(seat)]) if reveal and str(seat) in hands else None, marks,
                               turn=waiting == seat))
    items = []
    if data.get("required"):
        items.append(mark("model.trident.required", suit=data["required"]))
    if data.get("pending_draw"):
        items.append(mark("model.trident.pending", count=data["pending_draw"]))
    return TableModel(seats, data.get("phase"), list(data.get("field") or [])[-6:], data.get("basket_count"), items,
                      data.get("phase") == "over", result=result_items(data.get("result"), str(data.get("rules"))))


def result_items(result: Mapping[str, Any] | None, rules: str) -> list[Item]:
    """The ranking at the end, place by place (out, crashed, or pieces and points held), and what it went by."""
    if not result:
        return []
    items = []
    for place, seat in enumerate(result.get("ranking") or [], start=1):
        if seat == result.get("winner"):
            items.append(mark("model.result.out", place=place, seat=seat))
        elif seat == result.get("crashed"):
            items.append(mark("model.result.crashed", place=place, seat=seat))
        else:
            items.append(mark("model.result.held", place=place, seat=seat,
                              pieces=(result.get("pieces") or {}).get(str(seat)),
                              points=(result.get("points") or {}).get(str(seat))))
    items.append(mark("model.result.by_points" if rules == "competition" else "model.result.by_pieces"))
    if result.get("reason") == "referee":
        items.append(mark("model.result.ended"))
    return items

UI = GameUI(view=state_text, model=model, guide=console_guide, keyboard=KeyboardSeat, tag_phrase=tag_phrase)
