"""The live bring-up table (rich): one row per reader, one per output, and the latest taps."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from rich.console import Group
from rich.table import Table
from rich.text import Text

from kikimimi.bringup.announce import Heard
from kikimimi.bringup.session import ReaderRow
from kikimimi.voice.outputs import OutputHealth

STYLE = {"ok": "green", "reconnecting": "yellow", "fallback": "yellow", "failed": "bold red"}


def _status(status: str) -> Text:
    return Text(status, style=STYLE.get(status, ""))


def _path(r: ReaderRow) -> str:
    return r.path if r.path == r.protocol else f"{r.path} ({r.protocol})"


def readers_table(rows: Iterable[ReaderRow], latency: bool = False) -> Table:
    table = Table(title="readers", title_justify="left", expand=True)
    table.add_column("role", no_wrap=True)
    table.add_column("path", overflow="fold", ratio=1)
    table.add_column("status", no_wrap=True)
    table.add_column("last UID", no_wrap=True)
    table.add_column("piece", no_wrap=True)
    table.add_column("taps", justify="right")
    table.add_column("errors", justify="right")
    if latency:
        table.add_column("tap→speech", justify="right", no_wrap=True)
    for r in rows:
        piece = "" if r.last_uid is None else (r.last_tag or Text("not in deck", style="yellow"))
        cells: list[str | Text] = [r.role, _path(r), _status(r.status), r.last_uid or "-", piece, str(r.taps),
                       Text(str(r.errors), style="red" if r.errors else "")]
        if latency:
            cells.append("-" if r.latency_ms is None else f"{r.latency_ms:.1f} ms")
        table.add_row(*cells)
    return table


def reader_notes(rows: Iterable[ReaderRow]) -> Text:
    """What is wrong with each reader that is not ok, and how to fix it (from the hub's health)."""
    text = Text()
    for r in rows:
        notes = [] if r.status == "ok" else [r.detail]
        if r.status == "ok" and "warning:" in r.detail:
            notes.append(r.detail[r.detail.index("warning:"):])
        if r.dropped:
            notes.append(f"{r.dropped} bad frames thrown away (noise on the line? see hardware_docs/wiring.md)")
        if notes:
            text.append(f"{r.role}: " + "; ".join(notes) + "\n", style=STYLE.get(r.status, "yellow"))
    return text


def outputs_table(outputs: Mapping[str, OutputHealth]) -> Table:
    table = Table(title="outputs", title_justify="left", expand=True)
    table.add_column("output", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("underruns", justify="right", no_wrap=True)
    table.add_column("detail", overflow="fold", ratio=1)
    for name, health in outputs.items():
        # an underrun is the card running dry (a click or gap); shared by the outputs of one card
        runs = Text(str(health.underruns), style="yellow" if health.underruns else "")
        table.add_row(name, _status(health.status), runs, health.detail)
    return table


def recent_taps(heard: Iterable[Heard], text_of: Callable[[Heard], str], limit: int = 6) -> Text:
    lines = list(heard)[-limit:]
    text = Text()
    for h in lines:
        where = h.say.to if h.say else "not spoken"
        text.append(f"{h.role:8} {h.uid:16} {h.tag_id or 'not in deck':22} -> {where}: {text_of(h)}\n")
    if not lines:
        text.append("tap a tag on any reader (Ctrl-C to stop)\n", style="dim")
    return text


def render(rows: list[ReaderRow], outputs: Mapping[str, OutputHealth], heard: Iterable[Heard],
           text_of: Callable[[Heard], str], latency: bool = False) -> Group:
    """Everything the live view shows, as one renderable."""
    return Group(readers_table(rows, latency), reader_notes(rows), outputs_table(outputs),
                 recent_taps(heard, text_of))
