"""Issue 31, item 6: `records import` derives the file's rank changes once at the end and reads each player
once; what it stores and says must be what the one-meeting-at-a-time path (start, record, finish) gives."""

from __future__ import annotations

import json
import random
import sqlite3

from kikimimi.records.importer import import_results, parse_sheets
from kikimimi.records.store import GameItem, RecordStore


def _sheet(meetings: int, seed: int) -> str:
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(7)]
    lines = []
    for m in range(meetings):
        who = rng.sample(players, 3)
        for game in range(1, 6):
            order = rng.sample(who, 3)
            lines.append(json.dumps({"meeting": f"m{m:02d}", "kind": "half", "date": f"2024-05-{1 + m % 28:02d}",
                                     "game": game, "results": [{"player": p, "place": k, "seat": who.index(p) + 1}
                                                               for k, p in enumerate(order, start=1)]}))
    return "\n".join(lines) + "\n"


def _stored(path) -> tuple[list, list, list]:
    with sqlite3.connect(path) as db:
        return [db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("meeting_summaries", "meeting_players", "results")]


def test_a_bulk_import_stores_and_says_what_meeting_by_meeting_gives(tmp_path):
    text = _sheet(40, seed=31)
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

    assert len(summary.imported) == 40 and len(changes) >= 3  # promotions happened, so the figures can differ
    assert summary.changes == changes
    assert bulk_ladder == each_ladder
    assert _stored(tmp_path / "bulk.sqlite") == _stored(tmp_path / "each.sqlite")
