"""6 nimmt!'s view model for the Priest's consoles: what the terminal and the tablet draw, as data.

Hands (and anything only one seat may know) are in the model only when `reveal` is set: the players may
see the screens. Each console draws the model its own way (kikimimi.console.modeltext, console.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.nimmt.pieces import BULLHEADS
from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import Item, SeatModel, TableModel, mark, score_items, seat_ids, winner_item

ROW_FULL = 5  # a sixth card takes the row


def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """6 nimmt!'s table for the consoles: each seat's cards left, whether it chose (or the card it played in
    the reveal), its bullheads this round and in all; the goal, the rows with their cards and bullheads, who
    takes a row."""
    counts = data.get("hand_counts") or {s: len(h) for s, h in (data.get("hands") or {}).items()}
    chose = data.get("has_chosen") or {s: c is not None for s, c in (data.get("chosen") or {}).items()}
    hands, totals = data.get("hands") or {}, data.get("totals") or {}
    played = {seat: card for card, seat in data.get("revealed") or []}  # the reveal being laid: face up
    seats = [SeatModel(seat, (players or {}).get(seat), counts.get(str(seat)),
                       [str(c) for c in hands[str(seat)]] if reveal and str(seat) in hands else None,
                       _marks(data, seat, reveal, played, bool(chose.get(str(seat)))),
                       totals.get(str(seat)), turn=data.get("taker") == seat)
             for seat in seat_ids(totals)]
    items = [mark("model.nimmt.goal", target=data["target"]) if data.get("target") else mark("model.nimmt.one_round")]
    if data.get("round"):
        items.insert(0, mark("model.round", round=data["round"]))
    items += [mark("model.nimmt.row_full" if len(row) == ROW_FULL else "model.nimmt.row_bullheads", row=n,
                   cards=" ".join(str(c) for c in row), count=len(row), bullheads=sum(BULLHEADS[c] for c in row))
              for n, row in enumerate(data.get("rows") or [], start=1)]
    if data.get("taker"):
        items.append(mark("model.nimmt.taker", seat=data["taker"]))
    result = data.get("result") or {}
    ends = ([mark("model.result.winner", seat=seat) for seat in result.get("winners") or []]
            or [winner_item(None, referee=True)]) + score_items(result.get("bullheads"), "model.result.bullheads")
    return TableModel(seats, data.get("phase"), _cards(data.get("last_reveal"))[-6:], None, items,
                      data.get("phase") == "over", result=ends if result else [])


def _marks(data: Mapping[str, Any], seat: int, reveal: bool, played: Mapping[int, Any], chose: bool) -> list[Item]:
    """A seat's words: the card it played in the reveal (or that it chose), its bullheads this round."""
    marks = []
    if seat in played:
        marks.append(mark("model.nimmt.played", card=played[seat]))
    elif chose:
        marks.append(_chosen(data, seat, reveal))
    bullheads = (data.get("bullheads") or {}).get(str(seat))
    if bullheads is not None and data.get("phase") != "over":  # the end lists the bullheads itself
        marks.append(mark("model.nimmt.round_bullheads", count=bullheads))
    return marks


def _cards(revealed: Any) -> list[str]:
    """The cards of the last reveal ([card, seat] pairs, lowest first): the field the Priest sees."""
    return [str(entry[0] if isinstance(entry, list | tuple) else entry) for entry in revealed or []]


def _chosen(data: Mapping[str, Any], seat: int, reveal: bool) -> Item:
    """A seat that chose: which card only with the hands revealed (face down until the reveal)."""
    card = (data.get("chosen") or {}).get(str(seat)) if reveal else None
    return mark("model.nimmt.chosen_card", card=card) if card is not None else mark("model.nimmt.chosen")


UI = GameUI(model=model)
