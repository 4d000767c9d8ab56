"""v1: players, meetings (full trial, half trial, contest), games linked to the journal, results.

A player's name is unique regardless of case: SQLite's NOCASE collation (as the first kikimimi made
it), PostgreSQL's unique index on lower(name).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text(collation="NOCASE") if sqlite else sa.Text(), nullable=False, unique=sqlite),
        sa.Column("title_form", sa.Text, nullable=False, server_default="king"),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.CheckConstraint("title_form IN ('king', 'queen')", name="players_title_form"),
    )
    if not sqlite:
        op.create_index("players_by_lower_name", "players", [sa.text("lower(name)")], unique=True)
    op.create_table(
        "meetings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("label", sa.Text, unique=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("held_at", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="open"),
        sa.Column("finished_at", sa.Text),
        sa.Column("winner_id", sa.Integer, sa.ForeignKey("players.id")),
        sa.CheckConstraint("kind IN ('full', 'half', 'contest')", name="meetings_kind"),
        sa.CheckConstraint("status IN ('open', 'finished', 'abandoned')", name="meetings_status"),
    )
    op.create_table(
        "meeting_players",
        sa.Column("meeting_id", sa.Integer, sa.ForeignKey("meetings.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("meeting_id", sa.Integer, sa.ForeignKey("meetings.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("journal_game_id", sa.Text),
        sa.Column("reason", sa.Text, nullable=False, server_default=""),
        sa.Column("recorded_at", sa.Text, nullable=False),
        sa.UniqueConstraint("meeting_id", "number"),
    )
    op.create_table(
        "results",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("seat", sa.Integer),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("crashed", sa.Integer, nullable=False, server_default="0"),
        sa.Column("pieces", sa.Integer),
        sa.Column("points", sa.Integer),
        sa.CheckConstraint("place >= 1", name="results_place"),
        sa.CheckConstraint("crashed IN (0, 1)", name="results_crashed"),
        sa.UniqueConstraint("game_id", "place"),
    )
