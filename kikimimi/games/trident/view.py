"""The Trident's view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, seat_ids
from kikimimi.games.trident.guide import console_guide, waiting_for
from kikimimi.games.trident.keyboard import KeyboardSeat
from kikimimi.games.trident.phrases import tag_phrase

FIELD_SHOWN = 6
RULESETS = {"standard": mark("model.trident.ruleset.standard"),
            "competition": mark("model.trident.ruleset.competition")}


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """The Trident's table for the consoles: three seats with their counts, declarations and draws owed, the
    rules and first seat, the field's last pieces (and how many lie there), the basket, the required suit and
    any pending draw."""
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
    items = [mark("model.trident.rules", rules=RULESETS.get(str(data.get("rules")), str(data.get("rules")))),
             mark("model.first", seat=data.get("first", 1))]
    field = list(data.get("field") or [])
    if len(field) > FIELD_SHOWN:  # the field drawn is its last pieces: how many lie there in all
        items.append(mark("model.field_total", count=len(field)))
    if data.get("required"):
        items.append(mark("model.trident.required", suit=data["required"]))
    if data.get("phase") == "drawing" and data.get("turn") not in (None, waiting):  # a penalty's draws first
        items.append(mark("model.trident.then", seat=data["turn"]))
    if data.get("pending_draw"):
        items.append(mark("model.trident.pending", count=data["pending_draw"]))
    return TableModel(seats, data.get("phase"), field[-FIELD_SHOWN:], data.get("basket_count"), items,
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

UI = GameUI(model=model, guide=console_guide, keyboard=KeyboardSeat, tag_phrase=tag_phrase)
