"""6 nimmt!'s panel of the Priest's console: a pure function of the state report.

The rows, who has chosen (never what, until the reveal), bullheads per seat this round and in all.
Hands and face-down choices only when `reveal` is set: the players may see the screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from kikimimi.games.nimmt.pieces import BULLHEADS
from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import SeatModel, TableModel, mark, score_items, seat_ids, winner_item

PHASES = {"deal": "deal", "choose": "choosing", "take_row": "a row to take", "over": "game over"}


def _bulls(cards: list[int]) -> int:
    return sum(BULLHEADS[card] for card in cards)


def state_text(report: Mapping[str, Any], *, reveal: bool = False,
               players: Mapping[int, str] | None = None, titles: Mapping[str, str] | None = None) -> Text:
    """The table at a glance. `players`: seat -> name in an open meeting; `titles`: name -> rank."""
    text = Text()
    phase = str(report.get("phase"))
    target = report.get("target", 0)
    text.append("Phase ", "dim").append(PHASES.get(phase, phase), "bold")
    text.append("   round ", "dim").append(str(report.get("round", 1)))
    text.append("   goal ", "dim").append(f"first to {target}" if target else "one round")
    if report.get("taker"):
        text.append("   ").append(f"seat {report['taker']} chooses a row", "bold red")
    text.append("\n\n")
    rows = report.get("rows") or []
    for index, row in enumerate(rows, 1):
        text.append(f"Row {index} ", "bold")
        text.append(" ".join(str(card) for card in row), "cyan")
        text.append(f"   ({len(row)} card{'s' if len(row) != 1 else ''}, {_bulls(row)} bullheads)", "dim")
        if len(row) == 5:
            text.append("  full", "bold red")
        text.append("\n")
    if not rows:
        text.append("No rows laid yet\n", "dim")
    revealed = {seat: card for card, seat in report.get("revealed") or []}
    text.append("\n")
    hands = report.get("hands") or {}
    for seat_key, chosen in (report.get("chosen") or {}).items():
        seat = int(seat_key)
        held = hands.get(seat_key, [])
        text.append(f"Seat {seat:>2}", "bold")
        if phase == "deal":
            text.append(f"  {len(held):>2} dealt")
        elif seat in revealed:
            text.append(f"  played {revealed[seat]:>3}", "bold green")
        elif chosen is not None:
            text.append("  chosen      ", "green")
            if reveal:
                text.append(f"({chosen}) ", "yellow")
        elif phase in ("choose", "take_row"):
            text.append("  choosing    ", "bold yellow")
        else:
            text.append("              ")
        text.append("  bullheads ", "dim").append(f"{report['bullheads'][seat_key]:>3}")
        text.append("  total ", "dim").append(f"{report['totals'][seat_key]:>3}", "bold")
        name = (players or {}).get(seat)
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title})" if title else ""), "italic")
        text.append("\n")
        if reveal and held:
            text.append("        " + " ".join(str(card) for card in held) + "\n", "yellow")
    if not reveal:
        text.append("  hands and choices hidden (h reveals them)\n", "dim")
    result = report.get("result")
    if result:
        winners = result.get("winners") or []
        text.append("\n")
        if winners:
            text.append("Winner" + ("s" if len(winners) > 1 else "") + " ", "dim")
            text.append(", ".join(f"seat {seat}" for seat in winners), "bold green")
        else:
            text.append("Ended by the Priest", "bold")
        text.append("   bullheads ", "dim")
        text.append("  ".join(f"{seat}: {total}" for seat, total in result["bullheads"].items()))
        text.append("\n")
    return text


# What the console, the demo and bring-up use of 6 nimmt! (the entry's `ui` loader takes it from here).

def model(data: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None) -> TableModel:
    """6 nimmt!'s table for the consoles: each seat's cards left, whether it chose, its bullheads; the rows."""
    counts = data.get("hand_counts") or {s: len(h) for s, h in (data.get("hands") or {}).items()}
    chose = data.get("has_chosen") or {s: c is not None for s, c in (data.get("chosen") or {}).items()}
    hands, totals = data.get("hands") or {}, data.get("totals") or {}
    seats = [SeatModel(seat, (players or {}).get(seat), counts.get(str(seat)),
                       [str(c) for c in hands[str(seat)]] if reveal and str(seat) in hands else None,
                       [mark("model.nimmt.chosen")] if chose.get(str(seat)) else [],
                       totals.get(str(seat)), turn=data.get("taker") == seat)
             for seat in seat_ids(totals)]
    items = [mark("model.nimmt.row", row=n, cards=" ".join(str(c) for c in row))
             for n, row in enumerate(data.get("rows") or [], start=1)]
    if data.get("round"):
        items.insert(0, mark("model.round", round=data["round"]))
    result = data.get("result") or {}
    ends = ([mark("model.result.winner", seat=seat) for seat in result.get("winners") or []]
            or [winner_item(None, referee=True)]) + score_items(result.get("bullheads"), "model.result.bullheads")
    return TableModel(seats, data.get("phase"), [str(c) for c in data.get("last_reveal") or []][-6:], None, items,
                      data.get("phase") == "over", result=ends if result else [])

UI = GameUI(view=state_text, model=model)
