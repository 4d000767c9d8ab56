"""The console's panels as rich Text: pure functions of the state report, health and the spoken log.

Hands, private lines and anything that names a piece in a hand stay hidden unless `reveal` is set:
the players may see the screen. The game's own panel is its view model, drawn by `modeltext`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from kikimimi.console.feed import Spoken
from kikimimi.console.words import Words
from kikimimi.games.base import Alert, Referee, seat_of

# Alert parameters that name no piece, card or secret: shown even while the hands are hidden.
PUBLIC_PARAMS = frozenset({"seat", "owner", "reader", "to", "action", "why", "uid", "output", "status", "detail",
                           "error", "count", "phase", "round", "key", "held", "wanted", "game", "command",
                           "seconds"})
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
        underruns = getattr(h, "underruns", 0)
        if underruns:  # the card ran dry (shared by the outputs of one card)
            text.append(f"underruns {underruns} ", "yellow")
        text.append(f"{h.detail}\n", "dim")
    return text


def describe_alert(alert: Alert, *, reveal: bool = False, said: Words | None = None) -> str:
    """An alert in words; a piece held in a hand is named only when hands are revealed. `said` (the console's
    Words) says it in the table's language when its catalog has `alert.<key>`."""
    p = dict(alert.params)
    if said is not None and said.has(f"alert.{alert.key}"):
        shown = {k: (said.reason(str(v)) if k == "why" else v) for k, v in p.items()
                 if reveal or k in PUBLIC_PARAMS}
        shown["piece"] = p["piece"] if reveal and p.get("piece") else said.say("event.a_piece")
        return said.say(f"alert.{alert.key}", **shown)
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
    if alert.key == "reader.two_tags":
        return (f"two tags take turns on reader {p.get('reader')}: a piece is lying on it? "
                "(keep the tap zone clear of played pieces)")
    if alert.key == "reader.back":
        return f"reader {p.get('reader')} is back"
    if alert.key == "output.lost":
        return f"audio output {p.get('output')} lost: {p.get('detail')}"
    if alert.key == "voice.pack_incomplete":
        return (f"the voice pack holds {p.get('held')} of {p.get('wanted')} phrases of {p.get('game')}: the rest "
                f"is spoken live or shown as text; render it with `{p.get('command')}`")
    if alert.key == "output.back":
        return f"audio output {p.get('output')} is back"
    if alert.key == "output.underruns":
        return (f"audio output {p.get('output')}: the sound card ran dry {p.get('count')} times in "
                f"{p.get('seconds')} s (clicks and gaps); if it goes on, set [voice] latency = \"high\" "
                "(hardware_docs/audio.md)")
    # An alert the console does not know: its parameters are shown only if they cannot be a secret
    # (a game's alert may carry a card, a number, a hand).
    shown = {k: (v if reveal or k in PUBLIC_PARAMS else "…") for k, v in p.items()}
    return f"{alert.key} " + " ".join(f"{k}={v}" for k, v in shown.items())


def action_label(info: Any, action: str, said: Words, english: str = "") -> str:
    """A referee action's label in `said`'s language: the game's own (`actions.<game>.<action>`), else the
    console's (`action.<action>`), else as the game wrote it."""
    return said.get(f"actions.{info.id}.{action}", "") or said.get(f"action.{action}", english or action)


def describe_event(event: Any, info: Any, said: Words, *, reveal: bool = False) -> str:
    """An event in `said`'s language (the undo question, the last event): a piece tapped on a seat's hand
    reader is named only when hands are revealed; a referee action by its label, a piece among its parameters
    hidden likewise."""
    if isinstance(event, Referee):
        params = [said.say("event.param", name=said.get(f"param.{k}", k), value=v)
                  for k, v in dict(event.params).items() if k != "at" and (reveal or k != "piece")]
        return " ".join([action_label(info, event.action, said), *params])
    private = seat_of(event.reader) is not None and event.piece not in info.controls
    piece = said.say("event.a_piece") if private and not reveal else event.piece
    return said.say("event.scan", piece=piece, place=event.reader)


def alerts_text(alerts: Sequence[tuple[str, Alert]], *, reveal: bool = False, limit: int = 12,
                said: Words | None = None) -> Text:
    """(clock time, alert) newest last; in the table's language with `said` (the console's Words)."""
    text = Text()
    if not alerts:
        return Text(said.say("page.no_alerts") if said is not None else "no alerts", "dim")
    for when, alert in list(alerts)[-limit:]:
        style = "green" if alert.key.endswith(".back") else "yellow"
        text.append(f"{when} ", "dim").append(describe_alert(alert, reveal=reveal, said=said) + "\n", style)
    return text


def spoken_text(lines: Sequence[Spoken], output: str, *, reveal: bool = False, limit: int = 60,
                said: Words | None = None) -> Text:
    """What one output said, newest last; another output's lines never appear here. `said` (the console's
    Words) gives the placeholders in the table's language (English without it)."""
    def word(key: str, english: str) -> str:
        return said.get(f"page.{key}", english) if said is not None else english

    text = Text()
    mine = [s for s in lines if s.to == output][-limit:]
    for line in mine:
        label = "  ·" if line.seq == 0 else f"{line.seq:>3}"
        text.append(f"{label} ", "dim")
        if line.note:
            text.append(line.text + "\n", "dim italic")
        elif line.private and not reveal:
            text.append(word("private_line", "(private line)") + "\n", "dim")
        else:
            text.append(line.text + (" " + word("repeated", "(repeated)") if line.repeat else "") + "\n")
    if not mine:
        text.append(word("nothing_said", "nothing yet"), "dim")
    return text
