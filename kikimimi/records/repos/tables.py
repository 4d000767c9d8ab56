"""A meeting's tables at a venue: who controls each and the state it last reported."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from kikimimi.records.model import TableInfo, now
from kikimimi.records.names import RecordError, unshown_character
from kikimimi.records.queries import played_by_table, seated
from kikimimi.records.schema import meeting_tables as MT

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore


class TableRepository:
    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def all(self, meeting_id: int) -> list[TableInfo]:
        """Each table of a meeting: its players by seat, games played, controller and last state."""
        info = self._store.meetings.get(meeting_id)
        with self._store.reading() as conn:
            players = seated(conn, meeting_id)
            played = played_by_table(conn, meeting_id)
            rows = conn.execute(
                sa.select(MT).where(MT.c.meeting_id == meeting_id).order_by(MT.c.table_no)
            ).all()
        return [
            TableInfo(meeting_id, row.table_no, tuple(name for _, name in players.get(row.table_no, ())),
                      played.get(row.table_no, 0), info.games_due, row.controller, row.joined_at, row.last_seen,
                      json.loads(row.state or "{}"))
            for row in rows
        ]

    def get(self, meeting_id: int, table: int) -> TableInfo:
        """One table of a meeting; refuses a table the meeting does not have."""
        found = self.all(meeting_id)
        if not 1 <= table <= len(found):
            raise RecordError(f"meeting {meeting_id} has tables 1 to {len(found)}, not table {table}")
        return found[table - 1]

    def join(self, meeting_id: int, table: int, controller: str) -> TableInfo:
        """Record that `controller` runs `table` of an open meeting (joining again, as after a
        restart, just records it again)."""
        self._store.meetings.get_open(meeting_id)
        self.get(meeting_id, table)
        controller = " ".join(str(controller).split())
        if not controller or unshown_character(controller) is not None:
            raise RecordError(f"a table's controller needs a printable name, not {controller!r}")
        joined = now()
        with self._store.writing() as conn:
            conn.execute(MT.update().where(MT.c.meeting_id == meeting_id, MT.c.table_no == table)
                         .values(controller=controller, joined_at=joined, last_seen=joined))
        return self.get(meeting_id, table)

    def report_state(self, meeting_id: int, table: int, state: Mapping[str, Any]) -> None:
        """Keep the state a table reported (what it plays now, its health); sets its last_seen."""
        self.get(meeting_id, table)
        try:
            text = json.dumps(dict(state), ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise RecordError(f"meeting {meeting_id} table {table}: its state is not plain data: {exc}") from None
        with self._store.writing() as conn:
            conn.execute(MT.update().where(MT.c.meeting_id == meeting_id, MT.c.table_no == table)
                         .values(state=text, last_seen=now()))
