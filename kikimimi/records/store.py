"""The records store: players, meetings, games and results in SQLite (embedded) or PostgreSQL.

Every registered game's results are kept (a meeting is of one game; each game and result names it).
Only results are stored; ranks and all a ladder counts are derived from them on every read by
the game's own ladder (the game class's `ladder`), from that game's results only. A meeting is `open` while
its games are played, `finished` once settled (only finished meetings count) or `abandoned` (kept,
never counted). A meeting may span several tables, each playing its own games (see `TableInfo`).

The database is a SQLite file (WAL, synchronous FULL) or a PostgreSQL server, named by a path or a
URL; the schema and its migrations are one for both (`kikimimi.records.schema`). Several processes
may write at once (a meeting's tables, each reporting its games): numbers are allocated under the
database's write lock and a journal game is unique per meeting.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from kikimimi import sqlitefile
from kikimimi.games.base import Outcome
from kikimimi.games.ladder import AnyLadder
from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, get_info
from kikimimi.paths import folder_problem, private_file
from kikimimi.records import schema
from kikimimi.records.kinds import (
    GAMES_PER_MEETING,
    MEETING_KINDS,
    OFFICIAL_KINDS,
    default_ladder_game,
    ladder,
    title_forms,
)

# Light parts (names, where the records are) live apart so that the CLI loads without SQLAlchemy.
from kikimimi.records.location import DB_NAME as DB_NAME
from kikimimi.records.location import URL_ENV as URL_ENV
from kikimimi.records.location import default_db_path as default_db_path
from kikimimi.records.location import is_url, records_target
from kikimimi.records.names import MAX_NAME as MAX_NAME
from kikimimi.records.names import RecordError, check_name, name_key, unshown_character
from kikimimi.records.names import printable as printable
from kikimimi.records.results import (
    GameRecord,
    PlayerResult,
    ResultError,
    check_results,
    game_details,
    results_from_outcome,
)
from kikimimi.records.schema import games as G
from kikimimi.records.schema import meeting_players as MP
from kikimimi.records.schema import meeting_summaries as S
from kikimimi.records.schema import meeting_tables as MT
from kikimimi.records.schema import meetings as M
from kikimimi.records.schema import players as P
from kikimimi.records.schema import results as R
from kikimimi.records.standings import standings

log = logging.getLogger(__name__)

MAX_ID = 2**31 - 1  # the largest row id every store holds (PostgreSQL's integer): a larger one names nothing


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


def _check_title_form(title_form: str | None) -> str:
    """A title form the ladders know (None: their default); RecordError naming them otherwise."""
    known = title_forms()
    if title_form is None:
        return known[0]
    if title_form not in known:
        raise RecordError(f"title form must be one of {', '.join(known)}, not {title_form!r}")
    return title_form


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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


@dataclass(frozen=True)
class GameItem:
    """One game to record with `RecordStore.record_many` (the arguments of `record_results`)."""

    results: Sequence[PlayerResult]
    journal_game_id: str | None = None
    reason: str = ""
    details: Mapping[str, Any] | None = None
    table: int | None = None


@dataclass(frozen=True)
class Recorded:
    """A game `record_many` recorded, or found already recorded (`duplicate`): its number in the
    meeting and its round at its table."""

    number: int
    round: int
    duplicate: bool = False


def table_sizes(players: int, tables: int) -> list[int]:
    """Players dealt over tables as evenly as possible, the larger tables first (13 over 4: 4,3,3,3)."""
    base, extra = divmod(players, tables)
    return [base + 1 if t < extra else base for t in range(tables)]


class RecordStore:
    """The club's records in a SQLite file or a PostgreSQL database (`target`: a path or a URL;
    default: `records_target()`). The store is safe to share between threads; close it when done."""

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
        self._histories: dict[str, _Histories] = {}  # by game: what ladder_statuses read before
        self._histories_lock = threading.Lock()
        self._pinned = threading.local()  # a thread's connection inside `transaction`

    def _open_sqlite(self, url: sa.URL, path: Path) -> sa.Engine:
        where = f"records database {path}"
        fix = "; set KIKIMIMI_DATA (or --db) to a folder you can write"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            problem = folder_problem(path.parent, exc) or f"cannot create {path.parent}: {exc.strerror}"
            raise schema.SchemaError(f"{where}: {problem}{fix}") from None
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
        with self._histories_lock:
            self._histories.clear()  # what was read inside may have been undone

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
    def _read(self) -> Iterator[sa.Connection]:
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            yield pinned
            return
        with self._engine.connect() as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
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

    def _name_is(self, name: str) -> sa.ColumnElement[bool]:
        """A player's name matched regardless of case: SQLite's NOCASE column, PostgreSQL's lower()."""
        if self.dialect == "sqlite":
            return P.c.name == name
        return sa.func.lower(P.c.name) == sa.func.lower(name)

    # -- players ----------------------------------------------------------------------------------

    def add_player(self, name: str, title_form: str | None = None) -> Player:
        """A new player, addressed in `title_form` (one of the ladders' `title_forms()`; None: the first)."""
        name = check_name(name)
        title_form = _check_title_form(title_form)
        same = self.find_player(name)
        if same is not None:
            raise RecordError(f"player {name!r} already exists as {same.name!r} "
                              f"(see `kikimimi players show {same.name}`)")
        try:
            with self._write() as conn:
                conn.execute(P.insert().values(name=name, title_form=title_form, created_at=_now()))
        except sa.exc.IntegrityError:
            raise RecordError(f"player {name!r} already exists (see `kikimimi players show {name}`)") from None
        return self.player(name)

    def set_title_form(self, name: str, title_form: str) -> Player:
        title_form = _check_title_form(title_form)
        player = self.player(name)
        with self._write() as conn:
            conn.execute(P.update().where(P.c.id == player.id).values(title_form=title_form))
        self._pinned.players = {}
        return self.player(name)

    def find_player(self, name: str) -> Player | None:
        """The player of that name, compared as `name_key` does (case, spaces, NFKC: "ＡＮＮ" is Ann)."""
        known = getattr(self._pinned, "players", None) if getattr(self._pinned, "conn", None) is not None else None
        if known is not None and (hit := known.get(name_key(name))) is not None:
            return hit  # inside one transaction nobody else changes the list (`records import` asks thousands)
        columns = (P.c.id, P.c.name, P.c.title_form, P.c.created_at)
        with self._read() as conn:
            row = conn.execute(sa.select(*columns).where(self._name_is(" ".join(name.split())))).first()
            if row is None:  # the database's case folding knows no NFKC: the club's list is read (it is short)
                key = name_key(name)
                row = next((r for r in conn.execute(sa.select(*columns).order_by(P.c.id)) if name_key(r.name) == key),
                           None)
        if row is None:
            return None
        found = Player(*row)
        if known is not None:
            known[name_key(name)] = found
        return found

    def player(self, name: str) -> Player:
        found = self.find_player(name)
        if found is None:
            raise RecordError(f"no player named {name!r}; add them with `kikimimi players add {name}`")
        return found

    def players(self) -> list[Player]:
        with self._read() as conn:
            rows = conn.execute(sa.select(P.c.id, P.c.name, P.c.title_form, P.c.created_at)
                                .order_by(sa.func.lower(P.c.name), P.c.id))
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
        if len({name_key(n) for n in names}) != len(names):
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
        names = [self.player(n).name for n in names]  # as the club's list spells them
        placing = [(t, seat) for t, size in enumerate(sizes, start=1) for seat in range(1, size + 1)]
        with self._write() as conn:
            meeting_id = int(conn.execute(
                M.insert().values(label=label, kind=kind, held_at=held_at or _now(), game=info.id, tables=tables,
                                  status="open").returning(M.c.id)
            ).scalar_one())
            conn.execute(MP.insert(), [
                {"meeting_id": meeting_id, "player_id": pid, "position": i, "table_no": t, "seat": seat}
                for i, (pid, (t, seat)) in enumerate(zip(ids, placing, strict=True))
            ])
            conn.execute(MT.insert(), [
                {"meeting_id": meeting_id, "table_no": t, "state": "{}"} for t in range(1, tables + 1)
            ])
        return meeting_id

    def _seat_choice_order(self, names: Sequence[str], game: str) -> list[str]:
        """The players in the order they choose seats by the game's ladder (as given without one)."""
        rules = ladder(game)
        canonical = [self.player(n).name for n in names]
        if rules is None:
            return canonical
        statuses = self.ladder_statuses(game, canonical)
        return list(rules.seat_order([statuses[n] for n in canonical]))

    def _meeting_by_label(self, label: str) -> int | None:
        with self._read() as conn:
            found = conn.execute(sa.select(M.c.id).where(M.c.label == label)).scalar()
        return int(found) if found is not None else None

    def meeting_labels(self) -> set[str]:
        """Every meeting's label (one read, for `records import`'s thousands of sheets)."""
        with self._read() as conn:
            return {label for label in conn.execute(sa.select(M.c.label).where(M.c.label.is_not(None))).scalars()}

    def meeting_by_label(self, label: str) -> MeetingInfo | None:
        found = self._meeting_by_label(label)
        return self.meeting(found) if found is not None else None

    def meeting(self, meeting_id: int) -> MeetingInfo:
        with self._read() as conn:
            return self._meeting(conn, meeting_id)

    @staticmethod
    def _meeting(conn: sa.Connection, meeting_id: int) -> MeetingInfo:
        if not 1 <= meeting_id <= MAX_ID:  # the database would fail on it (PostgreSQL: int4), not say "no"
            raise RecordError(f"no meeting {meeting_id} (see `kikimimi meeting list`)")
        winner = P.alias("winner")
        played = sa.select(sa.func.count()).where(G.c.meeting_id == M.c.id).scalar_subquery()
        row = conn.execute(
            sa.select(M.c.id, M.c.label, M.c.kind, M.c.held_at, M.c.status, M.c.finished_at,
                      winner.c.name.label("winner"), M.c.game, M.c.tables, played.label("played"))
            .select_from(M.outerjoin(winner, winner.c.id == M.c.winner_id))
            .where(M.c.id == meeting_id)
        ).first()
        if row is None:
            raise RecordError(f"no meeting {meeting_id} (see `kikimimi meeting list`)")
        names = tuple(conn.execute(
            sa.select(P.c.name).select_from(MP.join(P, P.c.id == MP.c.player_id))
            .where(MP.c.meeting_id == meeting_id).order_by(MP.c.position)
        ).scalars())
        return MeetingInfo(row.id, row.label, row.kind, row.held_at, row.status, row.finished_at, names,
                           int(row.played), row.winner, row.game or DEFAULT_GAME, int(row.tables))

    def meetings(self, status: str | None = None) -> list[MeetingInfo]:
        query = sa.select(M.c.id).order_by(M.c.held_at, M.c.id)
        if status:
            query = query.where(M.c.status == status)
        with self._read() as conn:
            ids = list(conn.execute(query).scalars())
        return [self.meeting(i) for i in ids]

    def current_meeting(self) -> MeetingInfo | None:
        """The latest open meeting (what the console shows), None when none is open."""
        opened = self.meetings("open")
        return opened[-1] if opened else None

    def _open(self, meeting_id: int) -> MeetingInfo:
        info = self.meeting(meeting_id)
        if info.status != "open":
            raise RecordError(f"{info.describe()} is {info.status}; its games cannot change")
        return info

    # -- a meeting's tables -------------------------------------------------------------------------

    def meeting_tables(self, meeting_id: int) -> list[TableInfo]:
        """Each table of a meeting: its players by seat, games played, controller and last state."""
        info = self.meeting(meeting_id)
        with self._read() as conn:
            seated = self._seated(conn, meeting_id)
            played = self._played_by_table(conn, meeting_id)
            rows = conn.execute(
                sa.select(MT).where(MT.c.meeting_id == meeting_id).order_by(MT.c.table_no)
            ).all()
        return [
            TableInfo(meeting_id, row.table_no, tuple(name for _, name in seated.get(row.table_no, ())),
                      played.get(row.table_no, 0), info.games_due, row.controller, row.joined_at, row.last_seen,
                      json.loads(row.state or "{}"))
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
        self._open(meeting_id)
        self.meeting_table(meeting_id, table)
        controller = " ".join(str(controller).split())
        if not controller or unshown_character(controller) is not None:
            raise RecordError(f"a table's controller needs a printable name, not {controller!r}")
        now = _now()
        with self._write() as conn:
            conn.execute(MT.update().where(MT.c.meeting_id == meeting_id, MT.c.table_no == table)
                         .values(controller=controller, joined_at=now, last_seen=now))
        return self.meeting_table(meeting_id, table)

    def report_table_state(self, meeting_id: int, table: int, state: Mapping[str, Any]) -> None:
        """Keep the state a table reported (what it plays now, its health); sets its last_seen."""
        self.meeting_table(meeting_id, table)
        try:
            text = json.dumps(dict(state), ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise RecordError(f"meeting {meeting_id} table {table}: its state is not plain data: {exc}") from None
        with self._write() as conn:
            conn.execute(MT.update().where(MT.c.meeting_id == meeting_id, MT.c.table_no == table)
                         .values(state=text, last_seen=_now()))

    # -- games ------------------------------------------------------------------------------------

    def record_game(
        self,
        meeting_id: int,
        seat_players: Mapping[int, str],
        outcome: Outcome,
        journal_game_id: str | None = None,
        table: int | None = None,
    ) -> None:
        """Record a finished game of an open meeting from the table's `Outcome` (of the meeting's game)."""
        rules = ladder(self.meeting(meeting_id).game)
        try:
            results = results_from_outcome({s: check_name(n) for s, n in seat_players.items()}, outcome, rules)
        except ResultError as exc:
            raise RecordError(f"meeting {meeting_id}: {exc}") from None
        self.record_results(meeting_id, results, journal_game_id=journal_game_id, reason=outcome.reason,
                            details=game_details(outcome, rules), table=table)

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
        found = self.record_many(meeting_id, [GameItem(results, journal_game_id, reason, details, table)])[0]
        if isinstance(found, RecordError):
            raise found
        return found.number

    def record_many(self, meeting_id: int, items: Sequence[GameItem]) -> list[Recorded | RecordError]:
        """Record several games of one meeting in one transaction (a host's group commit: one lock of
        the meeting and one commit for every result waiting); returns, for each item in order, what
        `record_results` would have: the game's number and round (`duplicate` when its journal game
        was recorded before, or earlier in `items`), or the RecordError refusing it.

        Each game is checked on its own and inserted under a savepoint, so a refused game is refused
        alone: the others are recorded. Nothing is committed when the database itself fails (then
        this raises, and no game of the batch is recorded)."""
        if not items:
            return []
        journal_ids = sorted({i.journal_game_id for i in items if i.journal_game_id is not None})
        try:
            with self._read() as conn:
                info = self._meeting(conn, meeting_id)
                seated = self._seated(conn, meeting_id)
                played = self._played_by_table(conn, meeting_id)
        except RecordError as exc:
            return [exc for _ in items]
        # Checked before taking the meeting: a game that does not read is refused alone, and the lock
        # is held only for numbering and inserting.
        prepared: list[tuple[int, dict[str, Any], list[dict[str, Any]]] | RecordError] = []
        for item in items:
            try:
                prepared.append(self._prepare(info, item, seated, played))
            except RecordError as exc:
                prepared.append(exc)
        with self._write() as conn:
            status = conn.execute(
                sa.select(M.c.status).where(M.c.id == meeting_id).with_for_update()
            ).scalar_one()
            # What is true now that the meeting is ours: the numbers, each table's rounds, the games
            # already recorded (another writer may have recorded some while we checked).
            number = int(conn.execute(
                sa.select(sa.func.coalesce(sa.func.max(G.c.number), 0)).where(G.c.meeting_id == meeting_id)
            ).scalar_one())
            played = self._played_by_table(conn, meeting_id)
            known: dict[str, Recorded] = {}
            for start in range(0, len(journal_ids), _FEW):
                for jid, num, rnd in conn.execute(
                    sa.select(G.c.journal_game_id, G.c.number, G.c.round)
                    .where(G.c.meeting_id == meeting_id, G.c.journal_game_id.in_(journal_ids[start:start + _FEW]))
                ):
                    known[jid] = Recorded(int(num), int(rnd or 0), True)
            batch = _Batch(info, status, number, played, known)
            try:
                with conn.begin_nested():  # the whole batch in a few statements
                    return batch.insert(conn, items, prepared, each=False)
            except (sa.exc.IntegrityError, sa.exc.DataError):
                pass  # the database refused one of them: each game under its own savepoint, it goes alone
            return _Batch(info, status, number, played, known).insert(conn, items, prepared, each=True)

    @staticmethod
    def _seated(conn: sa.Connection, meeting_id: int) -> dict[int, list[tuple[int, str]]]:
        """Each table's players, in seat order: table -> [(player id, name)]."""
        seated: dict[int, list[tuple[int, str]]] = {}
        for table_no, pid, name in conn.execute(
            sa.select(MP.c.table_no, P.c.id, P.c.name).select_from(MP.join(P, P.c.id == MP.c.player_id))
            .where(MP.c.meeting_id == meeting_id).order_by(MP.c.table_no, MP.c.seat)
        ):
            seated.setdefault(table_no, []).append((pid, name))
        return seated

    @staticmethod
    def _played_by_table(conn: sa.Connection, meeting_id: int) -> dict[int, int]:
        return {int(t): int(n) for t, n in conn.execute(
            sa.select(G.c.table_no, sa.func.count()).where(G.c.meeting_id == meeting_id).group_by(G.c.table_no)
        )}

    @staticmethod
    def _prepare(info: MeetingInfo, item: GameItem, seated: Mapping[int, list[tuple[int, str]]],
                 played: Mapping[int, int]) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
        """One game checked against its meeting and table: (table, game row, result rows), or RecordError."""
        meeting_id, table, results = info.id, item.table, item.results
        if info.status != "open":
            raise RecordError(f"{info.describe()} is {info.status}; its games cannot change")
        if table is None:
            if info.tables > 1:
                raise RecordError(
                    f"{info.describe()} is played at {info.tables} tables; say at which table this game was played"
                )
            table = 1
        if not 1 <= table <= info.tables:
            raise RecordError(f"meeting {meeting_id} has tables 1 to {info.tables}, not table {table}")
        here = seated.get(table, [])
        names = [name for _, name in here]
        if info.tables == 1:
            where = f"meeting {meeting_id} game {info.games_played + 1}"
        else:
            where = f"meeting {meeting_id} table {table} game {played.get(table, 0) + 1}"
        try:
            check_results(results, where, ladder(info.game))
        except ResultError as exc:
            raise RecordError(str(exc)) from None
        playing = {name_key(check_name(r.player)) for r in results}
        if playing != {name_key(n) for n in names}:
            whose = "meeting's" if info.tables == 1 else f"table {table}'s"
            raise RecordError(
                f"{where}: players {sorted(r.player for r in results)} are not the {whose} "
                f"players {names}"
            )
        try:
            game_json = json.dumps(dict(item.details or {}), ensure_ascii=False, sort_keys=True)
            result_json = [json.dumps(dict(r.details), ensure_ascii=False, sort_keys=True) for r in results]
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{where}: the game's details are not plain data: {exc}") from None
        ids = {name_key(name): pid for pid, name in here}
        rows = [
            {"player_id": ids[name_key(r.player)], "seat": r.seat, "place": r.place, "score": r.score,
             "won": int(r.won), "details": d}
            for r, d in zip(results, result_json, strict=True)
        ]
        game = {"journal_game_id": item.journal_game_id, "reason": item.reason, "game": info.game, "details": game_json}
        return table, game, rows

    def games(self, meeting_id: int, alerts: list[str] | None = None) -> list[GameRecord]:
        """A meeting's games in the order recorded, each with every player's result best first. A game whose
        stored rows cannot be read (written by hand, or by a kikimimi that checked less) is left out, never
        stopping the standings: it is named in `alerts` (and logged)."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(G.c.number, G.c.journal_game_id, G.c.reason, G.c.game, G.c.details.label("game_details"),
                          P.c.name, R.c.seat, R.c.place, R.c.score, R.c.won, R.c.details)
                .select_from(G.join(R, R.c.game_id == G.c.id).join(P, P.c.id == R.c.player_id))
                .where(G.c.meeting_id == meeting_id).order_by(G.c.number, R.c.place)
            ).all()
        games: dict[int, GameRecord] = {}
        unreadable: dict[int, str] = {}
        for row in rows:
            if row.number in unreadable:
                continue
            try:
                result = _stored_result(row)
                details = _stored_json(row.game_details, "the game's details")
            except ValueError as exc:
                unreadable[row.number] = f"{row.name}'s result {exc}"
                games.pop(row.number, None)
                continue
            old = games.get(row.number)
            games[row.number] = GameRecord(
                row.number,
                (*old.results, result) if old else (result,),
                row.journal_game_id,
                row.reason,
                row.game or DEFAULT_GAME,
                details,
            )
        for number, game in list(games.items()):
            places = sorted(r.place for r in game.results)
            if places != list(range(1, len(places) + 1)):
                unreadable[number] = f"places {places} are not 1..{len(places)}"
                del games[number]
        for number, problem in sorted(unreadable.items()):
            alert = f"meeting {meeting_id} game {number} cannot be read ({problem}); it is left out of the standings"
            log.warning("records: %s", alert)
            if alerts is not None:
                alerts.append(alert)
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
        ladder's `Change`s; none for a game without a ladder)."""
        self.settle_meeting(meeting_id, contest_winner=contest_winner)
        return self.meeting_changes(meeting_id)

    def settle_meeting(self, meeting_id: int, *, contest_winner: str | None = None) -> None:
        """Close an open meeting and settle it, without deriving its changes (`meetings_changes` derives
        those of many meetings at once: `records import`).

        A trial must have all its games (10 or 5) at every table. A contest's winner is
        `contest_winner`, else the unique top of its standings over all its tables.
        """
        info = self._open(meeting_id)
        winner_id = None
        if info.games_due is not None:
            with self._read() as conn:
                played = self._played_by_table(conn, meeting_id)
            short = [t for t in range(1, info.tables + 1) if played.get(t, 0) != info.games_due]
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
            if name_key(name) not in {name_key(n) for n in info.players}:
                raise RecordError(
                    f"{name!r} did not play in {info.describe()}; the winner must be one of {', '.join(info.players)}"
                )
            winner_id = self.player(name).id
        with self._write() as conn:
            changed = conn.execute(
                M.update().where(M.c.id == meeting_id, M.c.status == "open")
                .values(status="finished", finished_at=_now(), winner_id=winner_id)
            ).rowcount
            if changed:  # its games can no longer change: summarize them with the finish, or neither
                self._write_summaries(conn, meeting_id)
        if not changed:
            raise RecordError(f"meeting {meeting_id} was closed by someone else meanwhile")

    def abandon_meeting(self, meeting_id: int) -> None:
        """Keep an unfinished meeting's games but never count them."""
        self._open(meeting_id)
        with self._write() as conn:
            conn.execute(M.update().where(M.c.id == meeting_id).values(status="abandoned", finished_at=_now()))

    # -- derived ----------------------------------------------------------------------------------

    def _ladder(self, game: str | None) -> tuple[str, AnyLadder]:
        if game is None:
            game = default_ladder_game()
        found = ladder(game)
        if found is None:
            raise RecordError(f"{game} keeps no ranks; its results are in `kikimimi meeting show`")
        return game, found

    def history(self, name: str, game: str | None = None) -> list[Any]:
        """A player's finished meetings of `game` (default: the ladder game), in the order held, as
        that game's ladder reads them (its `MeetingResult`s); within a meeting the player's games in
        the order of their table's rounds. Other games' results never enter."""
        game, rules = self._ladder(game)
        player = self.player(name)
        with self._read() as conn:
            rows = conn.execute(self._history_rows_query(game).where(MP.c.player_id == player.id)).all()
        return [rules.meeting_result(mid, kind, tuple(map(rules.unpack, packed)), (held_at, mid),
                                     winner_id == player.id)
                for _, mid, kind, held_at, winner_id, packed in _packed_meetings(rules, rows)]

    def replay(self, name: str, game: str | None = None) -> Any:
        """The game's ladder replayed over the player's results of that game: `.status`, `.changes`."""
        game, rules = self._ladder(game)
        player = self.player(name)
        return rules.replay(self.history(player.name, game), name=player.name, title_form=player.title_form)

    def status(self, name: str, game: str | None = None) -> Any:
        """Where the player stands on the game's ladder (default: the ladder game)."""
        return self.replay(name, game).status

    def statuses(self, names: Iterable[str], game: str | None = None) -> list[Any]:
        return [self.status(n, game) for n in names]

    def ladder_statuses(self, game: str | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
        """Every player's status on the game's ladder (default: the ladder game), by name (`names`:
        only those players, each read on its own).

        Every read asks the database which meetings of the game are finished. A finished meeting can
        no longer change (its games are closed, its winner set), so what this store read of it before
        is kept: only newly finished meetings are read, one row per player and meeting from the
        summaries written as each was finished (`meeting_summaries`; a finished meeting without them
        is read from its results), and only their players (and players whose title form changed) are
        replayed by the ladder (its `packed_status` when it has one). The first read replays everyone."""
        game, rules = self._ladder(game)
        if names is not None:
            wanted = [self.player(n).name for n in names]
            return {name: self.status(name, game) for name in wanted}
        with self._histories_lock:
            histories = self._histories.get(game)
            if histories is None:
                histories = self._histories[game] = _Histories(rules)
            with self._read() as conn:
                conn.execute(sa.select(1))  # begins the transaction the reads below share
                finished = {mid: ((held_at, mid), kind, winner) for mid, held_at, kind, winner in _driver_rows(
                    conn, sa.select(M.c.id, M.c.held_at, M.c.kind, M.c.winner_id)
                    .where(M.c.status == "finished", M.c.game == game))}
                new = histories.forget_unless_kept(finished)
                if new:
                    summaries = self._summaries_query(game)
                    if len(new) <= _FEW:
                        summaries = summaries.where(M.c.id.in_(sorted(new)))
                    found = histories.add(_driver_rows(conn, summaries), new, finished)
                    if missing := new - found:  # finished with no summary (by hand): read its results
                        rows = self._history_rows_query(game)
                        if len(missing) <= _FEW:
                            rows = rows.where(M.c.id.in_(sorted(missing)))
                        histories.add([(pid, mid, packed) for pid, mid, *_, packed in
                                       _packed_meetings(rules, conn.execute(rows))], missing, finished)
                    histories.meetings.update((mid, finished[mid]) for mid in new)
            return histories.statuses(self.players())

    @staticmethod
    def _summaries_query(game: str) -> sa.Select[Any]:
        """(player id, meeting id, packed games) of every player of every finished meeting of `game`."""
        return (sa.select(S.c.player_id, S.c.meeting_id, S.c.games)
                .select_from(S.join(M, M.c.id == S.c.meeting_id))
                .where(M.c.status == "finished", M.c.game == game))

    @staticmethod
    def _history_rows_query(game: str) -> sa.Select[Any]:
        """(player id, meeting id, kind, held_at, winner id, round, place, won, score, details): every
        result of every player of every finished meeting of `game`, in the order the meetings were held
        and each player's games in round order, from the results (the source of truth); a player
        whose table played no game has one row of Nones from `round` on. A player's games are those of
        their table (all of a table's players play each of its games)."""
        return (
            sa.select(MP.c.player_id, M.c.id, M.c.kind, M.c.held_at, M.c.winner_id, G.c.round, R.c.place, R.c.won,
                      R.c.score, R.c.details)
            .select_from(_players_games())
            .where(M.c.status == "finished", M.c.game == game)
            .order_by(M.c.held_at, M.c.id, MP.c.player_id, G.c.round)
        )

    def _write_summaries(self, conn: sa.Connection, meeting_id: int | None = None) -> int:
        """Write the summaries of a finished meeting (None: of every finished meeting of every game with a
        ladder) from its results, in the caller's transaction, packed by the game's ladder; returns how
        many rows."""
        rows: list[dict[str, Any]] = []
        for game in ladder_games_in(conn, meeting_id):
            rules = ladder(game)
            if rules is None:
                continue
            query = self._history_rows_query(game)
            if meeting_id is not None:
                query = query.where(M.c.id == meeting_id)
            rows += [{"meeting_id": mid, "player_id": pid, "games": packed}
                     for pid, mid, *_, packed in _packed_meetings(rules, conn.execute(query))]
        conn.execute(S.delete() if meeting_id is None else S.delete().where(S.c.meeting_id == meeting_id))
        for start in range(0, len(rows), 10_000):
            conn.execute(S.insert(), rows[start:start + 10_000])
        return len(rows)

    def rebuild_summaries(self) -> int:
        """Write every finished meeting's summaries again from the results (after editing results by
        hand: the summaries are derived, the results are the truth); returns how many rows."""
        with self._write() as conn:
            count = self._write_summaries(conn)
        with self._histories_lock:
            self._histories.clear()
        return count

    def meeting_changes(self, meeting_id: int) -> list[Any]:
        """The changes a finished meeting brought, derived again from the results (none for a game
        without a ladder)."""
        return self.meetings_changes([meeting_id])[0]

    def meetings_changes(self, meeting_ids: Sequence[int]) -> list[list[Any]]:
        """The changes each finished meeting brought (as `meeting_changes`), each player's ladder replayed
        once for all of them: a ladder is causal, so a later meeting never moves an earlier one's changes."""
        replays: dict[tuple[str, str], Any] = {}
        found: list[list[Any]] = []
        for meeting_id in meeting_ids:
            info = self.meeting(meeting_id)
            if ladder(info.game) is None:
                found.append([])
                continue
            for name in info.players:
                if (info.game, name) not in replays:
                    replays[info.game, name] = self.replay(name, info.game)
            found.append([c for name in info.players for c in replays[info.game, name].changes_in(meeting_id)])
        return found

    def played(self, name: str) -> dict[str, tuple[int, int]]:
        """Every game a player has results in: game id -> (games, wins), finished meetings only."""
        player = self.player(name)
        with self._read() as conn:
            rows = conn.execute(
                sa.select(G.c.game, sa.func.count(), sa.func.sum(R.c.won))
                .select_from(R.join(G, G.c.id == R.c.game_id).join(M, M.c.id == G.c.meeting_id))
                .where(R.c.player_id == player.id, M.c.status == "finished")
                .group_by(G.c.game).order_by(G.c.game)
            ).all()
        return {row[0]: (int(row[1]), int(row[2] or 0)) for row in rows}


class _Batch:
    """Games of one meeting numbered and inserted by `record_many`, in the transaction holding the meeting."""

    def __init__(self, info: MeetingInfo, status: str, number: int, played: Mapping[int, int],
                 known: Mapping[str, Recorded]) -> None:
        self.info, self.status, self.number = info, status, number
        self.played, self.known = dict(played), dict(known)

    def insert(self, conn: sa.Connection, items: Sequence[GameItem],
               prepared: Sequence[tuple[int, dict[str, Any], list[dict[str, Any]]] | RecordError],
               each: bool) -> list[Recorded | RecordError]:
        """Each item's outcome, its game inserted: all at once (`each` False: an error of the database
        fails them all), or each under a savepoint (a game the database refuses is refused alone)."""
        info = self.info
        outcomes: list[Recorded | RecordError] = []
        games: list[dict[str, Any]] = []
        results: list[list[dict[str, Any]]] = []
        for item, ready in zip(items, prepared, strict=True):
            jid = item.journal_game_id
            if jid is not None and jid in self.known:
                outcomes.append(self.known[jid])
                continue
            if isinstance(ready, RecordError):
                outcomes.append(ready)
                continue
            if self.status != "open":
                outcomes.append(RecordError(f"meeting {info.id} is {self.status}; its games cannot change"))
                continue
            table, game, rows = ready
            done = self.played.get(table, 0)
            if info.games_due is not None and done >= info.games_due:
                outcomes.append(RecordError(
                    f"{info.describe()} has all its games; finish it with `kikimimi meeting finish`"
                    if info.tables == 1 else
                    f"{info.describe()}: table {table} has played all its {info.games_due} games"))
                continue
            row = {"meeting_id": info.id, "number": self.number + 1, "table_no": table, "round": done + 1,
                   "recorded_at": _now(), **game}
            if each:
                try:
                    with conn.begin_nested():
                        game_id = conn.execute(G.insert().values(**row).returning(G.c.id)).scalar_one()
                        conn.execute(R.insert(), [{"game_id": game_id, **r} for r in rows])
                except (sa.exc.IntegrityError, sa.exc.DataError) as exc:
                    reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
                    outcomes.append(RecordError(f"meeting {info.id} table {table}: the database refused game "
                                                f"{jid or self.number + 1}: {reason}"))
                    continue
            else:
                games.append(row)
                results.append(rows)
            self.number += 1
            self.played[table] = done + 1
            if jid is not None:
                self.known[jid] = Recorded(self.number, done + 1, True)
            outcomes.append(Recorded(self.number, done + 1))
        if games:
            ids = conn.execute(G.insert().returning(G.c.id, sort_by_parameter_order=True), games).scalars().all()
            conn.execute(R.insert(), [{"game_id": gid, **r} for gid, rows in zip(ids, results, strict=True)
                                      for r in rows])
        return outcomes


_FEW = 500  # newly finished meetings read by id; more are read whole (a query's parameters are limited)


def _players_games() -> sa.FromClause:
    """Each meeting's players, each with their results in their table's games of the meeting's game
    (none: a row with no game), as both the history and the summaries read them."""
    games = sa.and_(G.c.meeting_id == M.c.id, G.c.table_no == MP.c.table_no, G.c.game == M.c.game)
    mine = sa.and_(R.c.game_id == G.c.id, R.c.player_id == MP.c.player_id)
    return M.join(MP, MP.c.meeting_id == M.c.id).outerjoin(G, games).outerjoin(R, mine)


def _driver_rows(conn: sa.Connection, query: sa.Select[Any]) -> list[tuple[Any, ...]]:
    """A large read's rows as the driver hands them over, in the connection's transaction: for 100k
    small rows SQLAlchemy's own rows cost more than the query (measured: 0.2 s against 0.1 s). The
    query's values (ids, a game's id, a status) are written into it as literals."""
    sql = str(query.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
    cursor = conn.connection.dbapi_connection.cursor()
    try:
        cursor.execute(sql)
        return cursor.fetchall()
    finally:
        cursor.close()


class _Histories:
    """One game's ladder histories as one store read them: each player's packed games of each finished
    meeting, the meetings ((held_at, id), kind, winner id) and the status last replayed from them."""

    def __init__(self, rules: AnyLadder) -> None:
        self.rules = rules
        self.meetings: dict[int, tuple[Any, ...]] = {}  # finished meeting id -> ((held_at, id), kind, winner id)
        self.games: dict[int, dict[int, tuple[Any, ...]]] = {}  # player id -> meeting id -> packed meeting
        self.replayed: dict[int, tuple[str, str, Any]] = {}  # player id -> (name, title form, status)

    def forget_unless_kept(self, finished: dict[int, tuple[Any, ...]]) -> set[int]:
        """The finished meetings not read yet; starts over if a meeting read before changed or went
        (possible only by editing the database by hand)."""
        if any(finished.get(mid) != seen for mid, seen in self.meetings.items()):
            self.meetings.clear()
            self.games.clear()
            self.replayed.clear()
        return set(finished) - set(self.meetings)

    def add(self, rows: Sequence[Any], wanted: set[int], finished: dict[int, tuple[Any, ...]]) -> set[int]:
        """Keep (player id, meeting id, packed games) rows of the `wanted` meetings as the ladder's
        packed meetings (order, meeting id, kind, won contest, games); returns the meetings found."""
        games, replayed = self.games, self.replayed
        held = finished if len(wanted) == len(finished) else {mid: finished[mid] for mid in wanted}
        kept = set()
        for pid, mid, packed in rows:
            meeting = held.get(mid)
            if meeting is not None:
                mine = games.get(pid)
                if mine is None:
                    mine = games[pid] = {}
                    kept.add(pid)
                elif replayed:
                    kept.add(pid)
                mine[mid] = (meeting[0], mid, meeting[1], meeting[2] == pid, packed)
        for pid in kept:
            replayed.pop(pid, None)
        return {mid for _, mid, _ in rows} & wanted

    def statuses(self, players: Iterable[Player]) -> dict[str, Any]:
        found = {}
        status_of = self.rules.packed_status
        nothing: dict[int, tuple[Any, ...]] = {}
        for p in players:
            known = self.replayed.get(p.id)
            if known is None or known[:2] != (p.name, p.title_form):
                status = status_of(self.games.get(p.id, nothing).values(), name=p.name, title_form=p.title_form)
                known = self.replayed[p.id] = (p.name, p.title_form, status)
            found[p.name] = known[2]
        return found


def ladder_games_in(conn: sa.Connection, meeting_id: int | None) -> list[str]:
    """The games of the finished meetings (of one meeting) that have a ladder."""
    query = sa.select(M.c.game).distinct().where(M.c.status == "finished")
    if meeting_id is not None:
        query = query.where(M.c.id == meeting_id)
    return [game for game in conn.execute(query).scalars() if game is not None and ladder(game) is not None]


def _packed_meetings(rules: AnyLadder, rows: Iterable[Any]) -> Iterator[tuple[int, int, str, str, int | None, str]]:
    """History rows (see `_history_rows_query`), one per result, folded into one per player and meeting:
    (player id, meeting id, kind, held_at, winner id, the player's games packed by the ladder in round
    order). Results alike pack alike: each (place, won, score, details) is packed once."""
    packed: dict[tuple[Any, ...], str] = {}
    key: tuple[int, int] | None = None
    head: tuple[int, int, str, str, int | None] | None = None
    codes: list[str] = []
    for pid, mid, kind, held_at, winner_id, _round, place, won, score, details in rows:
        if (pid, mid) != key:
            if head is not None:
                yield (*head, "".join(codes))
            key, head, codes = (pid, mid), (pid, mid, kind, held_at, winner_id), []
        if place is None:  # the player's table played no game
            continue
        found = packed.get((place, won, score, details))
        if found is None:
            try:  # a row written by hand is left out of the ladder, named, as `games()` leaves it out of standings
                _stored_result(SimpleNamespace(name="", seat=None, place=place, score=score, won=won, details=details))
                found = packed[place, won, score, details] = rules.pack(
                    rules.result(place, bool(won), score, json.loads(details or "{}")))
            except (ValueError, TypeError) as exc:
                log.warning("records: meeting %s round %s: player %s's result cannot be read (%s); it is left out "
                            "of the ladder", mid, _round, pid, exc)
                continue
        codes.append(found)
    if head is not None:
        yield (*head, "".join(codes))


STORED_NUMBER = 10**12  # a stored score beyond it is not a game's (a sum of many stays exact)


def _stored_json(text: str | None, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except (ValueError, RecursionError):
        raise ValueError(f"{what} are not JSON") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} are not a JSON object")
    return value


def _stored_result(row: Any) -> PlayerResult:
    """One stored result, typed (ValueError saying which field is not what a result holds)."""
    place, score, won = row.place, row.score, row.won
    if type(place) is not int or not 1 <= place <= 64:
        raise ValueError(f"has place {printable(repr(place))[:40]}")
    if score is not None and (type(score) is not int or abs(score) > STORED_NUMBER):
        raise ValueError(f"has score {printable(repr(score))[:40]}")
    if won not in (0, 1, True, False):
        raise ValueError(f"has won {printable(repr(won))[:40]}")
    return PlayerResult(row.name, place, row.seat, score, bool(won),
                        _seat_keys(_stored_json(row.details, "details")))


def _seat_keys(value: Any) -> Any:
    """JSON's string keys back to seat numbers where a detail is kept per seat."""
    if isinstance(value, dict):
        return {int(k) if isinstance(k, str) and k.isdigit() else k: _seat_keys(v) for k, v in value.items()}
    return value


def _disk_full(folder: Path) -> bool:
    """Whether the filesystem holding `folder` has no room left (SQLite says only "disk I/O error")."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < 64 * 1024
