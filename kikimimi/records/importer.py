"""Results from paper score sheets: a JSONL file, one line per game, checked whole before writing.

    {"meeting": "2024-05-12 club", "kind": "full", "date": "2024-05-12",
     "results": [{"player": "Ann", "place": 1}, {"player": "Bob", "place": 2},
                 {"player": "Cid", "place": 3, "score": 40}]}

Optional per line: `game` (its number in the meeting; else the order of the lines), `play` (the
registered game played, default the default game; one meeting is of one game), per result `seat`,
`score` (or the game's word for it, its ladder's `score_name`), `won` (true for each winner of a
shared win; without any, the 1st place wins unless the game's ladder says otherwise) and the
ladder's own result fields (`result_fields`, kept in the result's details); for a contest `winner`
(else the top of its standings). The lines of a
meeting may be anywhere in the file. A meeting whose label is already in the records is skipped, so
a sheet file can grow and be imported again. Nothing is written unless every line is right.
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from kikimimi.games.base import MAX_NUMBER
from kikimimi.games.ladder import AnyLadder
from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, get_info
from kikimimi.paths import not_utf8
from kikimimi.records.kinds import GAMES_PER_MEETING, MEETING_KINDS, ladder, ladder_games
from kikimimi.records.model import FinishedMeeting
from kikimimi.records.names import echoed, name_key
from kikimimi.records.repos.finished import add_finished
from kikimimi.records.results import PlayerResult, ResultError, check_results
from kikimimi.records.store import GameItem, RecordError, RecordStore, check_name


class SheetError(ValueError):
    """Lines that cannot be imported: every problem, each with its file and line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class SheetMeeting:
    label: str
    kind: str
    held_at: str
    first_line: int
    game: str = DEFAULT_GAME
    winner: str | None = None
    games: list[tuple[int | None, int, tuple[PlayerResult, ...]]] = field(default_factory=list)

    def ordered(self) -> list[tuple[PlayerResult, ...]]:
        # Numbered games by number; unnumbered ones keep their line order (sorted() is stable).
        return [g[2] for g in sorted(self.games, key=lambda g: g[0] if g[0] is not None else g[1])]

    @property
    def players(self) -> list[str]:
        return [r.player for r in sorted(self.games[0][2], key=lambda r: (r.seat or 0, r.place))]


@dataclass(frozen=True)
class ImportSummary:
    imported: list[int]  # new meeting ids
    skipped: list[str]  # labels already in the records
    new_players: list[str]
    changes: list[str]


def _held_at(value: Any) -> str:
    """A sheet's date or date and time, as the store's sortable UTC text."""
    if not isinstance(value, str):
        raise ValueError("`date` must be text like 2024-05-12 or 2024-05-12T19:30")
    moment = datetime.fromisoformat(value)
    # A time without a zone is the club's local time; the store keeps UTC so that text sorts by time.
    try:
        return moment.astimezone(UTC).isoformat(timespec="seconds")
    except (OverflowError, ValueError):  # 9999-12-31T23:00-05:00 is past the year 9999 in UTC
        raise ValueError(f"`date` {value!r} is out of range; give the meeting's real date") from None


def _int(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"`{name}` must be a whole number, got {echoed(value)}")
    if abs(value) > MAX_NUMBER:  # no game's figure: a database column would overflow
        raise ValueError(f"`{name}` must be a whole number from -{MAX_NUMBER} to {MAX_NUMBER}, got {echoed(value)}")
    return value


