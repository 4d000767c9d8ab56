"""Suhjong's view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import SeatModel, TableModel, mark, score_items, text_view, winner_item


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """Suhjong's table for the consoles: the two seats with their cards, discards (rivers) and totals, the
    pile left, the round."""
    hands, totals, rivers = data.get("hands") or {}, data.get("totals") or {}, data.get("rivers") or {}
    seats = [SeatModel(seat, (players or {}).get(seat), len(hands.get(str(seat)) or []),
                       list(hands[str(seat)]) if reveal and str(seat) in hands else None, [],
                       totals.get(str(seat)), turn=data.get("turn") == seat) for seat in (1, 2)]
    items = [mark("model.round", round=data.get("round"))]
    items += [mark("model.suhjong.river", seat=int(seat), cards=" ".join(river))
              for seat, river in sorted(rivers.items()) if river]
    result = data.get("result") or {}
    ends = [winner_item(result.get("winner")), *score_items(result.get("totals"))] if result else []
    return TableModel(seats, data.get("phase"), list(data.get("sea") or [])[-6:], data.get("pile_count"), items,
                      data.get("phase") == "over", result=ends)

UI = GameUI(view=text_view(model), model=model)
