"""Meeting summaries (each player's games of a finished meeting, packed) are a cache of the results: what
finishing a meeting writes equals what the results give, standings read from them equal each player's
status replayed from the results, and a database whose summaries were rebuilt, lost or filled by the
migration reads the same."""

from __future__ import annotations

import contextlib
import itertools
import random
import sqlite3

import pytest
import sqlalchemy as sa

from kikimimi.games.trident.ladder import pack_game
from kikimimi.records import schema
from kikimimi.records.results import PlayerResult
from kikimimi.records.store import RecordStore
from testbed.pgcluster import create_database

NINE = [f"P{n}" for n in range(1, 10)]


def one_game(names: list[str], rng: random.Random) -> list[PlayerResult]:
    """A Trident game's results: shuffled places, sometimes the last one crashed (then nobody wins)."""
    order = rng.sample(names, len(names))
    crashed = rng.random() < 0.3
    return [PlayerResult(n, place, won=not crashed and place == 1,
                         details={"crashed": True} if crashed and place == len(order) else {})
            for place, n in enumerate(order, start=1)]


def play(store: RecordStore, seed: int = 1) -> dict[str, list[int]]:
    """Finished trials at one and at three tables (the last table's games reported first), a contest,
    an abandoned and an open meeting; returns the meeting ids by status."""
    rng = random.Random(seed)
    made: dict[str, list[int]] = {"finished": [], "abandoned": [], "open": []}
    for n in range(8):
        names = rng.sample(NINE, 3)
        mid = store.meetings.start("full" if n % 2 else "half", names, add_unknown=True, held_at=f"2024-01-{n + 1:02d}")
        for _ in range(store.meetings.get(mid).games_due):
            store.games.record(mid, one_game(names, rng))
        store.meetings.finish(mid)
        made["finished"].append(mid)
    mid = store.meetings.start("half", NINE, tables=3, held_at="2024-02-01")
    for table in reversed(store.tables.all(mid)):
        for _ in range(5):
            store.games.record(mid, one_game(list(table.players), rng), table=table.table)
    store.meetings.finish(mid)
    made["finished"].append(mid)
    mid = store.meetings.start("contest", NINE[:6], tables=2, held_at="2024-02-02")
    table = store.tables.all(mid)[0]  # only table 1 plays: table 2's players have no games
    store.games.record(mid, one_game(list(table.players), rng), table=1)
    store.meetings.finish(mid, contest_winner=NINE[5])
    made["finished"].append(mid)
    for status in ("abandoned", "open"):
        mid = store.meetings.start("half", NINE[:3], held_at="2024-03-01")
        store.games.record(mid, one_game(NINE[:3], rng))
        if status == "abandoned":
            store.meetings.abandon(mid)
        made[status].append(mid)
    return made


