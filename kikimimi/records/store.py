"""The records store: players, meetings, games and results in SQLite (embedded) or PostgreSQL.

Every registered game's results are kept (a meeting is of one game; each game and result names it).
Only results are stored; ranks and all a ladder counts are derived from them on every read by
the game's own ladder (the game class's `ladder`), from that game's results only. A meeting is `open` while
its games are played, `finished` once settled (only finished meetings count) or `abandoned` (kept,
never counted). A meeting may span several tables, each playing its own games (see `TableInfo`).

`RecordStore` is the unit of work: it opens the database and hands each repository a connection, one
transaction per call (or a part of the caller's `transaction`). The repositories, one per concern, are its
attributes: `store.players`, `store.meetings`, `store.tables` (a meeting's tables at a venue),
`store.games` (games and results), `store.ladder` (statuses, histories, a meeting's changes) and
`store.summaries`.

The database is a SQLite file (WAL, synchronous FULL) or a PostgreSQL server, named by a path or a
URL; the schema and its migrations are one for both (`kikimimi.records.schema`). Several processes
may write at once (a meeting's tables, each reporting its games): numbers are allocated under the
database's write lock and a journal game is unique per meeting.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from kikimimi import sqlitefile
from kikimimi.paths import folder_problem, private_file
from kikimimi.records import schema

# Light parts (names, where the records are) live apart so that the CLI loads without SQLAlchemy.
from kikimimi.records.location import DB_NAME as DB_NAME
from kikimimi.records.location import URL_ENV as URL_ENV
from kikimimi.records.location import default_db_path as default_db_path
from kikimimi.records.location import is_url, records_target
from kikimimi.records.model import MAX_ID as MAX_ID
from kikimimi.records.model import GameItem as GameItem
from kikimimi.records.model import MeetingInfo as MeetingInfo
from kikimimi.records.model import Player as Player
from kikimimi.records.model import Recorded as Recorded
from kikimimi.records.model import TableInfo as TableInfo
from kikimimi.records.model import table_sizes as table_sizes
from kikimimi.records.names import MAX_NAME as MAX_NAME
from kikimimi.records.names import RecordError as RecordError
from kikimimi.records.names import check_name as check_name
from kikimimi.records.names import printable as printable
from kikimimi.records.repos.games import GameRepository
from kikimimi.records.repos.ladder import LadderRepository
from kikimimi.records.repos.meetings import MeetingRepository
from kikimimi.records.repos.players import PlayerRepository
from kikimimi.records.repos.summaries import SummaryRepository
from kikimimi.records.repos.tables import TableRepository


def records_url(target: str | os.PathLike[str]) -> sa.URL:
    """A path or URL as the SQLAlchemy URL to open: a path is a SQLite file; `postgresql://` and
    `postgres://` use psycopg 3. Refuses other databases, saying which are known."""
    if not is_url(target):
        return sa.URL.create("sqlite", database=str(Path(target).expanduser()))
    try:
        url = sa.make_url(str(target))
    except (sa.exc.ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise schema.SchemaError(f"records URL {safe_url(str(target))} is not a database URL") from None
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg")
    if backend == "sqlite" and url.database:
        return url.set(drivername="sqlite")
    raise schema.SchemaError(
        f"records URL {shown_url(url)}: kikimimi keeps records in SQLite "
        "(a path, or sqlite:///path) or PostgreSQL (postgresql://user@host/db)"
    )


def shown_url(url: sa.URL) -> str:
    """A URL for messages and logs: its password hidden, in the user part and in the query (libpq takes a
    `?password=` too), and any other secret-looking query value (a `sslpassword`, a `passfile` path)."""
    query = {key: ("***" if any(word in key.lower() for word in ("pass", "secret", "token", "key")) else value)
             for key, value in url.query.items()}
    return url.set(query=query).render_as_string(hide_password=True)


def safe_url(text: str) -> str:
    """A URL for messages: its password hidden (see `shown_url`)."""
    try:
        return shown_url(sa.make_url(text))
    except (sa.exc.ArgumentError, ValueError):
        return text.split("@")[-1].split("?")[0] if "@" in text else text.split("?")[0]


def check_records_file(path: Path, create: bool) -> None:
    """Refuse, before anything touches it (its mode included), a file that is not a records database: not
    SQLite, or SQLite holding only other tables. An empty file (or an empty SQLite database) becomes
    records only when `create` (a command that creates records: `players add`, `meeting start`,
    `records import`): otherwise it is most likely a typo in --db. Asked through SQLite only: the file may
    be live in this process (a host opens a store per thread), see `kikimimi.sqlitefile`."""
    where = f"records database {path}"
    try:
        contents = sqlitefile.inspect(path)
    except sqlitefile.NotSQLite:
        if path.is_dir():
            raise schema.SchemaError(f"{where} is a folder, not a records database; nothing was changed: check "
                                     "--db") from None
        raise schema.SchemaError(f"{where} is not a kikimimi records database (not a SQLite file); "
                                 "nothing was changed: check --db") from None
    if contents is None and not create:  # nothing is created (no folder, no empty file) for a command that only reads
        raise schema.SchemaError(f"{where} does not exist: check --db, or create records there with a command that "
                                 "adds some (`kikimimi players add NAME`, `kikimimi meeting start`)")
    if contents is None or not contents.readable:
        return  # a new file is created; an unreadable one: opening it says why
    tables = contents.tables
    if tables and "alembic_version" not in tables and not (contents.user_version and "players" in tables):
        shown = ", ".join(sorted(tables)[:5])
        raise schema.SchemaError(f"{where} is not a kikimimi records database (it holds other tables: {shown}); "
                                 "nothing was changed: check --db")
    if not tables and not create:
        raise schema.SchemaError(f"{where} is an empty file, not a records database: check --db, or create "
                                 "records there with a command that adds some (`kikimimi players add NAME`, "
                                 "`kikimimi meeting start`, `kikimimi records import`)")


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    engine = sa.create_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling skips BEGIN before DDL; take it over (SQLAlchemy's
        # documented recipe) so a migration step is one transaction and writers can BEGIN IMMEDIATE.
        dbapi_connection.isolation_level = None
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _begin(connection: sa.Connection) -> None:
        # A writer takes the write lock first (waiting up to the timeout), so what it reads to
        # number a game is still true when it writes.
        write = connection.get_execution_options().get("records_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


class RecordStore:
    """The club's records in a SQLite file or a PostgreSQL database (`target`: a path or a URL;
    default: `records_target()`): the unit of work its repositories share. The store is safe to share
    between threads; close it when done."""

    def __init__(self, target: str | os.PathLike[str] | None = None, *, create: bool = True) -> None:
        """`create`: whether an existing empty file may become the records (see check_records_file)."""
        target = records_target(target)
        url = records_url(target)
        self.url = shown_url(url)
        self.path: Path | None = Path(url.database) if url.get_backend_name() == "sqlite" and url.database else None
        if self.path is not None:
            check_records_file(self.path, create)
            self._engine = self._open_sqlite(url, self.path)
        else:
            self._engine = self._open_server(url)
        self._pinned = threading.local()  # a thread's connection inside `transaction`
        self.players = PlayerRepository(self)
        self.meetings = MeetingRepository(self)
        self.tables = TableRepository(self)
        self.games = GameRepository(self)
        self.ladder = LadderRepository(self)
        self.summaries = SummaryRepository(self)

    def _open_sqlite(self, url: sa.URL, path: Path) -> sa.Engine:
        where = f"records database {path}"
        fix = "; set KIKIMIMI_DATA (or --db) to a folder you can write"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = folder_problem(path.parent, exc) or f"cannot create {path.parent}: {exc.strerror}"
            raise schema.SchemaError(f"{where}: {why}{fix}") from None
        # Owner only, whoever creates it (an admin's `sudo -u kikimimi ... players add` has umask 022);
        # a folder we cannot write is reported below, by what opening the database says.
        with contextlib.suppress(OSError):
            private_file(path)
        engine = _sqlite_engine(url)
        try:
            schema.migrate(engine, where=where)
        except sa.exc.DBAPIError as exc:
            engine.dispose()
            problem = folder_problem(path.parent)  # a read-only folder is not a damaged file
            if problem is None and path.exists() and not os.access(path, os.W_OK):
                problem = f"cannot write to {path}: permission denied"
            if problem is not None:
                raise schema.SchemaError(f"{where}: {problem}{fix}") from None
            if _disk_full(path.parent):
                raise schema.SchemaError(f"{where}: the disk holding {path.parent} is full: free some space on "
                                         "it, then start again (nothing recorded is lost)") from None
            raise schema.SchemaError(
                f"cannot open records database {path}: {exc.orig} (is it a kikimimi records file?)"
            ) from exc
        except schema.SchemaError:
            engine.dispose()
            raise
        return engine

    def _open_server(self, url: sa.URL) -> sa.Engine:
        # pre_ping: a host runs for a whole meeting; a connection the server dropped is replaced.
        engine = sa.create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 10})
        try:
            schema.migrate(engine, where=f"records database {self.url}")
        except sa.exc.DBAPIError as exc:
            engine.dispose()
            reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
            if isinstance(exc, sa.exc.OperationalError):
                raise schema.SchemaError(
                    f"cannot reach records database {self.url}: {reason}; check the URL (--db, ${URL_ENV} or the "
                    "table config's [records] url) and that the server is running"
                ) from None
            raise schema.SchemaError(
                f"records database {self.url}: {reason} (kikimimi creates its tables there: the user needs the "
                "right to, e.g. `createdb -O USER DATABASE`)"
            ) from None
        except schema.SchemaError:
            engine.dispose()
            raise
        return engine

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`."""
        return self._engine.dialect.name

    @property
    def schema_version(self) -> int:
        with self._engine.connect() as conn:
            return schema.version(conn)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Every read and change this thread makes in the block is one transaction (holding the write lock on
        SQLite): all of it is kept, or none when the block raises (`records import`: all or nothing)."""
        if getattr(self._pinned, "conn", None) is not None:
            yield  # already inside one
            return
        with self._engine.connect() as conn:
            conn.execution_options(records_write=True)
            with conn.begin():
                self._pinned.conn = conn
                self._pinned.players = {}  # name_key -> Player found in this transaction (its list cannot change)
                try:
                    yield
                finally:
                    self._pinned.conn = None
                    self._pinned.players = {}
        self.ladder.forget()  # what was read inside may have been undone

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Inside `transaction`: the block's changes undone alone when it raises (a SAVEPOINT)."""
        conn = getattr(self._pinned, "conn", None)
        if conn is None:
            raise RuntimeError("savepoint() is used inside transaction()")
        try:
            with conn.begin_nested():
                yield
        except BaseException:
            self._pinned.players = {}  # a player added in the undone block is gone again
            raise

    @contextmanager
    def reading(self) -> Iterator[sa.Connection]:
        """A connection to read in (this thread's, inside `transaction`)."""
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            yield pinned
            return
        with self._engine.connect() as conn:
            yield conn

    @contextmanager
    def writing(self) -> Iterator[sa.Connection]:
        """One transaction holding the database's write lock on SQLite (BEGIN IMMEDIATE); inside `transaction`,
        a part of that one."""
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            yield pinned
            return
        with self._engine.connect() as conn:
            conn.execution_options(records_write=True)
            with conn.begin():
                yield conn

    def players_found(self) -> dict[str, Player] | None:
        """Inside `transaction`: the players found by name so far (by `name_key`), kept for the rest of it;
        None outside one."""
        if getattr(self._pinned, "conn", None) is None:
            return None
        found: dict[str, Player] = self._pinned.players
        return found

    def forget_players(self) -> None:
        """Find players anew (one was changed)."""
        self._pinned.players = {}


def _disk_full(folder: Path) -> bool:
    """Whether the filesystem holding `folder` has no room left (SQLite says only "disk I/O error")."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < 64 * 1024
