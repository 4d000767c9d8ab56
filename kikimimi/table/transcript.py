"""A readable transcript: each event, what each output said, and the state at the end (rich)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kikimimi.games.base import Alert, Effect, Event, Referee, Say, Scan
from kikimimi.voice.catalog import Catalog

_OUTPUT_STYLE = {"speaker": "bold yellow", "hand:1": "cyan", "hand:2": "green", "hand:3": "magenta"}


def describe_event(event: Event, hidden: bool = False) -> str:
    """One line for an event; `hidden` says only which reader was tapped (another seat's private tap)."""
    if isinstance(event, Referee):
        extra = " ".join(f"{k}={v}" for k, v in dict(event.params or {}).items())
        return f"referee {event.action} {extra}".rstrip()
    if hidden:
        return f"{event.reader:<7} ◀ (a tap)"
    tag = event.piece if event.piece is not None else f"unknown tag {event.uid or ''}".rstrip()
    return f"{event.reader:<7} ◀ {tag}"


PUBLIC = 0  # `seat` value of print_step for a screen anyone at the table may see


def print_step(console: Console, label: str, event: Event, effects: Iterable[Effect], words: Catalog,
               seat: int | None = None) -> None:
    """An event and what each output said.

    seat None: everything (replay, the bots' demo). seat N: only what seat N may know (a person playing that
    seat): the speaker, its own earphone. seat PUBLIC: what anyone may see (the live table's log, which players
    may read): earphone lines only as "(private)". Hand taps are never named when not showing everything:
    players learn pieces by listening, and an Unknown stays hidden.
    """
    hand_tap = seat is not None and isinstance(event, Scan) and event.reader != "field"
    console.print(Text(f"{label:>5}  ", style="dim") + Text(describe_event(event, hand_tap), style="bold"))
    for effect in effects:
        if isinstance(effect, Say):
            private = effect.to != "speaker" and seat is not None and effect.to != f"hand:{seat}"
            if private and seat != PUBLIC:
                continue
            text = "(private)" if private else words.render(effect.key, effect.params).text
            where = "speaker" if effect.to == "speaker" else f"{effect.to} earphone"
            console.print(Text(f"       {where:<16} ", style=_OUTPUT_STYLE.get(effect.to, "")) + Text(text))
        elif isinstance(effect, Alert) and seat in (None, PUBLIC):
            params = " ".join(f"{k}={v}" for k, v in effect.params.items() if seat is None or k != "piece")
            console.print(Text(f"       referee alert    {effect.key} {params}", style="red"))


def print_state(console: Console, report: dict[str, Any]) -> None:
    table = Table(title="state at the end", show_header=False, title_justify="left")
    table.add_column("key", style="dim")
    table.add_column("value")
    for key in ("phase", "turn", "required", "pending_draw", "basket_count"):
        table.add_row(key, str(report.get(key)))
    for seat, pieces in report["hands"].items():
        mark = " (Trident)" if report["declared"][seat] else ""
        owed = report["owed"][seat]
        table.add_row(f"seat {seat}", f"{len(pieces)} pieces{mark}{f', owes {owed}' if owed else ''}: "
                      + " ".join(pieces))
    shown = report["field"][-8:]
    table.add_row("field (last)", ("… " if len(report["field"]) > 8 else "") + " ".join(shown))
    if report["penalties"]:
        table.add_row("penalties", ", ".join(f"seat {p['seat']} {p['reason']}" for p in report["penalties"]))
    result = report.get("result")
    if result:
        how = {"out": f"seat {result['winner']} went out", "crash": f"seat {result['crashed']} crashed",
               "referee": "ended by the Priest"}.get(result.get("reason", ""), "")
        table.add_row("result", how)
        table.add_row("ranking", "   ".join(
            f"{place}. seat {seat} ({result['pieces'][str(seat)]} pieces, {result['points'][str(seat)]} points)"
            for place, seat in enumerate(result["ranking"], start=1)))
    console.print(table)
