"""Schema version 6 keeps no game's words, and loses no result or rank on the way (issue 23.6).

`data/records-v5.sqlite` was made by kikimimi at schema version 5 (a result's crash in its own
column): fifteen meetings of the Trident (full and half trials, a contest and a trial over two tables,
crashes, a demotion, a player addressed as a queen), an abandoned and an open meeting, a meeting of
6 nimmt!. `data/records-v5.json` is what that program read from it: every player's status and
changes, the seat order, each meeting's standings, results and changes. Opening a copy with this
kikimimi migrates it; what it reads must be exactly that. The same rows, taken back to version 5's
shape on PostgreSQL, must migrate there to the same.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from kikimimi.records import schema
from kikimimi.records.kinds import ladder
from kikimimi.records.standings import standings
from kikimimi.records.store import RecordStore

DATA = Path(__file__).parent / "data"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def what_it_reads(store: RecordStore) -> dict[str, Any]:
    """What the version 5 program read (see the module), in the shape it wrote it."""
    read: dict[str, Any] = {
        "statuses": {n: s.as_dict() for n, s in store.ladder.by_name("trident").items()},
        "replays": {n: [c.as_dict() for c in store.ladder.replay(n, "trident").changes] for n in NAMES},
        "seat_order": store.meetings.seat_choice_order(NAMES, "trident"),
        "meetings": {},
    }
    for m in store.meetings.all():
        games = store.games.in_meeting(m.id)
        read["meetings"][str(m.id)] = {
            "status": m.status, "game": m.game, "winner": m.winner,
            "standings": [s.as_dict() for s in standings(games, m.players, ladder(m.game))],
            # version 5 kept the crash beside the details: (player, place, crashed, seat, score, won, details)
            "results": [[g.number, [[r.player, r.place, r.details.get("crashed") is True, r.seat, r.score, r.won,
                                     {k: v for k, v in r.details.items() if k != "crashed"}]
                                    for r in g.results], g.details] for g in games],
            "changes": [c.text() for c in store.ladder.changes(m.id)] if m.status == "finished" else [],
        }
    return json.loads(json.dumps(read, ensure_ascii=False, sort_keys=True))  # as the file holds it


def expected() -> dict[str, Any]:
    """What version 5 read, less what its standings said of every game in the Trident's words: a game
    without a ladder showed `crashes` and `pieces` (always 0) and `points` (its score again); now its
    standings show its score alone."""
    read = json.loads((DATA / "records-v5.json").read_text(encoding="utf-8"))
    for meeting in read["meetings"].values():
        if ladder(meeting["game"]) is None:
            for row in meeting["standings"]:
                assert (row.pop("crashes"), row.pop("pieces"), row.pop("points")) == (0, 0, row["score"])
    return read


def test_a_version_five_file_opened_is_migrated_and_reads_exactly_as_before(tmp_path):
    path = tmp_path / "records.sqlite"
    shutil.copyfile(DATA / "records-v5.sqlite", path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT COUNT(*), SUM(crashed) FROM results").fetchone() == (304, 34)
    with RecordStore(path, create=False) as store:
        assert store.schema_version == schema.LATEST == 6
        read = what_it_reads(store)
    assert read == expected()
    statuses = read["statuses"]
    assert statuses["Cid"]["demotions"] == 1 and statuses["Bob"]["title_form"] == "queen"  # the file has both
    with sqlite3.connect(path) as raw:
        columns = {r[1] for r in raw.execute("PRAGMA table_info(results)")}
        assert {"crashed", "pieces", "points"}.isdisjoint(columns)
        tables = "".join(r[0] for r in raw.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))
        assert "king" not in tables and "crashed" not in tables
        assert raw.execute("SELECT COUNT(*) FROM results WHERE details LIKE '%\"crashed\": true%'").fetchone() == (34,)
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
    with RecordStore(path, create=False) as again:  # a migrated file opens as it is, and a new player still fits
        again.players.add("Gus", "queen")
        assert again.players.get("Gus").title_form == "queen"


def test_a_version_five_database_on_postgresql_migrates_to_the_same(tmp_path, postgres_cluster, schema_five):
    from testbed.pgcluster import create_database

    path = tmp_path / "records.sqlite"
    shutil.copyfile(DATA / "records-v5.sqlite", path)
    RecordStore(path, create=False).close()
    url = create_database(postgres_cluster, "records_v5_migration")
    RecordStore(url).close()  # the schema at version 6
    source, target = sa.create_engine(f"sqlite:///{path}"), sa.create_engine(url)
    try:
        with source.connect() as read, target.begin() as write:
            for name in ("players", "meetings", "meeting_players", "meeting_tables", "games", "results",
                         "meeting_summaries"):  # each after those it refers to
                table = schema.metadata.tables[name]
                rows = [dict(row._mapping) for row in read.execute(sa.select(table))]
                if rows:
                    write.execute(table.insert(), rows)
    finally:
        source.dispose()
        target.dispose()
    schema_five(url)  # as kikimimi at version 5 kept these rows
    with RecordStore(url) as store:
        assert store.schema_version == 6
        assert what_it_reads(store) == expected()
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            columns = {c["name"] for c in sa.inspect(conn).get_columns("results")}
            checks = [c["name"] for c in sa.inspect(conn).get_check_constraints("players")]
    finally:
        engine.dispose()
    assert {"crashed", "pieces", "points"}.isdisjoint(columns) and "players_title_form" not in checks
