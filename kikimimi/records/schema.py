"""The records database's schema: one schema for SQLite and PostgreSQL, and its migrations.

Why SQLAlchemy Core and Alembic: the records live in an embedded SQLite file at a single table and in
a club's PostgreSQL server when meetings span tables. Writing the SQL and the migrations twice, once
per dialect, is how the two drift apart. SQLAlchemy Core states the tables and the queries once and
renders each dialect's SQL (placeholders, types, `FOR UPDATE`, partial indexes); Alembic runs numbered
migrations written with `op.create_table`/`op.add_column`, which both backends understand, and keeps
the revision a database is at in the database. Both are well kept and widely used. The ORM is not
needed: the store hands out small frozen value types and derives everything else, so mapped objects
would only add a second model of the same rows.

`TABLES` below is the shape at the latest revision, what the store's queries are built from. The
migrations (`kikimimi/records/migrations/versions/0001..`) are frozen history: never edit a released
one, add the next. Alembic is run from here (no alembic.ini at run time). A SQLite file made before
Alembic (schema version in `PRAGMA user_version`, 1..3) is adopted: stamped at the matching revision,
then upgraded. On SQLite the `user_version` keeps following the revision, so an older kikimimi reading
a newer file refuses it instead of writing into a schema it does not know.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from importlib import resources
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

LATEST = 6
REVISIONS = tuple(f"{n:04d}" for n in range(1, LATEST + 1))  # revision "0003" is schema version 3


class SchemaError(RuntimeError):
    """A database this version of kikimimi cannot use."""


metadata = sa.MetaData()

players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("title_form", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
)
meetings = sa.Table(
    "meetings", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("label", sa.Text),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("held_at", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("finished_at", sa.Text),
    sa.Column("winner_id", sa.Integer),
    sa.Column("game", sa.Text),
    sa.Column("tables", sa.Integer, nullable=False),
)
meeting_players = sa.Table(
    "meeting_players", metadata,
    sa.Column("meeting_id", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer),
)
meeting_tables = sa.Table(
    "meeting_tables", metadata,
    sa.Column("meeting_id", sa.Integer, primary_key=True),
    sa.Column("table_no", sa.Integer, primary_key=True),
    sa.Column("controller", sa.Text),
    sa.Column("joined_at", sa.Text),
    sa.Column("last_seen", sa.Text),
    sa.Column("state", sa.Text, nullable=False),
)
games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("meeting_id", sa.Integer, nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("round", sa.Integer),
    sa.Column("journal_game_id", sa.Text),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("recorded_at", sa.Text, nullable=False),
    sa.Column("game", sa.Text),
    sa.Column("details", sa.Text, nullable=False),
)
results = sa.Table(
    "results", metadata,
    sa.Column("game_id", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("score", sa.Integer),
    sa.Column("won", sa.Integer, nullable=False),
    sa.Column("details", sa.Text, nullable=False),
)

# Derived, never the source of truth: each player's games of each finished meeting of a game with a
# ladder packed in one string, one character a game in the order their table played them (as the
# game's ladder packs a result: `Ladder.pack`), so standings of a whole club read one row per player and meeting
# instead of one per game. Written with the results of a meeting in the transaction that finishes it
# (a finished meeting's games can no longer change; open and abandoned meetings have none), filled for
# older databases by migration 0005, and rebuilt from the results by `store.summaries.rebuild()`.
meeting_summaries = sa.Table(
    "meeting_summaries", metadata,
    sa.Column("meeting_id", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, primary_key=True),
    sa.Column("games", sa.Text, nullable=False),
)


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for the migrations shipped in this package (no alembic.ini)."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("kikimimi.records") / "migrations"))
    config.attributes["connection"] = connection
    return config


@functools.cache
def _known_revisions() -> frozenset[str]:
    return frozenset({rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions()})


def _revision_version(revision: str | None) -> int:
    return int(revision) if revision and revision.isdigit() else 0


def _sqlite_user_version(connection: sa.Connection) -> int:
    return int(connection.exec_driver_sql("PRAGMA user_version").scalar() or 0)


def version(connection: sa.Connection) -> int:
    """The schema version a database is at (0: empty)."""
    current = MigrationContext.configure(connection).get_current_revision()
    if current is None and connection.dialect.name == "sqlite":
        return _sqlite_user_version(connection)
    return _revision_version(current)


def _newer(where: str, at: Any) -> SchemaError:
    return SchemaError(
        f"{where} is at schema version {at}, newer than this kikimimi knows ({LATEST}); "
        "upgrade kikimimi, or point --db at another database"
    )


@contextlib.contextmanager
def _foreign_keys_off(connection: sa.Connection) -> Iterator[None]:
    """SQLite's foreign keys off while migrating (a step that rebuilds a table others refer to needs
    it, and checks the references itself before it commits). Set outside any transaction, as SQLite
    requires, and on again before the connection goes back to the pool."""
    sqlite = connection.dialect.name == "sqlite"
    raw = connection.connection.dbapi_connection if sqlite else None
    if raw is not None:
        raw.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        if raw is not None:
            connection.rollback()
            raw.execute("PRAGMA foreign_keys = ON")


def migrate(engine: sa.Engine, where: str = "records database", target: int = LATEST) -> int:
    """Bring the database up to `target` (each revision in its own transaction); returns the version
    it was at before. A database newer than this code is refused, a pre-Alembic SQLite file adopted."""
    with engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
        legacy = _sqlite_user_version(connection) if connection.dialect.name == "sqlite" else 0
        connection.rollback()
    if legacy > LATEST:
        raise _newer(where, legacy)
    if current is not None and current not in _known_revisions():
        raise _newer(where, current)
    start = _revision_version(current) if current is not None else legacy
    if start >= target:
        return start
    with engine.connect() as connection, _foreign_keys_off(connection):
        config = alembic_config(connection)
        try:
            if current is None and legacy:
                command.stamp(config, REVISIONS[legacy - 1])  # made by kikimimi before Alembic
                connection.commit()
            command.upgrade(config, REVISIONS[target - 1])
            connection.commit()
        except (RuntimeError, sa.exc.SQLAlchemyError) as exc:  # SchemaError is a RuntimeError
            connection.rollback()
            reached = version(connection)
            connection.rollback()
            raise SchemaError(
                f"{where}: migration to schema version {reached + 1} failed: {getattr(exc, 'orig', None) or exc}"
            ) from exc
    return start
