"""The records store: players, meetings, games and results in SQLite (WAL, synchronous FULL).

Every registered game's results are kept (a meeting is of one game; each game and result names it).
Only results are stored; ranks, peerage, streaks and crashes are derived from them on every read by
the game's own ladder (`GameInfo.ladder`), from that game's results only. A meeting is `open` while
its games are played, `finished` once settled (only finished meetings count) or `abandoned` (kept,
never counted).
"""

from __future__ import annotations

import json
import os
import sqlite3
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from kikimimi.games.base import Outcome
from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, get_info
from kikimimi.paths import folder_problem
from kikimimi.records import schema
from kikimimi.records.kinds import (
    GAMES_PER_MEETING,
    MEETING_KINDS,
    OFFICIAL_KINDS,
    TITLE_FORMS,
    default_ladder_game,
    ladder,
)
from kikimimi.records.results import (
    GameRecord,
    PlayerResult,
    ResultError,
    check_results,
    game_details,
    results_from_outcome,
)
from kikimimi.records.standings import standings

DB_NAME = "records.sqlite"
MAX_NAME = 40


class RecordError(ValueError):
    """A request the records cannot honour (unknown player, closed meeting, ...), saying how to fix it."""


def default_db_path() -> Path:
    """`$KIKIMIMI_DATA/records.sqlite`, else `~/.local/share/kikimimi/records.sqlite`."""
    folder = os.environ.get("KIKIMIMI_DATA")
    base = Path(folder).expanduser() if folder else Path.home() / ".local" / "share" / "kikimimi"
    return base / DB_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# Shown escaped, never sent: C0/C1 controls (an escape starts a terminal sequence), line and paragraph
