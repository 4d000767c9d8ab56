"""v6: the schema knows no game's words: a result's game-specific facts live in its details only.

Until v5 a result had a `crashed` column (one game's crash), and the v1 columns `pieces` and `points`
(moved into `details` and `score` by v3, written no more), and a player's title form was checked
against one game's forms ('king', 'queen'). Now a crash is the result detail `"crashed": true` (what
that game's ladder reads), the three columns are gone, and the title form is any text (the ladders
say which forms they know). Every result is kept: a crash moves into its details, and a value v3
left only in `points` or `pieces` moves too. The meeting summaries are unchanged (the ladder packs a
game exactly as before). Frozen here, not the store's code.

SQLite cannot drop a column that a CHECK names, nor a CHECK: the two tables are rebuilt (create the new
one, copy, drop, rename), with its foreign keys off (`schema.migrate` turns them off around the
migrations, as SQLite's own procedure for changing a table asks) and checked before the step commits.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"

_BATCH = 5_000


def _facts_into_details() -> None:
    """Each result's crash (and any v1 value v3 left behind) into its details and score."""
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        """SELECT game_id, player_id, crashed, pieces, points, score, details FROM results
           WHERE crashed = 1 OR (points IS NOT NULL AND score IS NULL) OR pieces IS NOT NULL"""
    )).fetchall()  # read whole before writing: the connection runs one statement at a time
    changed: list[dict[str, Any]] = []
    for game_id, player_id, crashed, pieces, points, score, text in rows:
        details = json.loads(text or "{}")
        before = dict(details)
        if crashed:
            details["crashed"] = True
        if pieces is not None and "pieces" not in details:
            details["pieces"] = pieces
        if details != before or (score is None and points is not None):
            changed.append({"game_id": game_id, "player_id": player_id, "points": points,
                            "details": json.dumps(details, ensure_ascii=False, sort_keys=True)})
    update = sa.text("UPDATE results SET details = :details, score = COALESCE(score, :points) "
                     "WHERE game_id = :game_id AND player_id = :player_id")
    for start in range(0, len(changed), _BATCH):
        bind.execute(update, changed[start:start + _BATCH])


def _rebuild_sqlite() -> None:
    bind = op.get_bind()
    if bind.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError("SQLite's foreign keys must be off to rebuild tables: run the records migrations "
                           "through kikimimi.records.schema.migrate")
    for statement in (
        """CREATE TABLE results_v6 (
               game_id INTEGER NOT NULL REFERENCES games (id),
               player_id INTEGER NOT NULL REFERENCES players (id),
               seat INTEGER,
               place INTEGER NOT NULL,
               score INTEGER,
               won INTEGER DEFAULT '0' NOT NULL,
               details TEXT DEFAULT '{}' NOT NULL,
               PRIMARY KEY (game_id, player_id),
               CONSTRAINT results_place CHECK (place >= 1),
               CONSTRAINT results_won CHECK (won IN (0, 1)),
               UNIQUE (game_id, place))""",
        """INSERT INTO results_v6 (game_id, player_id, seat, place, score, won, details)
           SELECT game_id, player_id, seat, place, score, won, details FROM results""",
        "DROP TABLE results",
        "ALTER TABLE results_v6 RENAME TO results",
        "CREATE INDEX results_by_player ON results (player_id, game_id)",
        """CREATE TABLE players_v6 (
               id INTEGER NOT NULL,
               name TEXT COLLATE "NOCASE" NOT NULL,
               title_form TEXT NOT NULL,
               created_at TEXT NOT NULL,
               PRIMARY KEY (id),
               UNIQUE (name))""",
        """INSERT INTO players_v6 (id, name, title_form, created_at)
           SELECT id, name, title_form, created_at FROM players""",
        "DROP TABLE players",
        "ALTER TABLE players_v6 RENAME TO players",
    ):
        bind.exec_driver_sql(statement)
    broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"rebuilding the tables broke {len(broken)} references, e.g. {broken[0]}")


def upgrade() -> None:
    _facts_into_details()
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_sqlite()
        return
    for column in ("crashed", "pieces", "points"):
        op.drop_column("results", column)  # PostgreSQL drops the CHECK on `crashed` with it
    op.execute("ALTER TABLE players DROP CONSTRAINT IF EXISTS players_title_form")
    op.alter_column("players", "title_form", server_default=None)
