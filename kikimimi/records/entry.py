"""A game's result typed by the Priest or read from a JSONL line, as the table's `Outcome`.

Until the live table plays the games, `kikimimi meeting start` takes each result from here:

- typed: players best first, by name or seat number, `:N` for the score, `*` after each winner of a
  shared win, and the marks of the game's ladder after a name (`Ladder.result_marks`, such as
  `!`): `Bob:3 Ann:12 Cid:40!`, `Ann:4* Bob:4* Cid:9 Dee:17`.
- JSONL: `{"ranking": ["Bob", "Ann", "Cid"], "scores": {"Ann": 12}}` (names or seat numbers; optional
  `winners` (a list), `scores` (or the ladder's word for them, `Ladder.score_name`), and the ladder's
  own result fields (`Ladder.result_fields`): a flag names its player, a number maps players to it).

A mark or flag becomes the outcome's per-seat detail `{name: {seat: true}}`, a number field
`{name: {seat: n}}`. Without a winner named, the first player wins unless the game's ladder says
otherwise (`Ladder.first_wins`). What the game's rules cannot give is refused as its ladder says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.games.base import Detail, Outcome
from kikimimi.games.ladder import AnyLadder
from kikimimi.records.names import name_key
from kikimimi.records.results import ResultError, results_from_outcome, seat_details


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


def _outcome(seat_players: Mapping[int, str], order: list[int], scores: dict[int, int],
             details: dict[str, dict[int, Any]], winners: list[int] | None, rules: AnyLadder | None) -> Outcome:
    if sorted(order) != sorted(set(order)):
        raise EntryError("a player is named twice; name each player once, best first")
    per_seat = [{name: facts[seat] for name, facts in details.items() if seat in facts} for seat in order]
    if winners is None:
        winners = order[:1] if rules is None or rules.first_wins(per_seat) else []
    if sorted(winners) != sorted(order[: len(winners)]) or len(set(winners)) != len(winners):
        raise EntryError("the winners come first, each once; put every winner before the others")
    outcome = Outcome(ranking=tuple(order), winners=tuple(winners), scores=scores,
                      details={name: facts for name, facts in details.items() if facts})
    try:
        results_from_outcome(seat_players, outcome, rules)  # what the game's rules cannot give
    except ResultError as exc:
        raise EntryError(str(exc).removeprefix("outcome: ")) from None
    return outcome


def parse_typed(text: str, seat_players: Mapping[int, str], rules: AnyLadder | None = None) -> Outcome:
    """`Bob:3 Ann:12 Cid:40!` (best first; `:score`, `*` for each of shared winners, the ladder's marks)."""
    marks: Mapping[str, str] = rules.result_marks if rules is not None else {}
    shown = "".join(re.escape(m) for m in marks)
    token_re = re.compile(rf"^(?P<who>[^:*{shown}]+?)(?::(?P<score>-?\d+))?(?P<won>\*)?(?P<marks>[{shown}]*)$"
                          if marks else r"^(?P<who>[^:*]+?)(?::(?P<score>-?\d+))?(?P<won>\*)?(?P<marks>)$")
    said = "".join(f", '{m}' {name}" for m, name in marks.items())
    tokens = text.replace(",", " ").split()
    if len(tokens) != len(seat_players):
        raise EntryError(
            f"name all {len(seat_players)} players best first, e.g. "
            + " ".join(seat_players.values())
            + f"  (':N' adds a score, '*' marks each winner of a shared win{said})"
        )
    order: list[int] = []
    scores: dict[int, int] = {}
    flags: dict[str, dict[int, Any]] = {name: {} for name in marks.values()}
    starred: list[int] = []
    for token in tokens:
        match = token_re.match(token)
        if not match:
            raise EntryError(f"cannot read {token!r}: write NAME, NAME:SCORE, '*' after a winner{said} after a name")
        seat = _seat(match["who"], seat_players)
        order.append(seat)
        if match["score"] is not None:
            scores[seat] = int(match["score"])
        if match["won"]:
            starred.append(seat)
        for mark in match["marks"]:
            flags[marks[mark]][seat] = True
    return _outcome(seat_players, order, scores, flags, starred or None, rules)


def parse_json_line(line: str, seat_players: Mapping[int, str], rules: AnyLadder | None = None) -> Outcome:
    """`{"ranking": [...], "winners": [...], "scores": {...}, ...the ladder's result fields}`."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EntryError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise EntryError("not a result: JSON nested too deeply") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("ranking"), list):
        raise EntryError('each line is an object with "ranking": [players best first]')
    fields: Mapping[str, type] = rules.result_fields if rules is not None else {}
    score_name = rules.score_name if rules is not None else ""
    unknown = set(raw) - {"ranking", "winners", "scores", "journal_game_id", *fields, *([score_name] if score_name
                                                                                          else [])}
    if unknown:
        raise EntryError(f"unknown field(s) {sorted(unknown)}")
    order = [_seat(who, seat_players) for who in raw["ranking"]]
    if len(order) != len(seat_players):
        raise EntryError(f"ranking must name all {len(seat_players)} players, got {len(order)}")

    def counts(name: str) -> dict[int, int]:
        given = raw.get(name) or {}
        if not isinstance(given, dict) or not all(isinstance(v, int) for v in given.values()):
            raise EntryError(f'"{name}" must map players to whole numbers, e.g. {{"Ann": 12}}')
        return {_seat(who, seat_players): value for who, value in given.items()}

    if "scores" in raw and score_name in raw:
        raise EntryError(f'give "scores" or the game\'s "{score_name}", not both')
    details: dict[str, dict[int, Any]] = {}
    for name, kind in fields.items():
        if raw.get(name) is None:
            continue
        details[name] = {_seat(raw[name], seat_players): True} if kind is bool else counts(name)
    winners = raw.get("winners")
    if winners is not None and not isinstance(winners, list):
        raise EntryError('"winners" is a list of players, e.g. ["Ann", "Bob"] for a shared win')
    return _outcome(seat_players, order, counts(score_name if score_name in raw else "scores"), details,
                    None if winners is None else [_seat(who, seat_players) for who in winners], rules)


def facts_said(outcome: Outcome, seat_players: Mapping[int, str], rules: AnyLadder | None) -> list[str]:
    """Each player's flags in a game (`Cid retired`): what a result's details hold true, by name."""
    own = rules.seat_details(outcome, sorted(seat_players)) if rules is not None else {}
    said = []
    for seat in outcome.ranking:
        facts: dict[str, Detail] = {**seat_details(outcome, seat), **own.get(seat, {})}
        said += [f"{seat_players[seat]} {name}" for name, value in facts.items() if value is True]
    return said


__all__: Sequence[str] = ("EntryError", "facts_said", "parse_json_line", "parse_typed")
