"""What a file holds, asked through SQLite itself: the records file, a table's journal, its venue outbox.

A live SQLite file is never opened with plain Python (`open()`, `os.open`): POSIX drops every lock a
process holds on a file when it closes *any* descriptor of that file, so a plain open-and-close in a
process that also writes the database (the host opens one store per thread) silently lets another
process (`kikimimi meeting show`, a backup) take the file as unused, checkpoint it and delete the WAL the
writer is still appending to: confirmed results are lost when the writer dies. SQLite's own connections
share one descriptor per file within a process and never drop each other's locks.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

SQLITE_NOTADB = 26  # "file is not a database": the header is not SQLite's


class NotSQLite(ValueError):
    """The file exists and is not a SQLite database."""


@dataclass(frozen=True)
class Contents:
    """A SQLite file's tables and `user_version`; `readable` is False when SQLite could not read it
    (a damaged page, a folder it may not enter): opening it for real then says why."""

    tables: frozenset[str]
    user_version: int
    readable: bool = True

    @property
    def empty(self) -> bool:
        return self.readable and not self.tables


def inspect(path: Path) -> Contents | None:
    """What the SQLite file at `path` holds; None when there is no file (a new one would be created).
    NotSQLite when it exists and is something else (text, an image, a folder). Read-only and through
    SQLite, so it may be called while the file is live in this very process."""
    if not path.exists():
        return None
    if path.is_dir():
        raise NotSQLite(f"{path} is a folder")
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            tables = frozenset(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", None) == SQLITE_NOTADB:
            raise NotSQLite(f"{path} is not a SQLite file") from None
        return Contents(frozenset(), 0, readable=False)
    except sqlite3.Error:
        return Contents(frozenset(), 0, readable=False)
    return Contents(tables, version)
