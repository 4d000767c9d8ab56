"""Numeron's view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.numeron.keyboard import KeyboardSeat
from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import SeatModel, TableModel, mark, score_items, text_view, winner_item


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

UI = GameUI(view=text_view(model), model=model, keyboard=KeyboardSeat)