# separators, and the bidi overrides and isolates (they reorder what follows on the line).
_UNSHOWN = {c for c in map(chr, range(0x2000, 0x2070)) if unicodedata.category(c) in ("Zl", "Zp")} | set(
    map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def printable(text: object) -> str:
    """Data (a name, a label, a message holding one) made safe for a terminal or the console: control
    characters and bidi overrides are written as escapes (`\\x1b`, `\\u202e`), never sent as they are.
    Markup is not this function's business: draw names with rich `Text`, never as markup."""
    s = str(text)
    if s.isascii() and s.isprintable():
        return s
    return "".join(
        (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        if unicodedata.category(c) == "Cc" or c in _UNSHOWN else c
        for c in s
    )


def check_name(name: str) -> str:
    """A player's name as stored: trimmed; refuses empty, over-long, names with a comma or a control
    character (a tab, a newline, an escape: names are printed on screens and spoken)."""
    control = next((c for c in str(name) if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        raise RecordError(
            f"player name {str(name)!r} holds a control character (U+{ord(control):04X}); "
            "use letters, digits, spaces and punctuation only"
        )
    clean = " ".join(str(name).split())
    if not clean:
        raise RecordError("a player's name cannot be empty")
    if "," in clean:
        raise RecordError(f"player name {clean!r} has a comma; commas separate names in --players")
    if len(clean) > MAX_NAME:
        raise RecordError(f"player name {clean[:20]!r}... is longer than {MAX_NAME} characters")
    return clean


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    title_form: str
    created_at: str


@dataclass(frozen=True)
class MeetingInfo:
    id: int
    label: str | None
    kind: str
    held_at: str
    status: str
    finished_at: str | None
    players: tuple[str, ...]
    games_played: int
    winner: str | None
    game: str = DEFAULT_GAME
    tables: int = 1

    @property
    def games_due(self) -> int | None:
        """Games a trial has at each of its tables (10 or 5); None for a contest."""
        return GAMES_PER_MEETING[self.kind]

    @property
    def official(self) -> bool:
        return self.kind in OFFICIAL_KINDS

    @property
    def order(self) -> tuple[str, int]:
        return (self.held_at, self.id)

    def describe(self) -> str:
        due = f"/{self.games_due * self.tables}" if self.games_due else ""
        label = f" {self.label!r}" if self.label else ""
        game = "" if self.game == DEFAULT_GAME else f"{self.game} "
        tables = f", {self.tables} tables" if self.tables > 1 else ""
        return f"meeting {self.id}{label} ({game}{self.kind}{tables}, {self.status}, {self.games_played}{due} games)"


@dataclass(frozen=True)
class TableInfo:
    """One table of a meeting: its players by seat, its games, who controls it and what it last said."""

    meeting_id: int
    table: int  # 1-based table number
    players: tuple[str, ...]  # in seat order: players[0] sits at seat 1
    games_played: int
    games_due: int | None  # a trial's games per table; None for a contest
    controller: str | None  # the name the table's controller joined with; None until one joins
    joined_at: str | None  # ISO 8601 UTC
    last_seen: str | None  # ISO 8601 UTC of the table's last state report
    state: dict[str, Any]  # the last state the table reported (opaque to the store)

    @property
    def seat_players(self) -> dict[int, str]:
        return {seat: name for seat, name in enumerate(self.players, start=1)}


def table_sizes(players: int, tables: int) -> list[int]:
    """Players dealt over tables as evenly as possible, the larger tables first (13 over 4: 4,3,3,3)."""
    base, extra = divmod(players, tables)
    return [base + 1 if t < extra else base for t in range(tables)]


class RecordStore:
    """The club's records in one SQLite file. One store per thread (sqlite3's own rule)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        fix = "; set KIKIMIMI_DATA (or --db) to a folder you can write"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            problem = folder_problem(self.path.parent, exc) or f"cannot create {self.path.parent}: {exc.strerror}"
            raise schema.SchemaError(f"records database {self.path}: {problem}{fix}") from None
        try:
            self._db = sqlite3.connect(self.path, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            schema.migrate(self._db, where=f"records database {self.path}")
        except sqlite3.DatabaseError as exc:
            problem = folder_problem(self.path.parent)  # a read-only folder is not a damaged file
            if problem is None and self.path.exists() and not os.access(self.path, os.W_OK):
                problem = f"cannot write to {self.path}: permission denied"
            if problem is not None:
                raise schema.SchemaError(f"records database {self.path}: {problem}{fix}") from None
            raise schema.SchemaError(
                f"cannot open records database {self.path}: {exc} (is it a kikimimi records file?)"
            ) from exc
        self._db.row_factory = sqlite3.Row

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return schema.version(self._db)

    # -- players ----------------------------------------------------------------------------------

    def add_player(self, name: str, title_form: str = "king") -> Player:
        name = check_name(name)
        if title_form not in TITLE_FORMS:
            raise RecordError(f"title form must be one of {', '.join(TITLE_FORMS)}, not {title_form!r}")
        try:
            with self._db:
                self._db.execute(
                    "INSERT INTO players (name, title_form, created_at) VALUES (?, ?, ?)",
                    (name, title_form, _now()),
                )
        except sqlite3.IntegrityError:
            raise RecordError(f"player {name!r} already exists (see `kikimimi players show {name}`)") from None
        return self.player(name)

    def set_title_form(self, name: str, title_form: str) -> Player:
        if title_form not in TITLE_FORMS:
            raise RecordError(f"title form must be one of {', '.join(TITLE_FORMS)}, not {title_form!r}")
        player = self.player(name)
        with self._db:
            self._db.execute("UPDATE players SET title_form = ? WHERE id = ?", (title_form, player.id))
        return self.player(name)

    def find_player(self, name: str) -> Player | None:
        row = self._db.execute(
            "SELECT id, name, title_form, created_at FROM players WHERE name = ?", (" ".join(name.split()),)
        ).fetchone()
        return Player(*row) if row else None

    def player(self, name: str) -> Player:
        found = self.find_player(name)
        if found is None:
            raise RecordError(f"no player named {name!r}; add them with `kikimimi players add {name}`")
        return found

    def players(self) -> list[Player]:
        rows = self._db.execute("SELECT id, name, title_form, created_at FROM players ORDER BY name")
        return [Player(*row) for row in rows]

    # -- meetings ---------------------------------------------------------------------------------

    def start_meeting(
        self,
        kind: str,
        players: Sequence[str],
        *,
        game: str = DEFAULT_GAME,
        label: str | None = None,
        held_at: str | None = None,
        add_unknown: bool = False,
        tables: int = 1,
    ) -> int:
        """Open a meeting of `kind` (full, half, contest) of `game` for `players`; returns its id.

        At one table the players sit in the order given (seat 1 first). Over several tables they are
        ordered by the game's seat-choice order (its ladder's `seat_order`; the order given for a game
        without a ladder) and dealt table by table: the first ones fill table 1, the next table 2, ...
        """
        if kind not in MEETING_KINDS:
            raise RecordError(f"meeting kind must be one of {', '.join(MEETING_KINDS)}, not {kind!r}")
        try:
            info = get_info(game)
        except UnknownGame as exc:
            raise RecordError(str(exc)) from None
        names = [check_name(n) for n in players]
        if len(names) < 2:
            raise RecordError(f"a meeting needs at least 2 players, got {len(names)}")
        if tables < 1:
            raise RecordError(f"a meeting needs at least one table, not {tables}")
        fewest, most = info.seats
        seats = str(fewest) if fewest == most else f"{fewest} to {most}"
        sizes = table_sizes(len(names), tables)
        if tables == 1 and not fewest <= len(names) <= most:
            raise RecordError(f"{info.id} is played by {seats} players, not {len(names)}")
        misfit = next((n for n in (sizes[-1], sizes[0]) if not fewest <= n <= most), None)
        if misfit is not None:
            raise RecordError(
                f"{len(names)} players at {tables} tables leaves tables of {misfit}; {info.id} seats {seats}"
            )
        if len({n.casefold() for n in names}) != len(names):
            raise RecordError(f"a player is listed twice in {names}")
        unknown = [n for n in names if self.find_player(n) is None]
        if unknown and not add_unknown:
            raise RecordError(
                f"unknown player(s) {', '.join(unknown)}: add them first with `kikimimi players add NAME`"
            )
        for name in unknown:
            self.add_player(name)
        if label is not None and self._meeting_by_label(label) is not None:
            raise RecordError(f"a meeting labelled {label!r} already exists")
        if tables > 1:
            names = self._seat_choice_order(names, info.id)
        ids = [self.player(n).id for n in names]
        placing = [(t, seat) for t, size in enumerate(sizes, start=1) for seat in range(1, size + 1)]
        with self._db:
            cur = self._db.execute(
                "INSERT INTO meetings (label, kind, held_at, game, tables) VALUES (?, ?, ?, ?, ?)",
                (label, kind, held_at or _now(), info.id, tables),
            )
            meeting_id = int(cur.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO meeting_players (meeting_id, player_id, position, table_no, seat) VALUES (?, ?, ?, ?, ?)",
                [(meeting_id, pid, i, t, seat) for i, (pid, (t, seat)) in enumerate(zip(ids, placing, strict=True))],
            )
            self._db.executemany(
                "INSERT INTO meeting_tables (meeting_id, table_no) VALUES (?, ?)",
                [(meeting_id, t) for t in range(1, tables + 1)],
            )
        return meeting_id

    def _seat_choice_order(self, names: Sequence[str], game: str) -> list[str]:
        """The players in the order they choose seats by the game's ladder (as given without one)."""
        rules = ladder(game)
        if rules is None:
            return list(names)
        statuses = self.ladder_statuses(game)
        ordered = rules.seat_order([statuses[self.player(n).name] for n in names])
        return [self.player(n).name for n in ordered]

    def _meeting_by_label(self, label: str) -> int | None:
        row = self._db.execute("SELECT id FROM meetings WHERE label = ?", (label,)).fetchone()
        return int(row[0]) if row else None

    def meeting_by_label(self, label: str) -> MeetingInfo | None:
        found = self._meeting_by_label(label)
        return self.meeting(found) if found is not None else None

    def meeting(self, meeting_id: int) -> MeetingInfo:
        row = self._db.execute(
            """SELECT m.id, m.label, m.kind, m.held_at, m.status, m.finished_at, w.name AS winner, m.game, m.tables,
                      (SELECT COUNT(*) FROM games g WHERE g.meeting_id = m.id) AS played
               FROM meetings m LEFT JOIN players w ON w.id = m.winner_id WHERE m.id = ?""",
            (meeting_id,),
        ).fetchone()
        if row is None:
            raise RecordError(f"no meeting {meeting_id} (see `kikimimi meeting list`)")
        names = tuple(
            r[0]
            for r in self._db.execute(
                """SELECT p.name FROM meeting_players mp JOIN players p ON p.id = mp.player_id
                   WHERE mp.meeting_id = ? ORDER BY mp.position""",
                (meeting_id,),
            )
        )
        return MeetingInfo(
            row["id"],
            row["label"],
            row["kind"],
            row["held_at"],
            row["status"],
            row["finished_at"],
            names,
            row["played"],
            row["winner"],
            row["game"] or DEFAULT_GAME,
            row["tables"],
        )

    def meeting_tables(self, meeting_id: int) -> list[TableInfo]:
        """Each table of a meeting: its players by seat, games played, controller and last state."""
        info = self.meeting(meeting_id)
        seated: dict[int, list[str]] = {}
        for row in self._db.execute(
            """SELECT mp.table_no, p.name FROM meeting_players mp JOIN players p ON p.id = mp.player_id
               WHERE mp.meeting_id = ? ORDER BY mp.table_no, mp.seat""",
            (meeting_id,),
        ):
            seated.setdefault(row[0], []).append(row[1])
        played = dict(
            self._db.execute(
                "SELECT table_no, COUNT(*) FROM games WHERE meeting_id = ? GROUP BY table_no", (meeting_id,)
            ).fetchall()
        )
        rows = self._db.execute(
            """SELECT table_no, controller, joined_at, last_seen, state FROM meeting_tables
               WHERE meeting_id = ? ORDER BY table_no""",
            (meeting_id,),
        ).fetchall()
        return [
            TableInfo(
                meeting_id,
                row["table_no"],
                tuple(seated.get(row["table_no"], ())),
                int(played.get(row["table_no"], 0)),
                info.games_due,
                row["controller"],
                row["joined_at"],
                row["last_seen"],
                json.loads(row["state"] or "{}"),
            )
            for row in rows
        ]

    def meeting_table(self, meeting_id: int, table: int) -> TableInfo:
        """One table of a meeting; refuses a table the meeting does not have."""
        found = self.meeting_tables(meeting_id)
        if not 1 <= table <= len(found):
            raise RecordError(f"meeting {meeting_id} has tables 1 to {len(found)}, not table {table}")
        return found[table - 1]

    def join_table(self, meeting_id: int, table: int, controller: str) -> TableInfo:
        """Record that `controller` runs `table` of an open meeting (joining again, as after a
        restart, just records it again)."""
        info = self._open(meeting_id)
        self.meeting_table(meeting_id, table)
        controller = " ".join(str(controller).split())
        if not controller or any(unicodedata.category(c) == "Cc" for c in controller):
            raise RecordError(f"a table's controller needs a printable name, not {controller!r}")
        now = _now()
        with self._db:
            self._db.execute(
                """UPDATE meeting_tables SET controller = ?, joined_at = ?, last_seen = ?
                   WHERE meeting_id = ? AND table_no = ?""",
                (controller, now, now, info.id, table),
            )
        return self.meeting_table(meeting_id, table)

    def report_table_state(self, meeting_id: int, table: int, state: Mapping[str, Any]) -> None:
        """Keep the state a table reported (what it plays now, its health); sets its last_seen."""
        self.meeting_table(meeting_id, table)
        try:
            text = json.dumps(dict(state), ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise RecordError(f"meeting {meeting_id} table {table}: its state is not plain data: {exc}") from None
        with self._db:
            self._db.execute(
                "UPDATE meeting_tables SET state = ?, last_seen = ? WHERE meeting_id = ? AND table_no = ?",
                (text, _now(), meeting_id, table),
            )

    def meetings(self, status: str | None = None) -> list[MeetingInfo]:
        query = "SELECT id FROM meetings" + (" WHERE status = ?" if status else "") + " ORDER BY held_at, id"
        return [self.meeting(r[0]) for r in self._db.execute(query, (status,) if status else ())]

    def current_meeting(self) -> MeetingInfo | None:
        """The latest open meeting (what the console shows), None when none is open."""
        opened = self.meetings("open")
        return opened[-1] if opened else None

    def _open(self, meeting_id: int) -> MeetingInfo:
        info = self.meeting(meeting_id)
        if info.status != "open":
            raise RecordError(f"{info.describe()} is {info.status}; its games cannot change")
        return info

    def record_game(
        self,
        meeting_id: int,
        seat_players: Mapping[int, str],
        outcome: Outcome,
        journal_game_id: str | None = None,
        table: int | None = None,
    ) -> None:
        """Record a finished game of an open meeting from the table's `Outcome` (of the meeting's game)."""
        try:
            results = results_from_outcome({s: check_name(n) for s, n in seat_players.items()}, outcome)
        except ResultError as exc:
            raise RecordError(f"meeting {meeting_id}: {exc}") from None
        self.record_results(meeting_id, results, journal_game_id=journal_game_id, reason=outcome.reason,
                            details=game_details(outcome), table=table)

    def _recorded(self, meeting_id: int, journal_game_id: str | None) -> int | None:
        if journal_game_id is None:
            return None
        again = self._db.execute(
            "SELECT number FROM games WHERE meeting_id = ? AND journal_game_id = ?", (meeting_id, journal_game_id)
        ).fetchone()
        return int(again[0]) if again is not None else None

    def record_results(
        self,
        meeting_id: int,
        results: Sequence[PlayerResult],
        *,
        journal_game_id: str | None = None,
        reason: str = "",
        details: Mapping[str, Any] | None = None,
        table: int | None = None,
    ) -> int:
        """Record one game's results (a paper sheet line or a table outcome); returns its number in
        the meeting (the order games arrived in, over all its tables).

        `table` is where it was played (None: the only table of a one-table meeting); the results'
        players must be that table's. The same journal game recorded again (a controller replaying its
        journal or outbox after a restart or a lost connection) is not a new game: its number is
        returned and nothing is written, also when two reports of it arrive at once.
        """
        again = self._recorded(meeting_id, journal_game_id)
        if again is not None:
            return again
        info = self._open(meeting_id)
        if table is None:
            if info.tables > 1:
                raise RecordError(
                    f"{info.describe()} is played at {info.tables} tables; say at which table this game was played"
                )
            table = 1
        seated = self.meeting_table(meeting_id, table)
        where = f"meeting {meeting_id} table {table} game {seated.games_played + 1}"
        if info.tables == 1:
            where = f"meeting {meeting_id} game {info.games_played + 1}"
        try:
            check_results(results, where)
        except ResultError as exc:
            raise RecordError(str(exc)) from None
        playing = {check_name(r.player).casefold() for r in results}
        members = {n.casefold() for n in seated.players}
        if playing != members:
            whose = "meeting's" if info.tables == 1 else f"table {table}'s"
            raise RecordError(
                f"{where}: players {sorted(r.player for r in results)} are not the {whose} "
                f"players {list(seated.players)}"
            )
        try:
            game_json = json.dumps(dict(details or {}), ensure_ascii=False, sort_keys=True)
            result_json = [json.dumps(dict(r.details), ensure_ascii=False, sort_keys=True) for r in results]
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{where}: the game's details are not plain data: {exc}") from None
        player_ids = [self.player(r.player).id for r in results]
        try:
            return self._insert_game(info, table, journal_game_id, reason, game_json, results, player_ids,
                                     result_json)
        except sqlite3.IntegrityError:
            # Another writer recorded the same journal game between our check and our insert.
            again = self._recorded(meeting_id, journal_game_id)
            if again is None:
                raise
            return again

    def _insert_game(
        self,
        info: MeetingInfo,
        table: int,
        journal_game_id: str | None,
        reason: str,
        game_json: str,
        results: Sequence[PlayerResult],
        player_ids: Sequence[int],
        result_json: Sequence[str],
    ) -> int:
        """Insert a game with the next number of the meeting and the next round of its table. The
        write lock is taken first (BEGIN IMMEDIATE) so the numbers and the count of a trial's games
        are read and written by one writer at a time."""
        db = self._db
        if db.in_transaction:
            db.commit()
        db.execute("BEGIN IMMEDIATE")
        try:
            status, number, played = db.execute(
                """SELECT m.status, COALESCE(MAX(g.number), 0),
                          SUM(CASE WHEN g.table_no = ? THEN 1 ELSE 0 END)
                   FROM meetings m LEFT JOIN games g ON g.meeting_id = m.id WHERE m.id = ?""",
                (table, info.id),
            ).fetchone()
            played = int(played or 0)
            if status != "open":
                raise RecordError(f"meeting {info.id} is {status}; its games cannot change")
            if info.games_due is not None and played >= info.games_due:
                if info.tables == 1:
                    raise RecordError(f"{info.describe()} has all its games; finish it with `kikimimi meeting finish`")
                raise RecordError(f"{info.describe()}: table {table} has played all its {info.games_due} games")
            cur = db.execute(
                """INSERT INTO games (meeting_id, number, table_no, round, journal_game_id, reason, recorded_at,
                                      game, details)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (info.id, number + 1, table, played + 1, journal_game_id, reason, _now(), info.game, game_json),
            )
            db.executemany(
                """INSERT INTO results (game_id, player_id, seat, place, crashed, score, won, details)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                [
                    (cur.lastrowid, pid, r.seat, r.place, int(r.crashed), r.score, int(r.won), d)
                    for r, pid, d in zip(results, player_ids, result_json, strict=True)
                ],
            )
        except BaseException:
            db.rollback()
            raise
        db.commit()
        return int(number + 1)

    def games(self, meeting_id: int) -> list[GameRecord]:
        """A meeting's games in the order played, each with every player's result best first."""
        rows = self._db.execute(
            """SELECT g.id, g.number, g.journal_game_id, g.reason, g.game, g.details AS game_details, p.name,
                      r.seat, r.place, r.crashed, r.score, r.won, r.details
               FROM games g JOIN results r ON r.game_id = g.id JOIN players p ON p.id = r.player_id
               WHERE g.meeting_id = ? ORDER BY g.number, r.place""",
            (meeting_id,),
        ).fetchall()
        games: dict[int, GameRecord] = {}
        for row in rows:
            result = PlayerResult(
                row["name"], row["place"], bool(row["crashed"]), row["seat"], row["score"], bool(row["won"]),
                _seat_keys(json.loads(row["details"] or "{}")),
            )
            old = games.get(row["number"])
            games[row["number"]] = GameRecord(
                row["number"],
                (*old.results, result) if old else (result,),
                row["journal_game_id"],
                row["reason"],
                row["game"] or DEFAULT_GAME,
                json.loads(row["game_details"] or "{}"),
            )
        return list(games.values())

    def contest_winner(self, meeting_id: int) -> str:
        """The contest's winner by its standings; refuses a tie at the top (name the winner instead)."""
        info = self.meeting(meeting_id)
        table = standings(self.games(meeting_id), info.players, ladder(info.game))
        top = [s.player for s in table if s.position == 1]
        if not table or table[0].games == 0:
            raise RecordError(f"{info.describe()} has no games; name its winner (--winner NAME)")
        if len(top) > 1:
            raise RecordError(
                f"{info.describe()}: {', '.join(top)} are level at the top of its standings; "
                "name the winner (--winner NAME)"
            )
        return top[0]

    def finish_meeting(self, meeting_id: int, *, contest_winner: str | None = None) -> list[Any]:
        """Close an open meeting and settle it; returns every rank and peerage change it brought (the
        ladder's `Change`s; none for a game without a ladder).

        A trial must have all its games (10 or 5). A contest's winner is `contest_winner`, else the
        unique top of its standings.
        """
        info = self._open(meeting_id)
        winner_id = None
        if info.games_due is not None:
            short = [t.table for t in self.meeting_tables(meeting_id) if t.games_played != info.games_due]
            if short and info.tables > 1:
                raise RecordError(
                    f"{info.describe()} is not complete: table(s) {', '.join(map(str, short))} have not played "
                    f"their {info.games_due} games; play them or abandon the meeting "
                    f"(`kikimimi meeting abandon {meeting_id}`: abandoned meetings do not count)"
                )
            if short:
                raise RecordError(
                    f"{info.describe()} is not complete; play its remaining games or abandon it "
                    f"(`kikimimi meeting abandon {meeting_id}`: abandoned meetings do not count)"
                )
            if contest_winner is not None:
                raise RecordError(f"{info.describe()} is a trial; only a contest has a winner")
        else:
            name = contest_winner if contest_winner is not None else self.contest_winner(meeting_id)
            if name.casefold() not in {n.casefold() for n in info.players}:
                raise RecordError(
                    f"{name!r} did not play in {info.describe()}; the winner must be one of {', '.join(info.players)}"
                )
            winner_id = self.player(name).id
        with self._db:
            self._db.execute(
                "UPDATE meetings SET status = 'finished', finished_at = ?, winner_id = ? WHERE id = ?",
                (_now(), winner_id, meeting_id),
            )
        return self.meeting_changes(meeting_id)

    def abandon_meeting(self, meeting_id: int) -> None:
        """Keep an unfinished meeting's games but never count them."""
        self._open(meeting_id)
        with self._db:
            self._db.execute(
                "UPDATE meetings SET status = 'abandoned', finished_at = ? WHERE id = ?", (_now(), meeting_id)
            )

    # -- derived ----------------------------------------------------------------------------------

    def _ladder(self, game: str | None) -> tuple[str, ModuleType]:
        if game is None:
            game = default_ladder_game()
        found = ladder(game)
        if found is None:
            raise RecordError(f"{game} keeps no ranks; its results are in `kikimimi meeting show`")
        return game, found

    def history(self, name: str, game: str | None = None) -> list[Any]:
        """A player's finished meetings of `game` (default: the ladder game), in the order held, as
        that game's ladder reads them (its `MeetingResult`s). Other games' results never enter."""
        game, rules = self._ladder(game)
        player = self.player(name)
        rows = self._db.execute(
            """SELECT m.id, m.kind, m.held_at, m.winner_id, r.place, r.crashed, r.won
               FROM meeting_players mp JOIN meetings m ON m.id = mp.meeting_id
               LEFT JOIN games g ON g.meeting_id = m.id AND g.game = m.game
               LEFT JOIN results r ON r.game_id = g.id AND r.player_id = mp.player_id
               WHERE mp.player_id = ? AND m.status = 'finished' AND m.game = ?
               ORDER BY m.held_at, m.id, g.table_no, g.round""",
            (player.id, game),
        ).fetchall()
        meetings: dict[int, tuple[str, str, bool, list[Any]]] = {}
        for row in rows:
            entry = meetings.setdefault(row["id"], (row["kind"], row["held_at"], row["winner_id"] == player.id, []))
            if row["place"] is not None:
                entry[3].append(rules.GameResult(row["place"], bool(row["crashed"])))
        return [
            rules.MeetingResult(mid, kind, tuple(games), (held_at, mid), won)
            for mid, (kind, held_at, won, games) in meetings.items()
        ]

    def replay(self, name: str, game: str | None = None) -> Any:
        """The game's ladder replayed over the player's results of that game: `.status`, `.changes`."""
        game, rules = self._ladder(game)
        player = self.player(name)
        return rules.replay(self.history(player.name, game), name=player.name, title_form=player.title_form)

    def status(self, name: str, game: str | None = None) -> Any:
        """Where the player stands on the game's ladder (default: the ladder game, the Trident's)."""
        return self.replay(name, game).status

    def statuses(self, names: Iterable[str], game: str | None = None) -> list[Any]:
        return [self.status(n, game) for n in names]

    def ladder_statuses(self, game: str | None = None) -> dict[str, Any]:
        """Every player's status on the game's ladder (default: the ladder game), by name."""
        game, _ = self._ladder(game)
        return {p.name: self.status(p.name, game) for p in self.players()}

    def meeting_changes(self, meeting_id: int) -> list[Any]:
        """The changes a finished meeting brought, derived again from the results (none for a game
        without a ladder)."""
        info = self.meeting(meeting_id)
        if ladder(info.game) is None:
            return []
        return [c for name in info.players for c in self.replay(name, info.game).changes_in(meeting_id)]

    def played(self, name: str) -> dict[str, tuple[int, int]]:
        """Every game a player has results in: game id -> (games, wins), finished meetings only."""
        player = self.player(name)
        rows = self._db.execute(
            """SELECT g.game, COUNT(*), SUM(r.won) FROM results r JOIN games g ON g.id = r.game_id
               JOIN meetings m ON m.id = g.meeting_id
               WHERE r.player_id = ? AND m.status = 'finished' GROUP BY g.game ORDER BY g.game""",
            (player.id,),
        )
        return {row[0]: (int(row[1]), int(row[2] or 0)) for row in rows}


def _seat_keys(value: Any) -> Any:
    """JSON's string keys back to seat numbers where a detail is kept per seat."""
    if isinstance(value, dict):
        return {int(k) if isinstance(k, str) and k.isdigit() else k: _seat_keys(v) for k, v in value.items()}
    return value
