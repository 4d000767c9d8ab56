"""The records database's schema, as numbered migrations from the first version on.

`PRAGMA user_version` holds the version a database is at; `migrate` applies the missing steps in
order, each in one transaction, so a database of any earlier version (or an empty file) comes up to
date and a half-applied step never remains. Never edit a released step: add the next one. A step is
SQL text, or a function of the connection for a step that needs a value from the code (v3 fills the
game of older rows from the registry's default game, never a name written into SQL).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

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


Step = str | Callable[[sqlite3.Connection], None]

MIGRATIONS: tuple[Step, ...] = (
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
    # v4: a meeting over several tables. Each table of a meeting (who controls it, its last state);
    # each player's table and seat; each game's table and round (the table's own game number). A
    # journal game is recorded once per meeting, enforced by the database so concurrent reports of
    # the same game (a table replaying its outbox) cannot both land. Older games are table 1.
    """
    CREATE TABLE meeting_tables (
        meeting_id  INTEGER NOT NULL REFERENCES meetings(id),
        table_no    INTEGER NOT NULL CHECK (table_no >= 1),
        controller  TEXT,
        joined_at   TEXT,
        last_seen   TEXT,
        state       TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (meeting_id, table_no)
    );
    ALTER TABLE meetings ADD COLUMN tables INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE meeting_players ADD COLUMN table_no INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE meeting_players ADD COLUMN seat INTEGER;
    ALTER TABLE games ADD COLUMN table_no INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN round INTEGER;
    UPDATE meeting_players SET seat = position + 1;
    UPDATE games SET round = number;
    INSERT INTO meeting_tables (meeting_id, table_no) SELECT id, 1 FROM meetings;
    CREATE UNIQUE INDEX games_by_journal ON games (meeting_id, journal_game_id) WHERE journal_game_id IS NOT NULL;
    CREATE UNIQUE INDEX games_by_round ON games (meeting_id, table_no, round);
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
        migration = MIGRATIONS[step]
        try:
            if isinstance(migration, str):
                # executescript commits first; the explicit BEGIN keeps the step and its version together.
                conn.executescript(f"BEGIN IMMEDIATE;\n{migration}\nPRAGMA user_version = {step + 1};\nCOMMIT;")
            else:
                if conn.in_transaction:
                    conn.commit()
                conn.execute("BEGIN IMMEDIATE")
                migration(conn)
                conn.execute(f"PRAGMA user_version = {step + 1}")
                conn.commit()
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.rollback()
            raise SchemaError(f"{where}: migration to schema version {step + 1} failed: {exc}") from exc
    return start
