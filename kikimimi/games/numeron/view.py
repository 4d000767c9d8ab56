"""Numeron's view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
Calls, judgements, the items used with their public answers and the digits they revealed are public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.numeron.keyboard import KeyboardSeat
from kikimimi.games.numeron.pieces import ITEMS
from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, score_items, winner_item

CALLS_SHOWN = 4
ITEM_WORDS = {
    "double": mark("model.numeron.item.double"), "high-low": mark("model.numeron.item.high_low"),
    "target": mark("model.numeron.item.target"), "slash": mark("model.numeron.item.slash"),
    "shuffle": mark("model.numeron.item.shuffle"), "change": mark("model.numeron.item.change"),
    "move": mark("model.numeron.item.move"),
}
STEP_WORDS = {
    "call": mark("model.numeron.steps.call"), "double_choice": mark("model.numeron.steps.double_choice"),
    "target": mark("model.numeron.steps.target"), "shuffle": mark("model.numeron.steps.shuffle"),
    "change_place": mark("model.numeron.steps.change_place"),
    "change_digit": mark("model.numeron.steps.change_digit"), "move_from": mark("model.numeron.steps.move_from"),
    "move_to": mark("model.numeron.steps.move_to"), "move_amount": mark("model.numeron.steps.move_amount"),
}
CLASS_WORDS = {"HIGH": mark("model.numeron.class.high"), "LOW": mark("model.numeron.class.low")}


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """Numeron's table for the consoles: the two seats (their numbers only when revealed) with their calls,
    items used and left and digits revealed; the set-up, whose turn and its step, the last calls with their
    eat and bite, the items used with their answers."""
    numbers = data.get("numbers") or {}
    calls = [entry for entry in data.get("log") or [] if isinstance(entry, list | tuple) and entry[:1] == ["call"]]
    if not calls:
        calls = [["call", c.get("seat"), c.get("call"), c.get("eat"), c.get("bite")] for c in data.get("calls") or []]
    seats = [SeatModel(seat, (players or {}).get(seat), None,
                       list(str(numbers[str(seat)])) if reveal and str(seat) in numbers else None,
                       _marks(data, seat, sum(1 for c in calls if c[1] == seat)),
                       turn=data.get("turn") == seat) for seat in (1, 2)]
    items = [mark("model.numeron.digits", count=data.get("digits"))]
    if data.get("items"):
        items.append(mark("model.numeron.items", count=data["items"]))
    if data.get("turn_seconds"):  # in the Priest's report only
        items.append(mark("model.numeron.clock", seconds=data["turn_seconds"]))
    if data.get("practice"):
        items.append(mark("model.numeron.practice"))
    if data.get("phase") == "play" and data.get("step"):
        items.append(mark("model.numeron.step", step=STEP_WORDS.get(data["step"], data["step"])))
        if data.get("calls_left") == 2:
            items.append(mark("model.numeron.two_calls"))
    items += [mark("model.numeron.call", seat=c[1], call=c[2], eat=c[3], bite=c[4]) for c in calls[-CALLS_SHOWN:]]
    items += [_item_use(entry) for entry in _item_log(data)]
    result = data.get("result") or {}
    if not result and data.get("phase") == "over":  # the public observation: the winner and the calls made
        result = {"winner": data.get("winner"), "calls": {str(s): sum(1 for c in calls if c[1] == s) for s in (1, 2)}}
    ends = ([mark("model.result.found", seat=result["winner"]) if result.get("winner") else winner_item(None)]
            + score_items(result.get("calls"), "model.result.calls")) if result else []
    return TableModel(seats, data.get("phase"), [], None, items, data.get("phase") == "over", result=ends)


def _marks(data: Mapping[str, Any], seat: int, calls: int) -> list[Item]:
    """A seat's words: set or setting its number, its calls, items used and left, digits revealed."""
    marks = []
    ready = data.get("ready") or {}
    if data.get("phase") == "set":
        is_ready = ready.get(seat, ready.get(str(seat))) if ready else (data.get("numbers") or {}).get(str(seat))
        marks.append(mark("model.numeron.ready" if is_ready else "model.numeron.setting"))
    marks.append(mark("model.numeron.calls", count=calls))
    allowed = int(data.get("items") or 0)
    if allowed:
        used = data.get("used") or data.get("items_used") or {}
        spent = list(used.get(seat, used.get(str(seat), [])))
        if spent:
            marks.append(mark("model.numeron.used", items=[ITEM_WORDS.get(name, name) for name in spent]))
        left = [ITEM_WORDS[name] for name in ITEMS if name not in spent] if len(spent) < allowed else []
        marks.append(mark("model.numeron.left", items=left) if left else mark("model.numeron.none_left"))
    revealed = data.get("revealed") or {}
    for place, digit in sorted((revealed.get(seat) or revealed.get(str(seat)) or {}).items()):
        marks.append(mark("model.numeron.revealed", place=place, digit=digit))
    return marks


def _item_log(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each item used, in order, as {seat, item, its public answer}: from the public log or the report."""
    log: list[dict[str, Any]] = [{"seat": e[1], "item": e[2], **dict(e[3])} for e in data.get("log") or []
           if isinstance(e, list | tuple) and e[:1] == ["item"] and len(e) > 3]
    return log or [dict(entry) for entry in data.get("item_log") or []]


def _item_use(entry: Mapping[str, Any]) -> Item:
    """One item used and what the table heard of it."""
    seat, name = entry.get("seat"), entry.get("item")
    item = ITEM_WORDS.get(str(name), name)
    detail: Item | None = None
    if name == "high-low":
        answer = [CLASS_WORDS.get(c, c) for c in entry.get("answer") or []]
        detail = mark("model.numeron.detail.high_low", answer=answer)
    elif name == "slash":
        detail = mark("model.numeron.detail.slash", answer=entry.get("answer"))
    elif name == "target":
        detail = (mark("model.numeron.detail.target_in", digit=entry.get("digit"), place=entry["place"])
                  if entry.get("place") else mark("model.numeron.detail.target_out", digit=entry.get("digit")))
    elif name == "double":
        detail = mark("model.numeron.detail.double", place=entry.get("place"), digit=entry.get("digit"))
    elif name == "change":
        detail = mark("model.numeron.detail.change", place=entry.get("place"),
                      class_=CLASS_WORDS.get(str(entry.get("class")), entry.get("class")))
    elif name == "move":
        detail = mark("model.numeron.detail.move", src=entry.get("from"), dst=entry.get("to"))
    if detail is None:
        return mark("model.numeron.item_plain", seat=seat, item=item)
    return mark("model.numeron.item_use", seat=seat, item=item, detail=detail)


UI = GameUI(model=model, keyboard=KeyboardSeat)
