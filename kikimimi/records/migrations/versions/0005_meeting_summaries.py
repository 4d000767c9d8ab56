"""v5: a summary of each player's games in each finished meeting, for standings of many players.

`meeting_summaries` holds, per finished meeting and player, the player's games packed one character
a game in the order their table played them (chr(64 + 2 * place + crashed)). It is derived from the
results and kept by the store as each meeting is finished; this step fills it for the meetings
already finished. Frozen here (not the store's code), so this step does what it did when released.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"

_BATCH = 5_000


def _summaries() -> Any:
    """(meeting id, player id, games) of every player of every finished meeting, from the results:
    a player's games are their table's games of the meeting's game, in round order."""
    rows = op.get_bind().execute(sa.text(
        """SELECT mp.meeting_id, mp.player_id, r.place, r.crashed
           FROM meetings m
           JOIN meeting_players mp ON mp.meeting_id = m.id
           LEFT JOIN games g ON g.meeting_id = m.id AND g.table_no = mp.table_no AND g.game = m.game
           LEFT JOIN results r ON r.game_id = g.id AND r.player_id = mp.player_id
           WHERE m.status = 'finished'
           ORDER BY mp.meeting_id, mp.player_id, g.round"""
    ))
    key: tuple[int, int] | None = None
    games: list[str] = []
    for meeting_id, player_id, place, crashed in rows:
        if (meeting_id, player_id) != key:
            if key is not None:
                yield {"meeting_id": key[0], "player_id": key[1], "games": "".join(games)}
            key, games = (meeting_id, player_id), []
        if place is not None:
            games.append(chr(64 + 2 * place + crashed))
    if key is not None:
        yield {"meeting_id": key[0], "player_id": key[1], "games": "".join(games)}


def upgrade() -> None:
    table = op.create_table(
        "meeting_summaries",
        sa.Column("meeting_id", sa.Integer, sa.ForeignKey("meetings.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("games", sa.Text, nullable=False),
    )
    rows = list(_summaries())  # read whole before writing: the connection runs one statement at a time
    for start in range(0, len(rows), _BATCH):
        op.bulk_insert(table, rows[start:start + _BATCH])
