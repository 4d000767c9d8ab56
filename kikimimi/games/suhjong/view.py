"""Suhjong's view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, score_items, winner_item

STEP_WORDS = {"start": mark("model.suhjong.step.start"), "discard": mark("model.suhjong.step.discard"),
              "refill": mark("model.suhjong.step.refill")}
SEA_SHOWN = 6


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """Suhjong's table for the consoles: the two seats with their cards, the turn's step, each seat's best
    score, declaration, rounds and total; the round and first seat, a showdown, a declaration being tapped,
    the discards (rivers), the sea and the pile left."""
    hands, totals, rivers = data.get("hands") or {}, data.get("totals") or {}, data.get("rivers") or {}
    movers = {data.get("turn"), data.get("declaring")} - {None}
    seats = [SeatModel(seat, (players or {}).get(seat), len(hands.get(str(seat)) or []),
                       list(hands[str(seat)]) if reveal and str(seat) in hands else None, _marks(data, seat),
                       totals.get(str(seat)), turn=seat in movers) for seat in (1, 2)]
    items = [mark("model.round", round=data.get("round"))]
    if data.get("first"):
        items.append(mark("model.first", seat=data["first"]))
    if data.get("showdown_by"):
        items.append(mark("model.suhjong.showdown", seat=data["showdown_by"]))
    if data.get("declaring"):
        items.append(mark("model.suhjong.declaring", seat=data["declaring"], equation=data.get("equation") or "…"))
    items += [mark("model.suhjong.river", seat=int(seat), cards=" ".join(river))
              for seat, river in sorted(rivers.items()) if river]
    sea = list(data.get("sea") or [])
    if data.get("sea_count"):
        items.append(mark("model.suhjong.sea", count=data["sea_count"]))
    result = data.get("result") or {}
    ends = [winner_item(result.get("winner")), *score_items(result.get("totals"))] if result else []
    return TableModel(seats, data.get("phase"), sea[-SEA_SHOWN:], data.get("pile_count"), items,
                      data.get("phase") == "over", result=ends)


def _marks(data: Mapping[str, Any], seat: int) -> list[Item]:
    """A seat's words: the turn's step, the best its hand scores, its declaration, each round's score."""
    key, marks = str(seat), []
    if data.get("turn") == seat and data.get("step"):
        marks.append(STEP_WORDS.get(data["step"], data["step"]))
    best = (data.get("best") or {}).get(key)
    if best is not None:
        marks.append(mark("model.suhjong.best", points=best))
    declared = (data.get("declared") or {}).get(key)
    if declared is not None:
        marks.append(mark("model.suhjong.declared", equation=declared["equation"], points=declared.get("points", 0))
                     if declared.get("equation") else mark("model.suhjong.declared_none"))
    scores = (data.get("scores") or {}).get(key) or []
    if scores:
        marks.append(mark("model.rounds", scores=" ".join(map(str, scores))))
    return marks


UI = GameUI(model=model)
