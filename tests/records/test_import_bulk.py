"""Issue 31, item 6: `records import` derives the file's rank changes once at the end and reads each player
once; what it stores and says must be what the one-meeting-at-a-time path (start, record, finish) gives."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
import sqlalchemy as sa

from kikimimi.records.importer import import_results, parse_sheets
from kikimimi.records.store import GameItem, RecordStore


def _sheet(meetings: int, seed: int, kind: str = "half") -> str:
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(7)]
    lines = []
    for m in range(meetings):
        who = rng.sample(players, 3)
        for game in range(1, 6 if kind == "half" else 4):
            order = rng.sample(who, 3) if kind == "half" or game == 3 else [who[0], *rng.sample(who[1:], 2)]
            lines.append(json.dumps({"meeting": f"m{m:02d}", "kind": kind, "date": f"2024-05-{1 + m % 28:02d}",
                                     "game": game, "results": [{"player": p, "place": k, "seat": who.index(p) + 1}
                                                               for k, p in enumerate(order, start=1)]}))
    return "\n".join(lines) + "\n"


def _stored(path) -> list[list]:
    with sqlite3.connect(path) as db:
        return [db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("meeting_summaries", "meeting_players", "results")] + \
            [db.execute("SELECT id, label, kind, held_at, status, winner_id, game FROM meetings ORDER BY id")
             .fetchall()]


@pytest.mark.parametrize("kind", ["half", "contest"])
def test_a_bulk_import_stores_and_says_what_meeting_by_meeting_gives(tmp_path, kind):
    """Contests too (their first player wins 2 of 3 games): each one's winner is the top of its standings,
    found before anything is written."""
    text = _sheet(40, seed=31, kind=kind)
    (tmp_path / "r.jsonl").write_text(text)
    with RecordStore(tmp_path / "bulk.sqlite") as store:
        summary = import_results(store, tmp_path / "r.jsonl")
        bulk_ladder = store.ladder.by_name()

    changes: list[str] = []
    with RecordStore(tmp_path / "each.sqlite") as store:
        for sheet in sorted(parse_sheets(text.splitlines()), key=lambda s: (s.held_at, s.first_line)):
            meeting = store.meetings.start(sheet.kind, sheet.players, game=sheet.game, label=sheet.label,
                                          held_at=sheet.held_at, add_unknown=True)
            store.games.record_many(meeting, [GameItem(r) for r in sheet.ordered()])
            store.meetings.settle(meeting)
            # Each player's ladder replayed when the meeting is finished, as `meetings.finish` did before.
            changes += [c.text() for name in store.meetings.get(meeting).players
                        for c in store.ladder.replay(name, sheet.game).changes_in(meeting)]
        each_ladder = store.ladder.by_name()

    assert len(summary.imported) == 40 and len(changes) >= (3 if kind == "half" else 0)  # promotions: figures move
    assert summary.changes == changes
    assert bulk_ladder == each_ladder
    assert _stored(tmp_path / "bulk.sqlite") == _stored(tmp_path / "each.sqlite")


def _statements(tmp_path, meetings: int) -> int:
    path = tmp_path / f"{meetings}.jsonl"
    path.write_text(_sheet(meetings, seed=7))
    sent: list[str] = []

    def count(_conn, statement, *_args) -> None:  # one per statement the store asks for (an executemany: one)
        sent.append(str(statement))

    with RecordStore(tmp_path / f"{meetings}.sqlite") as store:
        sa.event.listen(sa.Engine, "before_execute", count)
        try:
            assert len(import_results(store, path).imported) == meetings
        finally:
            sa.event.remove(sa.Engine, "before_execute", count)
    return len(sent)


def test_a_files_meetings_take_statements_that_do_not_grow_with_their_number(tmp_path):
    """Taken one by one, a meeting cost about 30 statements (2,000 of them: 22.8 s of CPU): the meetings of a
    file are now written together, so 30 more meetings add no statement for themselves (the 7 players'
    ladders are replayed once each, whatever the number of meetings)."""
    few, many = _statements(tmp_path, 10), _statements(tmp_path, 40)
    assert many - few < 30, (few, many)  # one by one, about 900 more

