"""v4: a meeting over several tables.

Each table of a meeting (who controls it, when it joined and was last heard, its last state); each
player's table and seat; each game's table and round (the table's own game number). A journal game
is recorded once per meeting, enforced by a unique index so two reports of the same game arriving
at once (a table replaying its outbox) cannot both land. Games from before are table 1, round = number.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def _refuse_journal_games_recorded_twice() -> None:
    twice = op.get_bind().execute(sa.text(
        """SELECT meeting_id, journal_game_id, COUNT(*) FROM games WHERE journal_game_id IS NOT NULL
           GROUP BY meeting_id, journal_game_id HAVING COUNT(*) > 1 ORDER BY meeting_id LIMIT 5"""
    )).fetchall()
    if twice:
        listed = "; ".join(f"meeting {m} journal game {j!r} {n} times" for m, j, n in twice)
        raise RuntimeError(
            f"a journal game is recorded more than once ({listed}); keep one game of each "
            "(delete the others' rows from results and games) and open the records again"
        )


def upgrade() -> None:
    _refuse_journal_games_recorded_twice()
    op.create_table(
        "meeting_tables",
        sa.Column("meeting_id", sa.Integer, sa.ForeignKey("meetings.id"), primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("controller", sa.Text),
        sa.Column("joined_at", sa.Text),
        sa.Column("last_seen", sa.Text),
        sa.Column("state", sa.Text, nullable=False, server_default="{}"),
        sa.CheckConstraint("table_no >= 1", name="meeting_tables_table_no"),
    )
    op.add_column("meetings", sa.Column("tables", sa.Integer, nullable=False, server_default="1"))
    op.add_column("meeting_players", sa.Column("table_no", sa.Integer, nullable=False, server_default="1"))
    op.add_column("meeting_players", sa.Column("seat", sa.Integer))
    op.add_column("games", sa.Column("table_no", sa.Integer, nullable=False, server_default="1"))
    op.add_column("games", sa.Column("round", sa.Integer))
    op.execute("UPDATE meeting_players SET seat = position + 1")
    op.execute("UPDATE games SET round = number")
    op.execute("INSERT INTO meeting_tables (meeting_id, table_no) SELECT id, 1 FROM meetings")
    not_null = sa.text("journal_game_id IS NOT NULL")
    op.create_index("games_by_journal", "games", ["meeting_id", "journal_game_id"], unique=True,
                    sqlite_where=not_null, postgresql_where=not_null)
    op.create_index("games_by_round", "games", ["meeting_id", "table_no", "round"], unique=True)
