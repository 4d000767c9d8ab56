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

FIELD_SHOWN = 8
PHASES = {
    "deal": "deal",
    "start": "start (start piece)",
    "turn": "turn",
    "drawing": "drawing",
    "choose_suit": "choosing a suit",
    "over": "game over",
}
PLACES = ("1st", "2nd", "3rd")
_STATUS_STYLE = {"ok": "green", "reconnecting": "yellow", "fallback": "yellow", "failed": "bold red"}


def state_text(report: Mapping[str, Any], *, reveal: bool = False,
               players: Mapping[int, str] | None = None, titles: Mapping[str, str] | None = None) -> Text:
    """The table at a glance. `players`: seat -> name in an open meeting; `titles`: name -> rank."""
    text = Text()
    phase = report.get("phase")
    text.append("Phase ", "dim").append(PHASES.get(str(phase), str(phase)), "bold")
    text.append("   rules ", "dim").append(str(report.get("rules", "standard")))
    text.append("   first ", "dim").append(f"seat {report.get('first', 1)}")
    text.append("\n")
    turn = report.get("turn")
    text.append("To move ", "dim").append(f"seat {turn}" if turn else "–", "bold cyan")
    text.append("   required ", "dim").append(str(report.get("required") or "–"), "bold")
    pending = report.get("pending_draw", 0)
    text.append("   pending draw ", "dim").append(str(pending), "bold red" if pending else "")
    text.append("   basket ", "dim").append(str(report.get("basket_count")))
    text.append("\n\n")
    for seat_key, hand in report["hands"].items():
        seat = int(seat_key)
        owed = report["owed"].get(seat_key, 0)
        mover = seat == turn and phase != "over"
        text.append("▶ " if mover else "  ", "bold cyan")
        text.append(f"Seat {seat}", "bold")
        text.append(f"  {len(hand)} piece{'s' if len(hand) != 1 else ''}")
        if report["declared"].get(seat_key):
            text.append("  TRIDENT", "bold magenta")
        if owed:
            text.append(f"  owes {owed}", "bold red")
        name = (players or {}).get(seat)
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title})" if title else ""), "italic")
        text.append("\n")
        if reveal:
            text.append("      " + (" ".join(hand) or "(empty)") + "\n", "yellow")
    if not reveal:
        text.append("  hands hidden (h reveals them)\n", "dim")
    field = list(report.get("field", []))
    text.append("\nField ", "dim")
    if len(field) > FIELD_SHOWN:
        text.append(f"({len(field)}) … ")
    text.append(" ".join(field[-FIELD_SHOWN:]) or "–")
    text.append("\n")
    penalties = report.get("penalties") or []
    if penalties:
        text.append("Penalties ", "dim")
        text.append(", ".join(f"seat {p['seat']} {str(p['reason']).replace('_', ' ')}" for p in penalties), "red")
        text.append("\n")
    result = report.get("result")
    if result:
        text.append(ranking_text(result, str(report.get("rules", "standard"))))
    return text


def ranking_text(result: Mapping[str, Any], rules: str) -> Text:
    text = Text("Ranking ", "dim")
    parts = []
    for place, seat in zip(PLACES, result["ranking"], strict=False):
        if seat == result.get("winner"):
            how = "out"
        elif seat == result.get("crashed"):
            how = "crashed"
        else:
            held = result["pieces"][str(seat)]
            how = f"{held} piece{'' if held == 1 else 's'}, {result['points'][str(seat)]} points"
        parts.append(f"{place} seat {seat} ({how})")
    text.append("  ".join(parts), "bold green")
    text.append(f"\n        by {'points' if rules == 'competition' else 'pieces'} in hand")
    if result.get("reason") == "referee":
        text.append(", ended by the Priest")
    text.append("\n")
    return text


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
