"""Suhjong's panel of the Priest's console: a pure function of the state report.

Hands and rivers are open at the table (the players see them), so the panel shows them always; `reveal`
has nothing more to show: the pile's cards are never in the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.text import Text

from kikimimi.games.registry import GameUI
from kikimimi.games.tableview import SeatModel, TableModel, mark, score_items, winner_item

PHASES = {"deal": "deal", "turn": "turn", "scoring": "scoring (declarations)", "scored": "between rounds",
          "over": "game over"}


def _values(cards: Iterable[str]) -> str:
    return " ".join(str(card).split("-")[1] for card in cards) or "–"


def state_text(report: Mapping[str, Any], *, reveal: bool = False,
               players: Mapping[int, str] | None = None, titles: Mapping[str, str] | None = None) -> Text:
    text = Text()
    phase = str(report.get("phase"))
    text.append("Phase ", "dim").append(PHASES.get(phase, phase), "bold")
    text.append("   round ", "dim").append(str(report.get("round", 1)))
    text.append("   first ", "dim").append(f"seat {report.get('first')}")
    turn = report.get("turn")
    if turn:
        text.append("   to move ", "dim").append(f"seat {turn} ({report.get('step')})", "bold cyan")
    if report.get("showdown_by"):
        text.append("   SHOWDOWN ", "bold magenta").append(f"by seat {report['showdown_by']}")
    text.append("\n")
    text.append("Pile ", "dim").append(str(report.get("pile_count")), "bold")
    text.append("   sea ", "dim").append(str(report.get("sea_count")))
    text.append("\n\n")
    for key in ("1", "2"):
        seat = int(key)
        mover = seat in (turn, report.get("declaring"))
        text.append("▶ " if mover else "  ", "bold cyan")
        text.append(f"Seat {seat}", "bold")
        name = (players or {}).get(seat)
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title})" if title else ""), "italic")
        totals = report.get("totals", {})
        scores = report.get("scores", {}).get(key, [])
        text.append(f"   total {totals.get(key, 0)}", "bold green")
        if scores:
            text.append(f"  rounds {' '.join(map(str, scores))}", "dim")
        text.append("\n")
        hand = report.get("hands", {}).get(key, [])
        best = report.get("best", {}).get(key)
        text.append("      hand  ", "dim").append(_values(hand), "yellow")
        text.append(f"   best {best if best is not None else '–'}", "dim")
        text.append("\n      river ", "dim").append(_values(report.get("rivers", {}).get(key, [])))
        text.append("\n")
        declared = report.get("declared", {}).get(key)
        if declared is not None:
            eq = declared.get("equation") or "no role"
            text.append("      declared ", "dim").append(f"{eq}  {declared.get('points', 0)} points", "bold")
            text.append("\n")
    if report.get("declaring"):
        text.append(f"\nSeat {report['declaring']} declaring: ", "dim")
        text.append(str(report.get("equation") or "…"), "bold magenta")
        text.append("\n")
    result = report.get("result")
    if result:
        winner = result.get("winner")
        totals = result.get("totals", {})
        text.append("\nResult ", "dim")
        text.append(f"seat {winner} wins" if winner else "equal totals: no winner", "bold green")
        text.append(f"  ({totals.get('1', 0)} : {totals.get('2', 0)})\n")
    return text


# What the console, the demo and bring-up use of Suhjong (the entry's `ui` loader takes it from here).

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

UI = GameUI(view=state_text, model=model)
