"""Event scripts (spec/event-script.md): one JSON object per line, parsed into events.

A line the script format does not allow (bad JSON, unknown key, unknown piece, unknown UID, a set-up
line that is not first) is refused with its line number and skipped; a line the *rules* refuse is a
normal event.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kikimimi.devices.deck import Deck
from kikimimi.games.base import FIELD, Event, Referee, Scan, seat_of

SETUP_KEYS = {"game", "first", "rules"}
SCAN_KEYS = {"scan", "piece", "uid", "t"}


class ScriptLineError(ValueError):
    """One line of a script that cannot be read; the message says why."""


@dataclass(frozen=True)
class ScriptLine:
    number: int
    event: Event | None = None
    setup: dict[str, Any] | None = None
    error: str | None = None


def _reader_ok(reader: Any, seats: int = 3) -> bool:
    if reader == FIELD:
        return True
    seat = seat_of(reader) if isinstance(reader, str) else None
    return seat is not None and 1 <= seat <= seats


def parse_line(obj: Any, deck: Deck | None, known_id: Any, first_line: bool) -> Event | dict[str, Any]:
    """One decoded JSON value into an event or a set-up; ScriptLineError says what is wrong."""
    if not isinstance(obj, dict):
        raise ScriptLineError("expected a JSON object")
    if "scan" in obj:
        extra = set(obj) - SCAN_KEYS
        if extra:
            raise ScriptLineError(f"unknown key(s) {sorted(extra)} (a scan line has scan, piece or uid, t)")
        reader = obj["scan"]
        if not _reader_ok(reader):
            raise ScriptLineError(f"unknown reader {reader!r} (readers: field, hand:1, hand:2, hand:3)")
        if ("piece" in obj) == ("uid" in obj):
            raise ScriptLineError("a scan line needs exactly one of piece or uid")
        if "piece" in obj:
            piece = obj["piece"]
            if not isinstance(piece, str) or not known_id(piece):
                raise ScriptLineError(f"unknown piece {piece!r}")
            return Scan(reader, piece)
        uid = obj["uid"]
        if not isinstance(uid, str):
            raise ScriptLineError(f"uid must be a string of hex digits, not {uid!r}")
        if deck is None:
            raise ScriptLineError(f"uid {uid} given but no deck (use --deck FILE)")
        tag = deck.resolve(uid)
        if tag is None:
            raise ScriptLineError(f"unknown UID {uid} (not in deck {deck.source})")
        return Scan(reader, tag, uid)
    if "referee" in obj:
        action = obj["referee"]
        if not isinstance(action, str):
            raise ScriptLineError(f"referee action must be a string, not {action!r}")
        return Referee(action, {k: v for k, v in obj.items() if k != "referee"})
    if set(obj) <= SETUP_KEYS and obj:
        if not first_line:
            raise ScriptLineError("a set-up line (game, first, rules) may only be the first line")
        return dict(obj)
    raise ScriptLineError(f"unknown key(s) {sorted(obj)} (expected scan, referee, or a first set-up line)")


def read_script(lines: Iterable[str], deck: Deck | None = None) -> Iterator[ScriptLine]:
    """Each non-blank line as an event, a set-up or an error, with its line number."""
    from kikimimi.games.trident.pieces import is_known_id

    seen_content = False
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        first = not seen_content
        seen_content = True
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            yield ScriptLine(number, error=f"not JSON: {exc.msg} at column {exc.colno}")
            continue
        try:
            parsed = parse_line(obj, deck, is_known_id, first)
        except ScriptLineError as exc:
            yield ScriptLine(number, error=str(exc))
            continue
        if isinstance(parsed, dict):
            yield ScriptLine(number, setup=parsed)
        else:
            yield ScriptLine(number, event=parsed)


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as a script line (the inverse of parse_line for piece scans and referee actions)."""
    if isinstance(event, Scan):
        if event.piece is None:
            return {"scan": event.reader, "uid": event.uid}
        return {"scan": event.reader, "piece": event.piece}
    return {"referee": event.action, **dict(event.params or {})}
