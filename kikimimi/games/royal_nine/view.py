"""Royal Nine's panel of the Priest's console: a pure function of the state report.

Both grids, the hands, the round scores and totals; the common card only with `reveal` (the players
may see the screen). Cards are open at this table, so the grids and hands are shown always.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from kikimimi.games.registry import GameUI
from kikimimi.games.royal_nine.keyboard import KeyboardSeat
from kikimimi.games.tableview import SeatModel, TableModel, mark, score_items, seat_ids, winner_item

PHASES = {
    "common": "lay the common card",
    "deal1": "first deal",
    "place1": "first placement",
    "deal2": "second deal",
    "place2": "second placement",
    "reveal": "open the common card",
    "scored": "round scored",
    "over": "game over",
}
_STYLE = {"red": "bold red", "blue": "bold blue"}


def _card(text: Text, card: str | None, common: str | None, reveal: bool, opened: bool) -> None:
    if card is None:
        text.append(" ·  ".ljust(9), "dim")
    elif card == "common":
        if common is not None and (reveal or opened):
            text.append(f"[{_short(common)}]".ljust(9), _STYLE.get(common.split("-")[0], "") + " reverse")
        else:
            text.append("[ ? ]".ljust(9) if common is not None else "[   ]".ljust(9), "bold")
    else:
        text.append(_short(card).ljust(9), _STYLE.get(card.split("-")[0], ""))


def _short(card: str) -> str:
    colour, _, number = card.partition("-")
    return f"{'R' if colour == 'red' else 'B'}{number}"


def state_text(report: Mapping[str, Any], *, reveal: bool = False,
               players: Mapping[int, str] | None = None, titles: Mapping[str, str] | None = None) -> Text:
    """The table at a glance. `players`: seat -> name in an open meeting; `titles`: name -> rank."""
    text = Text()
    phase = str(report.get("phase"))
    text.append("Round ", "dim").append(str(report.get("round")), "bold")
    text.append("   phase ", "dim").append(PHASES.get(phase, phase), "bold")
    common = report.get("common")
    # The round's common card is open once the round is scored (a Priest's end may come before that).
    opened = phase in ("scored", "over") and len(report.get("round_scores", {}).get("1", [])) == report.get("round")
    text.append("   common ", "dim")
    if common is None:
        text.append("not laid")
    elif reveal or opened:
        text.append(common, _STYLE.get(common.split("-")[0], ""))
    else:
        text.append("face down (h reveals it)", "dim")
    text.append("\n\n")
    seats = sorted(report.get("grids", {}), key=int)
    for seat_key in seats:
        seat = int(seat_key)
        name = (players or {}).get(seat)
        text.append(f"Seat {seat}", "bold")
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title})" if title else ""), "italic")
        scores = report.get("round_scores", {}).get(seat_key, [])
        text.append("   rounds ", "dim").append(" ".join(map(str, scores)) or "–")
        text.append("   total ", "dim").append(str(report.get("totals", {}).get(seat_key, 0)), "bold green")
        text.append("\n")
    text.append("\n")
    for row in range(3):
        for seat_key in seats:
            text.append("  ")
            for col in range(3):
                _card(text, report["grids"][seat_key][row * 3 + col], common, reveal, opened)
            text.append("   ")
        text.append("\n")
    text.append("\n")
    for seat_key in seats:
        hand = report.get("hands", {}).get(seat_key, [])
        text.append(f"Hand {seat_key} ", "dim").append(" ".join(_short(c) for c in hand) or "–")
        text.append("   ")
    text.append("\n")
    roles = report.get("last_roles", {})
    if any(roles.get(k) for k in seats):  # the last revealed round's roles: public
        for seat_key in seats:
            parts = [f"{r['line']} {r['role']} {r['points']}" for r in roles.get(seat_key, [])]
            text.append(f"Last roles {seat_key} ", "dim").append(", ".join(parts) or "none")
            text.append("\n")
    result = report.get("result")
    if result:
        winner = result.get("winner")
        text.append("Result ", "dim")
        text.append(f"seat {winner} wins" if winner else "no winner", "bold green")
        totals = result.get("totals", {})
        text.append("  " + ", ".join(f"seat {k}: {v}" for k, v in sorted(totals.items())))
        text.append("\n")
    return text


# What the console, the demo and bring-up use of Royal Nine (the entry's `ui` loader takes it from here).

def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """Royal Nine's table for the consoles: the two seats with cards in hand and totals, each seat's grid of
    open cards, the round."""
    hands, totals, grids = data.get("hands") or {}, data.get("totals") or {}, data.get("grids") or {}
    seats = [SeatModel(seat, (players or {}).get(seat), len(hands.get(str(seat)) or []) if hands else None,
                       list(hands[str(seat)]) if reveal and str(seat) in hands else None, [],
                       totals.get(str(seat))) for seat in seat_ids(grids) or [1, 2]]
    items = [mark("model.round", round=data.get("round"))]
    items += [mark("model.royal.grid", seat=int(seat),
                   cards=" ".join("[?]" if c == "common" else c or "·" for c in grid))
              for seat, grid in sorted(grids.items())]
    result = data.get("result") or {}
    return TableModel(seats, data.get("phase"), [], None, items, data.get("phase") == "over",
                      result=[winner_item(result.get("winner")), *score_items(result.get("totals"))] if result else [])

UI = GameUI(view=state_text, model=model, keyboard=KeyboardSeat)
