"""Royal Nine's view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.registry import GameUI
from kikimimi.games.royal_nine.keyboard import KeyboardSeat
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, score_items, seat_ids, winner_item


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """Royal Nine's table for the consoles: the two seats with cards in hand and totals, each seat's grid of
    open cards, the round."""
    hands, totals, grids = data.get("hands") or {}, data.get("totals") or {}, data.get("grids") or {}
    seats = [SeatModel(seat, (players or {}).get(seat), len(hands.get(str(seat)) or []) if hands else None,
                       list(hands[str(seat)]) if reveal and str(seat) in hands else None,
                       _rounds(data, seat), totals.get(str(seat))) for seat in seat_ids(grids) or [1, 2]]
    items = [mark("model.round", round=data.get("round"))]
    # The common card in the grids' centre: face down ("[?]") until it is opened (the public observation then
    # holds it), or with the hands revealed (the report holds it from the start).
    common = data.get("common") if reveal or data.get("opened") else None
    centre = f"[{common}]" if common else "[?]"
    items += [mark("model.royal.grid", seat=int(seat),
                   cards=" ".join(centre if c == "common" else c or "·" for c in grid))
              for seat, grid in sorted(grids.items())]
    roles = data.get("last_roles") or {}
    if any(roles.values()):  # the last scored round's roles: public, heard by all
        items += [mark("model.royal.roles", seat=int(seat), roles=[_role(r) for r in found]) if found
                  else mark("model.royal.no_roles", seat=int(seat)) for seat, found in sorted(roles.items())]
    result = data.get("result") or {}
    return TableModel(seats, data.get("phase"), [], None, items, data.get("phase") == "over",
                      result=[winner_item(result.get("winner")), *score_items(result.get("totals"))] if result else [])


def _rounds(data: Mapping[str, Any], seat: int) -> list[Item]:
    """A seat's score of each round so far."""
    scores = (data.get("round_scores") or {}).get(str(seat)) or []
    return [mark("model.rounds", scores=" ".join(map(str, scores)))] if scores else []


def _role(role: Mapping[str, Any]) -> Item:
    """One role of a scored grid: its line (none for a whole grid's role), its name and points."""
    name = ROLE_WORDS.get(str(role.get("role")), role.get("role"))
    if role.get("line") in LINE_WORDS:
        return mark("model.royal.role_line", line=LINE_WORDS[role["line"]], role=name, points=role.get("points"))
    return mark("model.royal.role_grid", role=name, points=role.get("points"))


LINE_WORDS = {"row-1": mark("model.royal.line.row_1"), "row-2": mark("model.royal.line.row_2"),
              "row-3": mark("model.royal.line.row_3"), "col-1": mark("model.royal.line.col_1"),
              "col-2": mark("model.royal.line.col_2"), "col-3": mark("model.royal.line.col_3")}
ROLE_WORDS = {"straight": mark("model.royal.role.straight"), "flush": mark("model.royal.role.flush"),
              "straight flush": mark("model.royal.role.straight_flush"),
              "royal nine": mark("model.royal.role.royal_nine"), "spoiled nine": mark("model.royal.role.spoiled_nine")}

UI = GameUI(model=model, keyboard=KeyboardSeat)