def _bool(raw: dict[str, Any], name: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise ValueError(f"`{name}` must be true or false, got {value!r}")
    return value


RESULT_FIELDS = ("player", "place", "seat", "score", "won")  # every game's; a ladder adds its own


def _own_fields(rules: AnyLadder | None) -> dict[str, type]:
    """A game's own result fields: its ladder's, and its word for the score (a whole number)."""
    if rules is None:
        return {}
    return {**({rules.score_name: int} if rules.score_name else {}), **rules.result_fields}


def _result(raw: Any, rules: AnyLadder | None) -> PlayerResult:
    if not isinstance(raw, dict):
        raise ValueError(f'each result is an object like {{"player": "Ann", "place": 1}}, got {raw!r}')
    own = _own_fields(rules)
    unknown = set(raw) - {*RESULT_FIELDS, *own}
    if unknown:
        raise ValueError(f"unknown result field(s) {sorted(unknown)}")
    if "player" not in raw or "place" not in raw:
        raise ValueError(f"a result needs `player` and `place`: {raw!r}")
    score_name = rules.score_name if rules is not None else ""
    if score_name and score_name in raw and "score" in raw:
        raise ValueError(f"give `score` or the game's `{score_name}`, not both")
    place = _int(raw["place"], "place")
    details: dict[str, Any] = {}
    for name, kind in (rules.result_fields if rules is not None else {}).items():
        value = _bool(raw, name) if kind is bool else _int(raw.get(name), name)
        if value is True or (kind is not bool and value is not None):  # a flag when true, a number when given
            details[name] = value
    return PlayerResult(
        player=check_name(str(raw["player"])),
        place=place if place is not None else 0,
        seat=_int(raw.get("seat"), "seat"),
        score=_int(raw.get("score", raw.get(score_name) if score_name else None), "score"),
        won=_bool(raw, "won"),
        details=details,
    )


def _results(raw: Any, rules: AnyLadder | None) -> tuple[PlayerResult, ...]:
    """A line's results; with no `won` given, the 1st place won unless the game's ladder says otherwise."""
    if not isinstance(raw, list):
        raise ValueError('`results` is a list like [{"player": "Ann", "place": 1}, ...]')
    results = tuple(_result(r, rules) for r in raw)
    given = any(isinstance(r, dict) and "won" in r for r in raw)
    if not given and (rules is None or rules.first_wins([r.details for r in results])):
        results = tuple(replace(r, won=r.place == 1) for r in results)
    return results


def _json_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """(line number, the line's JSON text) for each line that is not blank or a comment."""
    for number, line in enumerate(lines, start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line


def parse_sheets(lines: Iterable[str], source: str = "results") -> list[SheetMeeting]:
    """Every meeting in the JSONL lines, checked; raises SheetError listing every problem found."""
    return _parse_games(_json_lines(lines), source)


def _parse_games(games: Iterable[tuple[int, Any]], source: str) -> list[SheetMeeting]:
    """Every meeting of the games given as (line number, a game: its JSON text or its object)."""
    meetings: dict[str, SheetMeeting] = {}
    problems: list[str] = []
    for number, line in games:
        where = f"{source} line {number}"
        try:
            raw = json.loads(line) if isinstance(line, str) else line
            if not isinstance(raw, dict):
                raise ValueError("each line must be one JSON object")
            unknown = set(raw) - {"meeting", "kind", "date", "game", "play", "results", "winner"}
            if unknown:
                raise ValueError(f"unknown field(s) {sorted(unknown)}")
            label, kind = raw.get("meeting"), raw.get("kind")
            if not isinstance(label, str) or not label.strip():
                raise ValueError("`meeting` (the sheet's meeting id, as text) is missing")
            if kind not in MEETING_KINDS:
                raise ValueError(f"`kind` must be one of {', '.join(MEETING_KINDS)}, got {kind!r}")
            held_at = _held_at(raw.get("date"))
            play = raw.get("play", DEFAULT_GAME)
            if not isinstance(play, str):
                raise ValueError(f"`play` names a game, e.g. {DEFAULT_GAME!r}, got {play!r}")
            info = get_info(play)
            rules = ladder(info.id)
            results = _results(raw.get("results") or [], rules)
            check_results(results, where, rules)
            fewest, most = info.seats
            if results and not fewest <= len(results) <= most:
                raise ValueError(f"{info.id} is played by {fewest}..{most} players, the line has {len(results)}")
            winner = raw.get("winner")
            if winner is not None and kind != "contest":
                raise ValueError("only a contest has a `winner`")
            if winner is not None:
                if not isinstance(winner, str):
                    raise ValueError(f"`winner` names a player, e.g. \"Ann\", got {winner!r}")
                winner = check_name(winner)
            game_number = _int(raw.get("game"), "game")
        except RecursionError:
            problems.append(f"{where}: not a results line: JSON nested too deeply")
            continue
        except (ValueError, ResultError, RecordError, UnknownGame) as exc:  # JSONDecodeError is a ValueError
            message = str(exc)
            problems.append(message if message.startswith(where) else f"{where}: {message}")
            continue
        meeting = meetings.setdefault(label, SheetMeeting(label, kind, held_at, number, info.id))
        if (meeting.kind, meeting.held_at, meeting.game) != (kind, held_at, info.id):
            problems.append(
                f"{where}: meeting {label!r} was {meeting.kind} of {meeting.game} on {meeting.held_at} at line "
                f"{meeting.first_line}; one meeting has one game, one kind and one date"
            )
            continue
        if winner is not None:
            if meeting.winner not in (None, winner):
                problems.append(f"{where}: meeting {label!r} already names {meeting.winner!r} as winner")
            meeting.winner = winner
        meeting.games.append((game_number, number, results))
    for meeting in meetings.values():
        problems += _check_meeting(meeting, source)
    if problems:
        raise SheetError(problems)
    return list(meetings.values())


def _check_meeting(meeting: SheetMeeting, source: str) -> list[str]:
    where = f"{source}: meeting {meeting.label!r} (from line {meeting.first_line})"
    problems = []
    numbers = [g[0] for g in meeting.games if g[0] is not None]
    if numbers and (len(numbers) != len(meeting.games) or sorted(numbers) != list(range(1, len(numbers) + 1))):
        problems.append(f"{where}: game numbers must be 1..{len(meeting.games)} on every line or on none")
    roster = {name_key(r.player) for r in meeting.games[0][2]}
    for _, line, results in meeting.games:
        if {name_key(r.player) for r in results} != roster:
            problems.append(f"{source} line {line}: players differ from the meeting's first game")
    due = GAMES_PER_MEETING[meeting.kind]
    if due is not None and len(meeting.games) != due:
        problems.append(
            f"{where}: a {meeting.kind} trial has {due} games, the file has {len(meeting.games)} "
            "(an unfinished meeting does not count; leave it out)"
        )
    if meeting.winner is not None and name_key(meeting.winner) not in roster:
        problems.append(f"{where}: winner {meeting.winner!r} did not play in it")
    return problems


# A spreadsheet's columns: one row per player per game. The games of a meeting are told apart by `game`
# (its number in the meeting), so a CSV names it on every row.
# Beside these, the columns of the registered games' ladders' own result fields (`csv_columns()`).
CSV_COLUMNS = ("meeting", "kind", "date", "game", "play", "player", "place", "seat", "score", "won", "winner")
_CSV_REQUIRED = ("meeting", "kind", "date", "game", "player", "place")
_CSV_NUMBERS = ("game", "place", "seat", "score")
_CSV_YES = {"true": True, "yes": True, "y": True, "1": True, "x": True, "false": False, "no": False, "n": False,
            "0": False}


def _ladder_fields() -> dict[str, type]:
    """Every registered ladder's own result fields, by column name."""
    fields: dict[str, type] = {}
    for game in ladder_games():
        fields.update(_own_fields(ladder(game)))
    return fields


def csv_columns() -> tuple[str, ...]:
    """The columns a CSV sheet may have: every game's, then the ladders' own (before `won`, `winner`)."""
    return (*CSV_COLUMNS[:-2], *_ladder_fields(), *CSV_COLUMNS[-2:])


def _cell(column: str, value: str, own: Mapping[str, type]) -> Any:
    """A cell as the JSONL line would hold it: whole numbers, yes/no flags, else the text (checked later)."""
    value = value.strip()
    if (column in _CSV_NUMBERS or own.get(column) is int) and value.lstrip("-").isdigit():
        return int(value)
    if column == "won" or own.get(column) is bool:
        return _CSV_YES.get(value.lower(), value)
    return value


def parse_csv(text: str | Iterable[str], source: str = "results") -> list[SheetMeeting]:
    """Every meeting of a CSV score sheet (a spreadsheet's export: comma, semicolon or tab separated, a header
    row naming CSV_COLUMNS), one row per player per game; checked like the JSONL sheets. `text`: the sheet, or
    its lines as they are read (`sheet_lines`)."""
    lines = iter(text.splitlines() if isinstance(text, str) else text)
    first = next(lines, "")
    try:
        dialect: Any = csv.Sniffer().sniff(first, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(itertools.chain([first], lines), dialect)
    try:
        header = [h.strip().lower() for h in next(reader, [])]
    except csv.Error as exc:
        raise SheetError([f"{source} line 1: {exc}"]) from None
    own = _ladder_fields()
    columns = csv_columns()
    missing = [c for c in _CSV_REQUIRED if c not in header]
    unknown = [c for c in header if c and c not in columns]
    if missing or unknown:
        raise SheetError([f"{source} line 1: the header row needs the columns {', '.join(_CSV_REQUIRED)} "
                          f"(optional: {', '.join(c for c in columns if c not in _CSV_REQUIRED)})"
                          + (f"; missing {', '.join(missing)}" if missing else "")
                          + (f"; unknown {', '.join(unknown)}" if unknown else "")])
    games: dict[tuple[str, Any], tuple[int, dict[str, Any]]] = {}
    problems: list[str] = []
    for number, row in _rows(reader, source, problems):
        if not any(cell.strip() for cell in row) or row[0].lstrip().startswith("#"):
            continue
        if len(row) > len(header):
            problems.append(f"{source} line {number}: {len(row)} cells, the header names {len(header)}")
            continue
        cells = {column: _cell(column, value, own) for column, value in zip(header, row, strict=False)
                 if column and value.strip()}
        if not isinstance(cells.get("game"), int):
            problems.append(f"{source} line {number}: `game` must be the game's number in the meeting (1, 2, ...), "
                            f"got {cells.get('game', '')!r}")
            continue
        key = (str(cells.get("meeting", "")), cells["game"])
        first_line, game = games.setdefault(key, (number, {k: cells[k] for k in ("meeting", "kind", "date", "game",
                                                                            "play", "winner") if k in cells}))
        for column in ("kind", "date", "play", "winner"):
            if column in cells and game.setdefault(column, cells[column]) != cells[column]:
                problems.append(f"{source} line {number}: {column} {cells[column]!r} differs from line {first_line}'s "
                                f"{game[column]!r} for the same game")
        game.setdefault("results", []).append(
            {k: cells[k] for k in (*RESULT_FIELDS, *own) if k in cells})
    if problems:
        raise SheetError(problems)
    return _parse_games(((line, game) for line, game in games.values()), source)


MAX_LINE = 64 * 1024  # characters of one line of a sheet: a game's line is well under 1 KB


class _LineTooLong(Exception):
    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def sheet_lines(file: BinaryIO, source: object, limit: int = MAX_LINE) -> Iterator[str]:
    """A sheet's lines as they are read (never the whole file at once, nor more than `limit` bytes of a line),
    each decoded and without its line end; a longer line stops the read (`_LineTooLong`), a line that is not
    UTF-8 is a SheetError naming it."""
    number = 0
    while raw := file.readline(limit + 1):
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            raise _LineTooLong(number)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SheetError([not_utf8(f"{source}", exc).replace(f"{source}:1:", f"{source}:{number}:", 1)]) from None
        line = line.rstrip("\r\n")
        yield line.removeprefix("\ufeff") if number == 1 else line


def _rows(reader: Any, source: str, problems: list[str]) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of a CSV reader's rows after the header; a row the csv module refuses is a problem
    named by its line, and reading goes on."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append(f"{source} line {reader.line_num}: {exc}")
            continue
        yield reader.line_num, row


def _read_sheets(path: Path) -> list[SheetMeeting]:
    """Every meeting of a JSONL or CSV sheet file, read as a stream with a line-length limit."""
    try:
        with path.open("rb") as file:
            lines = sheet_lines(file, path)  # a spreadsheet's UTF-8 may start with a BOM: it is left out
            if path.suffix.lower() == ".csv":
                return parse_csv(lines, str(path))
            return parse_sheets(lines, str(path))
    except _LineTooLong as exc:
        raise SheetError([f"{path} line {exc.number}: longer than {MAX_LINE} characters; a sheet's line is one "
                          "game (check the file is a results sheet)"]) from None
    except OSError as exc:
        raise SheetError([f"cannot read {path}: {exc.strerror or exc}"]) from None


def import_results(store: RecordStore, path: str | Path, *, dry_run: bool = False) -> ImportSummary:
    """Check a whole results file, then add each new meeting, finished and settled, to the records: all in one
    transaction, so that a meeting the records refuse leaves nothing of the file behind (every refusal said,
    each with its line)."""
    path = Path(path)
    sheets = _read_sheets(path)
    imported: list[int] = []
    skipped: list[str] = []
    new_players: list[str] = []
    changes: list[str] = []
    problems: list[str] = []
    with contextlib.ExitStack() as stack:
        if not dry_run:
            stack.enter_context(store.transaction())
        labels = store.meetings.labels()  # read once the transaction holds the file: nobody adds one meanwhile
        fresh: list[SheetMeeting] = []
        for sheet in sorted(sheets, key=lambda s: (s.held_at, s.first_line)):
            if sheet.label in labels:
                skipped.append(sheet.label)
            else:
                fresh.append(sheet)
        if dry_run:
            for sheet in fresh:
                new_players += [p for p in sheet.players if store.players.find(p) is None and p not in new_players]
        else:
            at_once = _all_at_once(store, fresh)
            if at_once is not None:
                new_players, imported = at_once
            else:  # a meeting is refused: each meeting on its own, to say which ones and why
                for sheet in fresh:
                    new_players += [p for p in sheet.players
                                    if store.players.find(p) is None and p not in new_players]
                    try:
                        with store.savepoint():  # a refused meeting is undone alone: the others are still checked
                            meeting_id = store.meetings.start(sheet.kind, sheet.players, game=sheet.game,
                                                              label=sheet.label, held_at=sheet.held_at,
                                                              add_unknown=True)
                            for answer in store.games.record_many(meeting_id, _items(sheet)):
                                if isinstance(answer, RecordError):
                                    raise answer
                            store.meetings.settle(meeting_id, contest_winner=sheet.winner)
                    except (RecordError, ResultError) as exc:
                        problems.append(f"{path} line {sheet.first_line}: meeting {sheet.label!r}: {exc}")
                        continue
                    imported.append(meeting_id)
        if problems:  # leaving the block by the exception undoes every meeting of the file
            raise SheetError([*problems, f"{path}: nothing was imported; put the lines above right and import "
                                         "the file again"])
        # Derived once for the whole file (each player's ladder replayed once, not once per meeting).
        changes = [c.text() for found in store.ladder.changes_many(imported) for c in found]
    return ImportSummary(imported, skipped, new_players, changes)


def _items(sheet: SheetMeeting) -> list[GameItem]:
    return [GameItem(results) for results in sheet.ordered()]


def _all_at_once(store: RecordStore, sheets: Sequence[SheetMeeting]) -> tuple[list[str], list[int]] | None:
    """Every meeting added in a few statements (`add_finished`): the new players (as the sheets spell them
    first) and the meetings' ids; None, with nothing kept, when one of them is refused."""
    new_players: list[str] = []
    seen: set[str] = set()
    for sheet in sheets:
        for name in sheet.players:
            if name_key(name) not in seen and store.players.find(name) is None:
                new_players.append(name)
            seen.add(name_key(name))
    try:
        with store.savepoint():
            imported = add_finished(store, [
                FinishedMeeting(sheet.kind, sheet.players, sheet.game, sheet.label, sheet.held_at, _items(sheet),
                                sheet.winner)
                for sheet in sheets])
    except (RecordError, ResultError):
        return None
    return new_players, imported

