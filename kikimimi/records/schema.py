"""The records database's schema, as numbered migrations from the first version on.

`PRAGMA user_version` holds the version a database is at; `migrate` applies the missing steps in
order, each in one transaction, so a database of any earlier version (or an empty file) comes up to
date and a half-applied step never remains. Never edit a released step: add the next one.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: tuple[str, ...] = (
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
)

LATEST = len(MIGRATIONS)


class SchemaError(RuntimeError):
    """A database this version of kikimimi cannot use."""


def version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = LATEST, where: str = "records database") -> int:
    """Bring the database up to `target`; returns the version it was at before."""
    start = version(conn)
    if start > LATEST:
        raise SchemaError(
            f"{where} is at schema version {start}, newer than this kikimimi knows ({LATEST}); "
            "upgrade kikimimi, or point --db at another file"
        )
    for step in range(start, target):
        # executescript commits first; the explicit BEGIN keeps the step and its version together.
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{MIGRATIONS[step]}\nPRAGMA user_version = {step + 1};\nCOMMIT;")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.rollback()
            raise SchemaError(f"{where}: migration to schema version {step + 1} failed: {exc}") from exc
    return start