def summaries(url: str) -> dict[tuple[int, int], str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return {(m, p): g for m, p, g in conn.execute(sa.text(
                "SELECT meeting_id, player_id, games FROM meeting_summaries"))}
    finally:
        engine.dispose()


def execute(url: str, *statements: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def from_results(store: RecordStore) -> dict[tuple[int, int], str]:
    """Every finished meeting's packed games per player, as the results give them (`history`)."""
    found = {}
    for player in store.players.all():
        for meeting in store.ladder.history(player.name):
            found[(meeting.meeting_id, player.id)] = "".join(pack_game(g.place, g.crashed) for g in meeting.games)
    return found


def replayed(store: RecordStore) -> dict[str, object]:
    """Each player's status replayed on its own from the results (the reference)."""
    return {p.name: store.ladder.status(p.name) for p in store.players.all()}


_COPIES = itertools.count(1)
_PLAYED = "summaries_played"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def played_once(request, tmp_path_factory):
    """The meetings of `play` recorded once per database kind for the module: recording them is the slow part
    (3 to 15 s a time on a loaded machine), and each test changes its own copy (`played`)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('played') / 'records.sqlite'}"
    else:
        url = create_database(request.getfixturevalue("postgres_cluster"), _PLAYED)
    with RecordStore(url) as store:
        made = play(store)
    return url, made


@pytest.fixture
def played(played_once, tmp_path):
    """A copy of the played database of the test's own: SQLite through its backup API (whatever its journal
    mode), PostgreSQL as a new database made from the played one as its template."""
    url, made = played_once
    if url.startswith("sqlite"):
        copy = tmp_path / "records.sqlite"
        with contextlib.closing(sqlite3.connect(sa.make_url(url).database)) as source, \
                contextlib.closing(sqlite3.connect(copy)) as target:
            source.backup(target)
        return f"sqlite:///{copy}", made
    return create_database(url, f"summaries_{next(_COPIES)}", template=_PLAYED), made


def test_finishing_a_meeting_summarizes_what_its_results_give(played):
    url, made = played
    with RecordStore(url) as store:
        expected = from_results(store)
        assert summaries(url) == expected
        assert {mid for mid, _ in expected} == set(made["finished"])  # open and abandoned: none
        tables = {(mid, pid): games for (mid, pid), games in expected.items() if mid == made["finished"][-2]}
        assert len(tables) == 9 and {len(g) for g in tables.values()} == {5}
        contest = {pid: games for (mid, pid), games in expected.items() if mid == made["finished"][-1]}
        assert sorted(map(len, contest.values())) == [0, 0, 0, 1, 1, 1]  # table 2 played nothing
        assert store.ladder.by_name() == replayed(store)


def test_standings_from_a_fresh_store_equal_each_players_replay(played):
    url, made = played
    with RecordStore(url) as store:
        statuses = store.ladder.by_name()
        assert statuses == replayed(store)
        assert any(s.crashes for s in statuses.values()) and statuses["P6"].contests_won == 1
    with RecordStore(url) as store:  # a later meeting: read incrementally, still the reference
        mid = store.meetings.start("half", NINE[:3], held_at="2023-12-31")  # held before all the others
        rng = random.Random(9)
        for _ in range(5):
            store.games.record(mid, one_game(NINE[:3], rng))
        store.ladder.by_name()
        store.meetings.finish(mid)
        assert store.ladder.by_name() == replayed(store)
        assert summaries(url) == from_results(store)


def test_rebuilt_summaries_are_the_same_and_read_the_same(played):
    url, _ = played
    with RecordStore(url) as store:
        before, statuses = summaries(url), store.ladder.by_name()
    execute(url, "UPDATE meeting_summaries SET games = ''", "DELETE FROM meeting_summaries WHERE player_id = 1")
    with RecordStore(url) as store:
        assert store.ladder.by_name() != statuses  # the store believes its summaries
        assert store.summaries.rebuild() == len(before)
        assert summaries(url) == before
        assert store.ladder.by_name() == statuses == replayed(store)


def test_a_finished_meeting_without_summaries_is_read_from_its_results(played):
    url, made = played
    execute(url, f"DELETE FROM meeting_summaries WHERE meeting_id IN ({made['finished'][0]}, {made['finished'][-2]})")
    with RecordStore(url) as store:
        assert store.ladder.by_name() == replayed(store)
    execute(url, "DELETE FROM meeting_summaries")
    with RecordStore(url) as store:
        assert store.ladder.by_name() == replayed(store)


def test_migration_five_fills_the_summaries_of_meetings_finished_before(fresh_records_url, schema_five):
    url = fresh_records_url
    with RecordStore(url) as store:
        play(store, seed=2)
        expected = summaries(url)
        statuses = store.ladder.by_name()
    # The same database as kikimimi at schema version 4 left it: the crash in its column, no summaries table.
    schema_five(url)
    execute(url, "DROP TABLE meeting_summaries", "UPDATE alembic_version SET version_num = '0004'")
    if url.startswith("sqlite"):
        execute(url, "PRAGMA user_version = 4")
    with RecordStore(url) as store:
        assert store.schema_version == schema.LATEST == 6
        assert summaries(url) == expected
        assert store.ladder.by_name() == statuses == replayed(store)
