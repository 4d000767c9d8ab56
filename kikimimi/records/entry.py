"""A game's result typed by the Priest or read from a JSONL line, as the table's `Outcome`.

Until the live table plays the games, `kikimimi meeting start` takes each result from here:

- typed: players best first, by name or seat number, `:N` for the score (the Trident's points left
  in hand), `!` for the crash, `*` after each winner of a shared win: `Bob:3 Ann:12 Cid:40!`,
  `Ann:4* Bob:4* Cid:9 Dee:17`.
- JSONL: `{"ranking": ["Bob", "Ann", "Cid"], "crashed": "Cid", "points": {"Ann": 12}}` (names or
  seat numbers; optional `winners` (a list), `scores` (or the Trident's `points`), `crashed`,
  `pieces`).

Without a winner named, the first player wins, unless the game ended by a crash (the Trident's
outcome then names no winner, as nobody went out).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import Outcome
from kikimimi.records.names import name_key

_TOKEN = re.compile(r"^(?P<who>[^:!*]+?)(?::(?P<points>-?\d+))?(?P<won>\*)?(?P<crash>!)?$")


class EntryError(ValueError):
    """A result that does not read; the message says what was expected."""


def _seat(who: Any, seat_players: Mapping[int, str]) -> int:
    text = str(who).strip()
    if text.isdigit() and int(text) in seat_players:
        return int(text)
    for seat, name in seat_players.items():
        if name_key(name) == name_key(text):
            return seat
    names = ", ".join(f"{s}={n}" for s, n in seat_players.items())
    raise EntryError(f"{text!r} is not a player or seat of this meeting ({names})")


def _outcome(order: list[int], crashed: int | None, points: dict[int, int], pieces: dict[int, int],
             winners: list[int] | None = None) -> Outcome:
    if sorted(order) != sorted(set(order)):
        raise EntryError("a player is named twice; name each player once, best first")
    if crashed is not None and crashed != order[-1]:
        raise EntryError("the player who crashed is last; put them at the end")
    if winners is None:
        winners = [] if crashed is not None else order[:1]
    if sorted(winners) != sorted(order[: len(winners)]) or len(set(winners)) != len(winners):
        raise EntryError("the winners come first, each once; put every winner before the others")
    if crashed is not None and crashed in winners:
        raise EntryError("the player who crashed cannot also win")
    details: dict[str, object] = {"crashed": crashed} if crashed is not None else {}
    if pieces:
        details["pieces"] = pieces
    return Outcome(ranking=tuple(order), winners=tuple(winners), scores=points, details=details)


def parse_typed(text: str, seat_players: Mapping[int, str]) -> Outcome:
    """`Bob:3 Ann:12 Cid:40!` (best first; `:score`, `*` for each of shared winners, `!` for a crash)."""
    tokens = text.replace(",", " ").split()
    if len(tokens) != len(seat_players):
        raise EntryError(
            f"name all {len(seat_players)} players best first, e.g. "
            + " ".join(seat_players.values())
            + "!  (':N' adds a score, '*' marks each winner of a shared win, '!' the crash)"
        )
    order: list[int] = []
    crashed = None
    points: dict[int, int] = {}
    starred: list[int] = []
    for token in tokens:
        match = _TOKEN.match(token)
        if not match:
            raise EntryError(f"cannot read {token!r}: write NAME, NAME:SCORE, '*' after a winner, '!' after a crash")
        seat = _seat(match["who"], seat_players)
        order.append(seat)
        if match["points"] is not None:
            points[seat] = int(match["points"])
        if match["won"]:
            starred.append(seat)
        if match["crash"]:
            if crashed is not None:
                raise EntryError("only one player can crash in a game")
            crashed = seat
    return _outcome(order, crashed, points, {}, starred or None)


def parse_json_line(line: str, seat_players: Mapping[int, str]) -> Outcome:
    """`{"ranking": [...], "winners": [...], "scores": {...}, "crashed": ..., "pieces": {...}}`."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EntryError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise EntryError("not a result: JSON nested too deeply") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("ranking"), list):
        raise EntryError('each line is an object with "ranking": [players best first]')
    unknown = set(raw) - {"ranking", "winners", "scores", "crashed", "points", "pieces", "journal_game_id"}
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

    if "scores" in raw and "points" in raw:
        raise EntryError('give "scores" or the Trident\'s "points", not both')
    winners = raw.get("winners")
    if winners is not None and not isinstance(winners, list):
        raise EntryError('"winners" is a list of players, e.g. ["Ann", "Bob"] for a shared win')
    return _outcome(order, crashed, counts("scores" if "scores" in raw else "points"), counts("pieces"),
                    None if winners is None else [_seat(who, seat_players) for who in winners])
