"""Each finished meeting's summaries: one row per player, their games packed by the game's ladder, written
as the meeting is finished so that a ladder's read is one row per player and meeting. Derived: the
results are the truth, and the summaries can be written again from them."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from kikimimi.records.kinds import ladder
from kikimimi.records.queries import FEW, history_rows_query, ladder_games_in
from kikimimi.records.repos.ladder import packed_meetings
from kikimimi.records.schema import meeting_summaries as S
from kikimimi.records.schema import meetings as M

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore


class SummaryRepository:
    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def write(self, conn: sa.Connection, meeting_ids: Collection[int] | None = None) -> int:
        """Write the summaries of finished meetings (None: of every finished meeting of every game with a
        ladder) from their results, in the caller's transaction, packed by the game's ladder; returns how
        many rows."""
        wanted = None if meeting_ids is None else set(meeting_ids)
        few = wanted is not None and len(wanted) <= FEW  # more are read whole, and picked here
        rows: list[dict[str, Any]] = []
        for game in ladder_games_in(conn, sorted(wanted) if few and wanted is not None else None):
            rules = ladder(game)
            if rules is None:
                continue
            query = history_rows_query(game)
            if few and wanted is not None:
                query = query.where(M.c.id.in_(sorted(wanted)))
            rows += [{"meeting_id": mid, "player_id": pid, "games": packed}
                     for pid, mid, *_, packed in packed_meetings(rules, conn.execute(query))
                     if wanted is None or mid in wanted]
        if wanted is None:
            conn.execute(S.delete())
        else:
            ordered = sorted(wanted)
            for start in range(0, len(ordered), FEW):
                conn.execute(S.delete().where(S.c.meeting_id.in_(ordered[start:start + FEW])))
        for start in range(0, len(rows), 10_000):
            conn.execute(S.insert(), rows[start:start + 10_000])
        return len(rows)

    def rebuild(self) -> int:
        """Write every finished meeting's summaries again from the results (after editing results by
        hand: the summaries are derived, the results are the truth); returns how many rows."""
        with self._store.writing() as conn:
            count = self.write(conn)
        self._store.ladder.forget()
        return count
