"""A game's result typed by the Priest or read from a JSONL line, as the table's `Outcome`.

Until the live table plays the games, `kikimimi meeting start` takes each result from here:

- typed: players best first, by name or seat number, `:N` for points left in hand, `!` for the
  crash: `Bob:3 Ann:12 Cid:40!`
- JSONL: `{"ranking": ["Bob", "Ann", "Cid"], "crashed": "Cid", "points": {"Ann": 12}}` (names or
  seat numbers; `crashed`, `points`, `pieces` optional).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import Outcome

_TOKEN = re.compile(r"^(?P<who>[^:!]+?)(?::(?P<points>-?\d+))?(?P<crash>!)?$")


class EntryError(ValueError):
    """A result that does not read; the message says what was expected."""


def _seat(who: Any, seat_players: Mapping[int, str]) -> int:
    text = str(who).strip()
    if text.isdigit() and int(text) in seat_players:
        return int(text)
    for seat, name in seat_players.items():
        if name.casefold() == text.casefold():
            return seat
    names = ", ".join(f"{s}={n}" for s, n in seat_players.items())
    raise EntryError(f"{text!r} is not a player or seat of this meeting ({names})")


def _outcome(order: list[int], crashed: int | None, points: dict[int, int], pieces: dict[int, int]) -> Outcome:
    if sorted(order) != sorted(set(order)):
        raise EntryError("a player is named twice; name each player once, best first")
    if crashed is not None and crashed != order[-1]:
        raise EntryError("the player who crashed is last; put them at the end")
    return Outcome(ranking=tuple(order), winner=order[0], crashed=crashed, pieces=pieces, points=points)


def parse_typed(text: str, seat_players: Mapping[int, str]) -> Outcome:
    """`Bob:3 Ann:12 Cid:40!` (best first; `:points` and `!` for a crash optional)."""
    tokens = text.replace(",", " ").split()
    if len(tokens) != len(seat_players):
        raise EntryError(
            f"name all {len(seat_players)} players best first, e.g. "
            + " ".join(seat_players.values())
            + "!  (':N' adds points left in hand, '!' marks the crash)"
        )
    order: list[int] = []
    crashed = None
    points: dict[int, int] = {}
    for token in tokens:
        match = _TOKEN.match(token)
        if not match:
            raise EntryError(f"cannot read {token!r}: write NAME, NAME:POINTS, and '!' after a crash")
        seat = _seat(match["who"], seat_players)
        order.append(seat)
        if match["points"] is not None:
            points[seat] = int(match["points"])
        if match["crash"]:
            if crashed is not None:
                raise EntryError("only one player can crash in a game")
            crashed = seat
    return _outcome(order, crashed, points, {})


def parse_json_line(line: str, seat_players: Mapping[int, str]) -> Outcome:
    """`{"ranking": [...], "crashed": ..., "points": {...}, "pieces": {...}}`."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EntryError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("ranking"), list):
        raise EntryError('each line is an object with "ranking": [players best first]')
    unknown = set(raw) - {"ranking", "crashed", "points", "pieces", "journal_game_id"}
    if unknown:
        raise EntryError(f"unknown field(s) {sorted(unknown)}")
    order = [_seat(who, seat_players) for who in raw["ranking"]]
    if len(order) != len(seat_players):
        raise EntryError(f"ranking must name all {len(seat_players)} players, got {len(order)}")
    crashed = None if raw.get("crashed") is None else _seat(raw["crashed"], seat_players)

    def counts(name: str) -> dict[int, int]:
        given = raw.get(name) or {}
        if not isinstance(given, dict) or not all(isinstance(v, int) for v in given.values()):
            raise EntryError(f'"{name}" must map players to whole numbers, e.g. {{"Ann": 12}}')
        return {_seat(who, seat_players): value for who, value in given.items()}

    return _outcome(order, crashed, counts("points"), counts("pieces"))
