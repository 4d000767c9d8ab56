"""Fixtures of the records tests: stores to test, and records files as kikimimi made them before Alembic.

`legacy_records(version)` builds a SQLite file the way kikimimi did up to schema version 3 (its own
numbered migrations and `PRAGMA user_version`): the SQL below is that code, frozen, so the adoption of
such files by the Alembic migrations is tested against what was really written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy

from kikimimi.games.registry import DEFAULT_GAME


def _v3_every_game(conn: sqlite3.Connection) -> None:
    """v3: records keep every game's results.

    Meetings and games name their game (rows from before were all the default game); a game keeps
    its outcome's details that belong to no seat; a result keeps the seat's score in the game's own
    unit, whether it won (several seats share a win; a game that ended with no winner has none) and
    the seat's own details as JSON. `place` stays the seat's index in the game's ranking, so places
    stay 1..n (ties show in `won` and `score`). v1's `points` and `pieces` move into `score` and
    `details` and are no longer written; `crashed` stays a column.
    """
    for statement in (
        "ALTER TABLE meetings ADD COLUMN game TEXT",
        "ALTER TABLE games ADD COLUMN game TEXT",
        "ALTER TABLE games ADD COLUMN details TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE results ADD COLUMN score INTEGER",
        "ALTER TABLE results ADD COLUMN won INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1))",
        "ALTER TABLE results ADD COLUMN details TEXT NOT NULL DEFAULT '{}'",
        "CREATE INDEX meetings_by_game ON meetings (game, status, held_at, id)",
        "CREATE INDEX games_by_game ON games (game, meeting_id)",
    ):
        conn.execute(statement)
    conn.execute("UPDATE meetings SET game = ?", (DEFAULT_GAME,))
    conn.execute("UPDATE games SET game = ?", (DEFAULT_GAME,))
    # Before v3 every game was the Trident's shape: a 1st place went out and won, unless someone
    # crashed (then the game ended with no one out, as the engine's outcome says).
    conn.execute(
        """UPDATE results SET
               score = points,
               details = CASE WHEN pieces IS NULL THEN '{}' ELSE '{"pieces": ' || pieces || '}' END,
               won = (place = 1 AND NOT EXISTS (
                   SELECT 1 FROM results c WHERE c.game_id = results.game_id AND c.crashed = 1))"""
    )


LEGACY_STEPS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # v1: players, meetings (full trial, half trial, contest), games linked to the journal, results.
    """
    CREATE TABLE players (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        title_form  TEXT NOT NULL DEFAULT 'king' CHECK (title_form IN ('king', 'queen')),
        created_at  TEXT NOT NULL
    );
    CREATE TABLE meetings (
        id          INTEGER PRIMARY KEY,
        label       TEXT UNIQUE,
        kind        TEXT NOT NULL CHECK (kind IN ('full', 'half', 'contest')),
        held_at     TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'abandoned')),
        finished_at TEXT,
        winner_id   INTEGER REFERENCES players(id)
    );
    CREATE TABLE meeting_players (
        meeting_id  INTEGER NOT NULL REFERENCES meetings(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        position    INTEGER NOT NULL,
        PRIMARY KEY (meeting_id, player_id)
    );
    CREATE TABLE games (
        id              INTEGER PRIMARY KEY,
        meeting_id      INTEGER NOT NULL REFERENCES meetings(id),
        number          INTEGER NOT NULL,
        journal_game_id TEXT,
        reason          TEXT NOT NULL DEFAULT '',
        recorded_at     TEXT NOT NULL,
        UNIQUE (meeting_id, number)
    );
    CREATE TABLE results (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        seat        INTEGER,
        place       INTEGER NOT NULL CHECK (place >= 1),
        crashed     INTEGER NOT NULL DEFAULT 0 CHECK (crashed IN (0, 1)),
        pieces      INTEGER,
        points      INTEGER,
        PRIMARY KEY (game_id, player_id),
        UNIQUE (game_id, place)
    );
    """,
    # v2: a player's history and a meeting's games are read on every status; index them.
    """
    CREATE INDEX results_by_player ON results (player_id, game_id);
    CREATE INDEX games_by_meeting ON games (meeting_id, number);
    CREATE INDEX meetings_by_time ON meetings (status, held_at, id);
    """,
    # v3: the game of every meeting and game; per-seat score, won, details (see _v3_every_game).
    _v3_every_game,
)


def make_legacy_records(path: Path, version: int) -> sqlite3.Connection:
    """A records file at schema `version` (1..3) as the pre-Alembic kikimimi left it; open for more rows."""
    conn = sqlite3.connect(path)
    for number, step in enumerate(LEGACY_STEPS[:version], start=1):
        if isinstance(step, str):
            conn.executescript(f"BEGIN IMMEDIATE;\n{step}\nPRAGMA user_version = {number};\nCOMMIT;")
        else:
            conn.execute("BEGIN IMMEDIATE")
            step(conn)
            conn.execute(f"PRAGMA user_version = {number}")
            conn.commit()
    return conn


@pytest.fixture
def legacy_records(tmp_path) -> Callable[[int], sqlite3.Connection]:
    """Build `tmp_path / "legacy.sqlite"` at a pre-Alembic schema version; returns its connection."""
    return lambda version: make_legacy_records(tmp_path / "legacy.sqlite", version)


@pytest.fixture
def sql(records_url) -> Callable[..., list[tuple]]:
    """Read the test's records database directly (what the store wrote, not what it says)."""

    def query(text: str, **params: object) -> list[tuple]:
        engine = sqlalchemy.create_engine(records_url)
        try:
            with engine.connect() as conn:
                return [tuple(row) for row in conn.execute(sqlalchemy.text(text), params)]
        finally:
            engine.dispose()

    return query


def back_to_schema_five(url: str) -> None:
    """Turn a records database at schema version 6 back into the shape version 5 kept, rows and all: the
    crash in a `crashed` column (not in the result's details), the v1 columns `pieces` and `points`, the
    title form checked against 'king' and 'queen'. What kikimimi at version 5 left, for the migrations
    from it to be tested on both databases."""
    engine = sqlalchemy.create_engine(url)
    crash = '"crashed": true'
    try:
        with engine.begin() as conn:
            for statement in (
                "ALTER TABLE results ADD COLUMN crashed INTEGER NOT NULL DEFAULT 0 CHECK (crashed IN (0, 1))",
                "ALTER TABLE results ADD COLUMN pieces INTEGER",
                "ALTER TABLE results ADD COLUMN points INTEGER",
                f"UPDATE results SET crashed = 1 WHERE details LIKE '%{crash}%'",
                f"UPDATE results SET details = replace(replace(replace(details, '{{{crash}}}', '{{}}'), "
                f"'{crash}, ', ''), ', {crash}', '') WHERE crashed = 1",
                "UPDATE alembic_version SET version_num = '0005'",
            ):
                conn.execute(sqlalchemy.text(statement))
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("PRAGMA user_version = 5")
            else:
                conn.exec_driver_sql("ALTER TABLE players ADD CONSTRAINT players_title_form "
                                     "CHECK (title_form IN ('king', 'queen'))")
    finally:
        engine.dispose()


@pytest.fixture
def schema_five() -> Callable[[str], None]:
    """`back_to_schema_five`, for a test to take a database back to what version 5 kept."""
    return back_to_schema_five
