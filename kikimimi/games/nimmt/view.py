"""6 nimmt!'s view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, score_items, seat_ids, text_view, winner_item


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """6 nimmt!'s table for the consoles: each seat's cards left, whether it chose, its bullheads; the rows."""
    counts = data.get("hand_counts") or {s: len(h) for s, h in (data.get("hands") or {}).items()}
    chose = data.get("has_chosen") or {s: c is not None for s, c in (data.get("chosen") or {}).items()}
    hands, totals = data.get("hands") or {}, data.get("totals") or {}
    seats = [SeatModel(seat, (players or {}).get(seat), counts.get(str(seat)),
                       [str(c) for c in hands[str(seat)]] if reveal and str(seat) in hands else None,
                       [_chosen(data, seat, reveal)] if chose.get(str(seat)) else [],
                       totals.get(str(seat)), turn=data.get("taker") == seat)
             for seat in seat_ids(totals)]
    items = [mark("model.nimmt.row", row=n, cards=" ".join(str(c) for c in row))
             for n, row in enumerate(data.get("rows") or [], start=1)]
    if data.get("round"):
        items.insert(0, mark("model.round", round=data["round"]))
    result = data.get("result") or {}
    ends = ([mark("model.result.winner", seat=seat) for seat in result.get("winners") or []]
            or [winner_item(None, referee=True)]) + score_items(result.get("bullheads"), "model.result.bullheads")
    return TableModel(seats, data.get("phase"), _cards(data.get("last_reveal"))[-6:], None, items,
                      data.get("phase") == "over", result=ends if result else [])

def _cards(revealed: Any) -> list[str]:
    """The cards of the last reveal ([card, seat] pairs, lowest first): the field the Priest sees."""
    return [str(entry[0] if isinstance(entry, list | tuple) else entry) for entry in revealed or []]


def _chosen(data: Mapping[str, Any], seat: int, reveal: bool) -> Item:
    """A seat that chose: which card only with the hands revealed (face down until the reveal)."""
    card = (data.get("chosen") or {}).get(str(seat)) if reveal else None
    return mark("model.nimmt.chosen_card", card=card) if card is not None else mark("model.nimmt.chosen")


UI = GameUI(view=text_view(model), model=model)
