"""The journal: every accepted input event, appended to SQLite before it is applied.

WAL with synchronous FULL: an event whose append returned is on disk, whatever happens next (power
cut, SIGKILL). A restarted controller finds the unfinished game and replays its events through the
pure engine to the identical state. Undo is an event like any other, so replay needs nothing special.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi import sqlitefile
from kikimimi.games.base import Event, Outcome
from kikimimi.games.codec import event_from_json, event_to_json
from kikimimi.paths import folder_problem
from kikimimi.paths import private_file as private_file  # where the venue outbox takes it from

SCHEMA_VERSION = 1
_SCHEMA = [
    """CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        setup TEXT NOT NULL,          -- JSON: first player, rules
        started_at REAL NOT NULL,     -- wall clock, seconds since the epoch
        ended_at REAL,
        outcome TEXT                  -- JSON, when the game ended
    )""",
    """CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,         -- 1, 2, 3... within the game
        at REAL NOT NULL,             -- wall clock when accepted
        event TEXT NOT NULL,          -- JSON, as an event-script line
        PRIMARY KEY (game_id, seq)
    )""",
]


class JournalError(RuntimeError):
    """The journal file cannot be used; the message says which file and what to do."""


JOURNAL_TABLES = frozenset({"games", "events"})


def check_sqlite_file(path: Path, tables: frozenset[str], what: str) -> None:
    """Refuse, before anything touches it (its mode, a lock beside it, a table added), a file at `path` that is
    not `what` (a kikimimi journal, a venue outbox): a folder, a file that is not SQLite, or SQLite holding
    other tables. Asked through SQLite only (`kikimimi.sqlitefile`): the file may be live in this process."""
    try:
        contents = sqlitefile.inspect(path)
    except sqlitefile.NotSQLite as exc:
        raise JournalError(f"{what} {path}: {exc}, not a kikimimi {what}; nothing was changed: check the "
                           "path (--journal, or the table's `journal =` setting)") from None
    # None of its tables: another program's file (one with some of them is a damaged one of ours: said on opening)
    if contents is not None and contents.tables and not tables & contents.tables:
        shown = ", ".join(sorted(contents.tables)[:5])
        raise JournalError(f"{what} {path} is not a kikimimi {what} (it holds other tables: {shown}); nothing "
                           "was changed: check the path (--journal, or the table's `journal =` setting)")


def check_journal_file(path: Path) -> None:
    """A journal path that is a journal or nothing yet (see `check_sqlite_file`)."""
    check_sqlite_file(path, JOURNAL_TABLES, "journal")


@dataclass(frozen=True)
class JournaledGame:
    """One game as the journal holds it: its set-up, times, outcome and event count (a meeting's
    recorded game is the records' `GameRecord`)."""

    id: str
    game: str
    setup: dict[str, Any]
    started_at: float
    ended_at: float | None
    outcome: dict[str, Any] | None
    events: int
    number: int = 0  # 1, 2, 3... in the order the journal began them: the order of games, whatever the clock says


class Journal:
    """One SQLite file, written by one thread at a time (the table loop's once it runs)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        check_journal_file(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            private_file(self.path)
            # Opened on the caller's thread, written on the table loop's; one event at a time, never at once.
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self._migrate()
            tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except (OSError, sqlite3.DatabaseError) as exc:
            # A read-only folder or a file in the way is not a damaged journal: say which it is.
            problem = folder_problem(self.path.parent, exc if isinstance(exc, OSError) else None)
            if problem is None and self.path.exists() and not os.access(self.path, os.W_OK):
                problem = f"cannot write to {self.path}: permission denied"
            if problem is not None:
                raise JournalError(f"journal {self.path}: {problem}; check the path in the table's `journal =` "
                                   "setting") from None
            if isinstance(exc, OSError):
                raise JournalError(f"journal {self.path}: {exc.strerror or exc}; check the path in the table's "
                                   "`journal =` setting") from None
            raise self._damaged(exc) from None
        missing = [name for name in ("games", "events") if name not in tables]
        if missing:
            self.db.close()
            raise self._damaged(f"no {' or '.join(missing)} table")

    def _damaged(self, what: object) -> JournalError:
        return JournalError(f"journal {self.path} is damaged ({what}); move it aside (mv {self.path} "
                            f"{self.path}.damaged) and the table starts a new journal; its games stay in that file")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Rows of a query; a damaged page is a JournalError that says what to do."""
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None

    def _json(self, text: str | None, what: str) -> Any:
        try:
            return json.loads(text) if text else None
        except (ValueError, RecursionError):
            raise self._damaged(f"{what} is not JSON") from None

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"journal {self.path} was written by a newer kikimimi (schema {version})")
        if version == 0:
            with self.db:
                self.db.execute("BEGIN")
                for statement in _SCHEMA:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    # -- writing ---------------------------------------------------------------------------------

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """A change; a JournalError that says what to do when it cannot be written (a damaged page, a full disk)."""
        try:
            self.db.execute(sql, params)
        except sqlite3.OperationalError as exc:  # a full disk, an I/O error, a locked file: the file is sound
            raise JournalError(f"journal {self.path}: cannot write ({exc}); make room on its disk or check the "
                               "file, then start the table again") from None
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None

    def begin_game(self, game: str, setup: dict[str, Any]) -> str:
        game_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        self._write("INSERT INTO games (id, game, setup, started_at) VALUES (?, ?, ?, ?)",
                    (game_id, game, json.dumps(setup), time.time()))
        return game_id

    def append(self, game_id: str, seq: int, event: Event) -> None:
        """Durable before it returns (WAL + synchronous FULL, one transaction per event)."""
        self.db.execute("INSERT INTO events (game_id, seq, at, event) VALUES (?, ?, ?, ?)",
                        (game_id, seq, time.time(), json.dumps(event_to_json(event))))

    def finish(self, game_id: str, outcome: Outcome | None) -> None:
        data = None
        if outcome is not None:
            data = json.dumps(outcome.to_json())
        self._write("UPDATE games SET ended_at = ?, outcome = ? WHERE id = ?", (time.time(), data, game_id))

    # -- reading ---------------------------------------------------------------------------------

    def games(self) -> list[JournaledGame]:
        rows = self._read(
            "SELECT g.id, g.game, g.setup, g.started_at, g.ended_at, g.outcome, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id), g.rowid FROM games g ORDER BY g.rowid"
        )  # by the order begun, never by started_at: a Pi's clock may jump back (no real-time clock)
        return [JournaledGame(r[0], r[1], self._json(r[2], f"game {r[0]}'s set-up") or {}, r[3], r[4],
                           self._json(r[5], f"game {r[0]}'s outcome"), r[6], r[7]) for r in rows]

    def unfinished(self) -> JournaledGame | None:
        """The latest game that has not ended (the one to resume), if any."""
        open_games = [g for g in self.games() if g.ended_at is None]
        return open_games[-1] if open_games else None

    def events(self, game_id: str) -> Iterator[Event]:
        for seq, text in self._read("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)):
            obj = self._json(text, f"game {game_id} event {seq}")
            if not isinstance(obj, dict) or not ({"scan", "referee"} & set(obj)):
                raise self._damaged(f"game {game_id} event {seq} is not an event")
            yield event_from_json(obj)

    def game(self, game_id: str) -> JournaledGame | None:
        matches = [g for g in self.games() if g.id == game_id or g.id.startswith(game_id)]
        return matches[0] if len(matches) == 1 else None

    def last_seq(self, game_id: str) -> int:
        """The sequence number of a game's last event (0 for none): where the next one goes."""
        row = self._read("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))[0]
        return int(row[0] or 0)

    def export(self, game_id: str) -> Iterator[str]:
        """The game as an event script that `kikimimi replay` accepts."""
        record = self.game(game_id)
        if record is None:
            raise KeyError(game_id)
        yield json.dumps({"game": record.game, **record.setup})
        for seq, text in self._read("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (record.id,)):
            self._json(text, f"game {record.id} event {seq}")
            yield text
