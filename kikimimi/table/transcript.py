"""A readable transcript: each event, what each output said, and the state at the end (rich)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kikimimi.games.base import FIELD, SPEAKER, Alert, Effect, Event, Referee, Say, hears
from kikimimi.shown import printable
from kikimimi.table.messages import Announcement, NewGame, PauseRequest, TableAction
from kikimimi.voice.catalog import Catalog

_OUTPUT_STYLE = {"speaker": "bold yellow", "hand:1": "cyan", "hand:2": "green", "hand:3": "magenta"}


def describe_event(event: Event | TableAction, hidden: bool = False) -> str:
    """One line for an event. `hidden`: no piece is named (the log players may see): a tap says only which
    reader was tapped, a referee action leaves out its `piece`. Whatever a script put there is escaped as
    names are (`printable`): an escape sequence in a parameter must not reach the terminal. The table's own
    steps read as the referee lines they were once written as."""
    if isinstance(event, NewGame):
        return printable(" ".join(["referee new", *(f"{k}={v}" for k, v in event.setup.items())]))
    if isinstance(event, Announcement):
        return "referee announce"
    if isinstance(event, PauseRequest):
        return f"referee pause paused={event.paused}"
    if isinstance(event, Referee):
        extra = " ".join(f"{k}={v}" for k, v in dict(event.params or {}).items() if not (hidden and k == "piece"))
        return printable(f"referee {event.action} {extra}".rstrip())
    if hidden and (event.piece is not None or event.reader != FIELD):
        return printable(f"{event.reader:<7} ◀ (a tap)")
    tag = event.piece if event.piece is not None else f"unknown tag {event.uid or ''}".rstrip()
    return printable(f"{event.reader:<7} ◀ {tag}")


PUBLIC = 0  # `seat` value of print_step for a screen anyone at the table may see


def print_step(console: Console, label: str, event: Event | TableAction, effects: Iterable[Effect], words: Catalog,
               seat: int | None = None) -> None:
    """An event and what each output said.

    seat None: everything (replay, the bots' demo). seat N: only what seat N may know (a person playing that
    seat): the speaker, its own earphone. seat PUBLIC: what anyone may see (the live table's log, which players
    may read): earphone lines only as "(private)". Pieces are never named when not showing everything:
    players learn pieces by listening, an Unknown stays hidden, and a field tap may be a wrong play whose
    piece is still in a hand (a good play is named by the speaker). Nor is a referee's `piece`.
    """
    console.print(Text(f"{label:>5}  ", style="dim") + Text(describe_event(event, seat is not None), style="bold"))
    for effect in effects:
        if isinstance(effect, Say):
            private = not hears(effect.to, seat)
            if private and seat != PUBLIC:
                continue
            text = "(private)" if private else printable(words.render(effect.key, effect.params).text)
            where = SPEAKER if effect.to == SPEAKER else f"{effect.to} earphone"
            console.print(Text(f"       {where:<16} ", style=_OUTPUT_STYLE.get(effect.to, "")) + Text(text))
        elif isinstance(effect, Alert) and seat in (None, PUBLIC):
            params = " ".join(f"{k}={v}" for k, v in effect.params.items() if seat is None or k != "piece")
            console.print(Text(printable(f"       referee alert    {effect.key} {params}"), style="red"))


def print_state(console: Console, report: dict[str, Any], view: Callable[..., Any] | None = None,
                seat: int | None = None) -> None:
    """The state at the end: the game's own panel when it has one (hands only when `seat` is None, i.e.
    everything may be shown), else the phase and the result as plain data."""
    console.rule("state at the end", style="dim")
    if view is not None:
        console.print(view(report, reveal=seat is None))
        return
    table = Table(show_header=False)
    table.add_column("key", style="dim")
    table.add_column("value")
    table.add_row("game", str(report.get("game")))
    table.add_row("phase", str(report.get("phase")))
    table.add_row("result", json.dumps(report.get("result"), ensure_ascii=False))
    console.print(table)
