"""Event scripts: one JSON object per line (a set-up line first, then scans and referee actions), parsed
into events.

A line the script format does not allow (bad JSON, unknown key, unknown piece, unknown UID, a set-up
line that is not first) is refused with its line number and skipped; a line the *rules* refuse is a
normal event.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.devices.deck import Deck
from kikimimi.games.base import Event, Referee, Scan, SetupError, seat_of
from kikimimi.games.codec import event_to_json  # noqa: F401 - scripts are written by the one codec
from kikimimi.games.registry import DEFAULT_GAME, GameInfo, UnknownGame, game_ids, get_info
from kikimimi.shown import echoed

SCAN_KEYS = {"scan", "piece", "uid", "t"}


class ScriptLineError(ValueError):
    """One line of a script that cannot be read; the message says why."""


@dataclass(frozen=True)
class ScriptLine:
    number: int
    event: Event | None = None
    setup: dict[str, Any] | None = None  # a complete set-up, `game` included (defaults filled in)
    error: str | None = None


def parse_setup_line(obj: Mapping[str, Any]) -> tuple[GameInfo, dict[str, Any]]:
    """A set-up line's game and complete set-up; SetupError (with the game's defaults) when malformed."""
    game_id = obj.get("game", DEFAULT_GAME)
    if not isinstance(game_id, str):
        raise SetupError(f"game must be a game id ({', '.join(game_ids())}), not {echoed(game_id)}")
    try:
        info = get_info(game_id)
    except UnknownGame:
        raise SetupError(f"unknown game {echoed(game_id)} (known: {', '.join(game_ids())})") from None
    return info, {"game": info.id, **info.parse_setup(obj)}


def parse_line(obj: Any, deck: Deck | None, info: GameInfo, setup: Mapping[str, Any] | None,
               first_line: bool) -> Event | dict[str, Any]:
    """One decoded JSON value into an event or a raw set-up; ScriptLineError says what is wrong."""
    if not isinstance(obj, dict):
        raise ScriptLineError("expected a JSON object")
    if "scan" in obj:
        extra = set(obj) - SCAN_KEYS
        if extra:
            raise ScriptLineError(f"unknown key(s) {echoed(sorted(extra))} (a scan line has scan, piece or uid, t)")
        reader = obj["scan"]
        readers = info.readers(setup)
        # hand:K beyond the seats is a bigger table's reader: every game answers it (an alert), so it replays.
        if reader not in readers and not (isinstance(reader, str) and (seat_of(reader) or 0) >= 1):
            raise ScriptLineError(f"unknown reader {echoed(reader)} (readers of {info.id}: {', '.join(readers)})")
        if ("piece" in obj) == ("uid" in obj):
            raise ScriptLineError("a scan line needs exactly one of piece or uid")
        if "piece" in obj:
            piece = obj["piece"]
            if not isinstance(piece, str) or not info.is_known_id(piece):
                raise ScriptLineError(f"unknown piece {echoed(piece)} (not a {info.id} piece or control id)")
            return Scan(reader, piece)
        uid = obj["uid"]
        if not isinstance(uid, str):
            raise ScriptLineError(f"uid must be a string of hex digits, not {echoed(uid)}")
        if deck is None:
            raise ScriptLineError(f"uid {echoed(uid, quoted=False)} given but no deck (use --deck FILE)")
        tag = deck.resolve(uid)
        if tag is None:
            raise ScriptLineError(f"unknown UID {echoed(uid, quoted=False)} (not in deck {deck.source})")
        return Scan(reader, tag, uid)
    if "referee" in obj:
        action = obj["referee"]
        if not isinstance(action, str):
            raise ScriptLineError(f"referee action must be a string, not {echoed(action)}")
        return Referee(action, {k: v for k, v in obj.items() if k != "referee"})
    if obj and first_line:
        return dict(obj)
    if obj and "game" in obj:
        raise ScriptLineError("a set-up line (game and its set-up keys) may only be the first line")
    raise ScriptLineError(f"unknown key(s) {echoed(sorted(obj))} (expected scan, referee, or a first set-up line)")


def read_script(lines: Iterable[str], deck: Deck | None = None) -> Iterator[ScriptLine]:
    """Each non-blank line as an event, a set-up or an error, with its line number.

    The first line may set the game up; later lines are checked against that game's readers and
    pieces. A malformed set-up line is an error line that still names its game (with its defaults)
    when the game is known, so that the rest of the script is read as that game.
    """
    info = get_info(DEFAULT_GAME)
    setup: dict[str, Any] | None = None
    seen_content = False
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        first = not seen_content
        seen_content = True
        bad = next((i for i, c in enumerate(raw) if "\udc80" <= c <= "\udcff"), None)
        if bad is not None:  # a byte that is not UTF-8, kept by the reader as a surrogate escape
            yield ScriptLine(number, error=f"not UTF-8 text (byte 0x{ord(raw[bad]) - 0xDC00:02x} at column "
                                           f"{bad + 1}); save the script as UTF-8")
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            yield ScriptLine(number, error=f"not JSON: {exc.msg} at column {exc.colno}")
            continue
        except RecursionError:
            yield ScriptLine(number, error="not a script line: JSON nested too deeply")
            continue
        try:
            parsed = parse_line(obj, deck, info, setup, first)
        except ScriptLineError as exc:
            yield ScriptLine(number, error=str(exc))
            continue
        if isinstance(parsed, dict):
            try:
                info, setup = parse_setup_line(parsed)
            except SetupError as exc:
                game = parsed.get("game", DEFAULT_GAME)
                if isinstance(game, str) and game in game_ids():
                    info = get_info(game)
                    setup = {"game": info.id, **info.setup_defaults}
                yield ScriptLine(number, setup=setup, error=f"bad set-up: {exc}")
                continue
            yield ScriptLine(number, setup=setup)
        else:
            yield ScriptLine(number, event=parsed)


