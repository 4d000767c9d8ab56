"""v2: a player's history and a meeting's games are read on every status; index them."""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_index("results_by_player", "results", ["player_id", "game_id"])
    op.create_index("games_by_meeting", "games", ["meeting_id", "number"])
    op.create_index("meetings_by_time", "meetings", ["status", "held_at", "id"])
