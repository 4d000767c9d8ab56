"""The console's panels as rich Text: pure functions of the state report, health and the spoken log.

Hands, private lines and anything that names a piece in a hand stay hidden unless `reveal` is set:
the players may see the screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from kikimimi.console.feed import Spoken
from kikimimi.games.base import Alert

_STATUS_STYLE = {"ok": "green", "reconnecting": "yellow", "fallback": "yellow", "failed": "bold red"}


def health_text(readers: Mapping[str, Any], outputs: Mapping[str, Any],
                levels: Mapping[str, tuple[float, bool]] | None = None) -> Text:
    """Every reader (ReaderHealth) and output (OutputHealth) with its status; volume and mute per output."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Readers\n", "bold")
    for role, h in readers.items():
        text.append("● ", _STATUS_STYLE.get(h.status, "red"))
        text.append(f"{role:<8}", "bold").append(f"{h.status:<13}", _STATUS_STYLE.get(h.status, "red"))
        text.append(f"taps {h.taps:<4}")
        if h.errors or h.dropped:
            text.append(f" errors {h.errors} dropped {h.dropped}", "red")
        where = h.path if h.path == h.protocol else f"{h.protocol} {h.path}"
        text.append(f" {where}" + (f": {h.detail}" if h.status != "ok" else "") + "\n", "dim")
    text.append("Outputs\n", "bold")
    for name, h in outputs.items():
        volume, muted = (levels or {}).get(name, (1.0, False))
        text.append("● ", _STATUS_STYLE.get(h.status, "red"))
        text.append(f"{name:<8}", "bold").append(f"{h.status:<13}", _STATUS_STYLE.get(h.status, "red"))
        text.append("MUTED    " if muted else f"vol {round(volume * 100):>3}% ", "bold yellow" if muted else "")
        text.append(f"{h.detail}\n", "dim")
    return text


def describe_alert(alert: Alert, *, reveal: bool = False) -> str:
    """An alert in words; a piece held in a hand is named only when hands are revealed."""
    p = dict(alert.params)
    piece = p.get("piece") if reveal else None
    if alert.key == "piece.foreign_hand":
        what = f"a piece of seat {p.get('owner')}" + (f" ({piece})" if piece else "")
        return f"{what} was tapped on seat {p.get('seat')}'s hand reader"
    if alert.key == "tag.unknown":
        return f"unknown tag {p.get('uid') or p.get('tag')} on {p.get('reader')}: not in the deck (enroll it?)"
    if alert.key == "reader.unknown":
        return f"a tap on reader {p.get('reader')}, which this game does not use"
    if alert.key == "referee.moved":
        return f"moved {piece or 'a piece'} to {p.get('to')}"
    if alert.key == "referee.refused":
        return f"refused {p.get('action')}: {p.get('why')}"
    if alert.key == "undo.nothing":
        return "nothing to undo"
    if alert.key == "journal.failed":
        return f"the journal could not be written ({p.get('error')}): the game goes on unsaved"
    if alert.key == "reader.down":
        return f"reader {p.get('reader')} is {p.get('status')}: {p.get('detail')}"
    if alert.key == "reader.back":
        return f"reader {p.get('reader')} is back"
    if alert.key == "output.lost":
        return f"audio output {p.get('output')} lost: {p.get('detail')}"
    if alert.key == "output.back":
        return f"audio output {p.get('output')} is back"
    shown = {k: v for k, v in p.items() if reveal or k != "piece"}
    return f"{alert.key} " + " ".join(f"{k}={v}" for k, v in shown.items())


def alerts_text(alerts: Sequence[tuple[str, Alert]], *, reveal: bool = False, limit: int = 12) -> Text:
    """(clock time, alert) newest last."""
    text = Text()
    if not alerts:
        return Text("no alerts", "dim")
    for when, alert in list(alerts)[-limit:]:
        style = "green" if alert.key.endswith(".back") else "yellow"
        text.append(f"{when} ", "dim").append(describe_alert(alert, reveal=reveal) + "\n", style)
    return text


def spoken_text(lines: Sequence[Spoken], output: str, *, reveal: bool = False, limit: int = 60) -> Text:
    """What one output said, newest last; another output's lines never appear here."""
    text = Text()
    mine = [s for s in lines if s.to == output][-limit:]
    for line in mine:
        label = "  ·" if line.seq == 0 else f"{line.seq:>3}"
        text.append(f"{label} ", "dim")
        if line.note:
            text.append(line.text + "\n", "dim italic")
        elif line.private and not reveal:
            text.append("(private line)\n", "dim")
        else:
            text.append(line.text + (" (repeated)" if line.repeat else "") + "\n")
    if not mine:
        text.append("nothing yet", "dim")
    return text
