"""v3: records keep every game's results.

Meetings and games name their game (rows from before were all the default game, taken from the
registry, never a name written here); a game keeps its outcome's details that belong to no seat; a
result keeps the seat's score in the game's own unit, whether it won (several seats share a win; a
game that ended with no winner has none) and the seat's own details as JSON. `place` stays the
seat's index in the game's ranking. v1's `points` and `pieces` move into `score` and `details` and
are no longer written; `crashed` stays a column.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kikimimi.games.registry import DEFAULT_GAME

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("meetings", sa.Column("game", sa.Text))
    op.add_column("games", sa.Column("game", sa.Text))
    op.add_column("games", sa.Column("details", sa.Text, nullable=False, server_default="{}"))
    op.add_column("results", sa.Column("score", sa.Integer))
    op.add_column("results", sa.Column("won", sa.Integer, sa.CheckConstraint("won IN (0, 1)"), nullable=False,
                                       server_default="0"))
    op.add_column("results", sa.Column("details", sa.Text, nullable=False, server_default="{}"))
    op.create_index("meetings_by_game", "meetings", ["game", "status", "held_at", "id"])
    op.create_index("games_by_game", "games", ["game", "meeting_id"])
    op.execute(sa.text("UPDATE meetings SET game = :game").bindparams(game=DEFAULT_GAME))
    op.execute(sa.text("UPDATE games SET game = :game").bindparams(game=DEFAULT_GAME))
    # Before v3 every game was the Trident's shape: a 1st place went out and won, unless someone
    # crashed (then the game ended with no one out, as the engine's outcome says).
    op.execute(
        """UPDATE results SET
               score = points,
               details = CASE WHEN pieces IS NULL THEN '{}'
                              ELSE '{"pieces": ' || CAST(pieces AS TEXT) || '}' END,
               won = CASE WHEN place = 1 AND NOT EXISTS (
                   SELECT 1 FROM results c WHERE c.game_id = results.game_id AND c.crashed = 1) THEN 1 ELSE 0 END"""
    )
