"""A host's group commit (`store.games.record_many`): several games of a meeting in one transaction,
each counted once, numbered and rounded without gaps, a refused game refused alone; on both stores."""

from __future__ import annotations

import threading
from dataclasses import replace

import sqlalchemy

from kikimimi.games.trident.ladder import LADDER
from kikimimi.records.results import results_from_outcome
from kikimimi.records.store import GameItem, Recorded, RecordError, RecordStore
from kikimimi_bench.standings import table_outcomes

PLAYERS = [f"P{n:02d}" for n in range(6)]


def _items(store: RecordStore, meeting: int, table: int, journal_ids: list[str], seed: int = 3) -> list[GameItem]:
    seats = store.tables.get(meeting, table).seat_players
    outcomes = table_outcomes(table, len(journal_ids), seed)
    return [GameItem(results_from_outcome(seats, o, LADDER), jid, o.reason, {}, table)
            for jid, o in zip(journal_ids, outcomes, strict=True)]


def test_a_batch_counts_each_game_once_and_refuses_a_bad_one_alone(records_url, sql):
    with RecordStore(records_url) as store:
        meeting = store.meetings.start("half", PLAYERS, tables=2, add_unknown=True)
        a, c = _items(store, meeting, 1, ["a", "c"])
        b, d = _items(store, meeting, 2, ["b", "d"])
        strangers = GameItem(b.results, "x", "", {}, 1)  # table 2's players reported by table 1
        broken = GameItem(tuple(replace(r, place=1) for r in a.results), "y", "", {}, 1)  # three firsts
        first = store.games.record_many(meeting, [a, b, a, strangers, broken, d, c])
        assert first[:3] == [Recorded(1, 1), Recorded(2, 1), Recorded(1, 1, True)]
        assert isinstance(first[3], RecordError) and "are not the table 1's players" in str(first[3])
        assert isinstance(first[4], RecordError) and "table 1 game 1" in str(first[4])
        assert first[5:] == [Recorded(3, 2), Recorded(4, 2)]
        # Later batches: recorded games are duplicates; the refused one can come right; a table past
        # its trial's five games is refused, game by game.
        more = _items(store, meeting, 1, ["a", "e", "f", "g", "h"], seed=4)
        second = store.games.record_many(meeting, [more[0], GameItem(a.results, "x", "", {}, 1), *more[1:]])
        assert second[:5] == [Recorded(1, 1, True), Recorded(5, 3), Recorded(6, 4), Recorded(7, 5), second[4]]
        assert isinstance(second[5], RecordError) and "all its 5 games" in str(second[5])
    games = sql("SELECT number, table_no, round, journal_game_id FROM games WHERE meeting_id = :m ORDER BY number",
                m=meeting)
    assert games == [(1, 1, 1, "a"), (2, 2, 1, "b"), (3, 2, 2, "d"), (4, 1, 2, "c"), (5, 1, 3, "x"),
                     (6, 1, 4, "e"), (7, 1, 5, "f")]
    assert sql("SELECT COUNT(*) FROM results") == [(7 * 3,)]


def test_batches_racing_over_the_same_games_record_each_once(records_url, sql):
    with RecordStore(records_url) as store:
        meeting = store.meetings.start("full", PLAYERS, tables=2, add_unknown=True)
        items = _items(store, meeting, 1, [f"t1-{n}" for n in range(10)]) + \
            _items(store, meeting, 2, [f"t2-{n}" for n in range(10)])
    answers: list[list[Recorded | RecordError]] = []
    start = threading.Barrier(3)

    def writer(batch: list[GameItem]) -> None:
        with RecordStore(records_url) as mine:
            start.wait()
            for n in range(0, len(batch), 4):  # several batches each, overlapping the other writers'
                answers.append(mine.games.record_many(meeting, batch[n:n + 4]))

    # Each writer sends every game of its tables in order; two send table 1's, two table 2's.
    threads = [threading.Thread(target=writer, args=(part,)) for part in (items[:10], items, items[10:])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    got = [a for batch in answers for a in batch]
    assert all(isinstance(a, Recorded) for a in got), got
    assert len(got) == 40 and sum(not a.duplicate for a in got) == 20  # type: ignore[union-attr]
    games = sql("SELECT number, table_no, round, journal_game_id FROM games WHERE meeting_id = :m ORDER BY number",
                m=meeting)
    assert [g[0] for g in games] == list(range(1, 21))
    for table in (1, 2):
        assert sorted((r, j) for _, t, r, j in games if t == table) == [(n + 1, f"t{table}-{n}") for n in range(10)]


def test_a_game_the_database_refuses_goes_alone(records_url, sql):
    with RecordStore(records_url) as store:
        meeting = store.meetings.start("full", PLAYERS, tables=2, add_unknown=True)
        one, two = _items(store, meeting, 1, ["a", "b"])
        (other,) = _items(store, meeting, 2, ["c"])
    # A game written by hand at table 2's round 2: the table's next game (its second) takes round 2 too,
    # which the database's unique (meeting, table, round) refuses; the games around it are recorded.
    engine = sqlalchemy.create_engine(records_url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(
            "INSERT INTO games (meeting_id, number, table_no, round, reason, recorded_at, details) "
            "VALUES (:m, 7, 2, 2, 'by hand', '2026-11-22', '{}')"), {"m": meeting})
    engine.dispose()
    with RecordStore(records_url) as store:
        found = store.games.record_many(meeting, [one, other, two])
    assert found[0] == Recorded(8, 1) and found[2] == Recorded(9, 2)  # no number lost to the refused one
    assert isinstance(found[1], RecordError) and "table 2" in str(found[1]) and "refused" in str(found[1])
    assert sql("SELECT number, journal_game_id FROM games WHERE meeting_id = :m ORDER BY number", m=meeting) == \
        [(7, None), (8, "a"), (9, "b")]
    assert sql("SELECT COUNT(*) FROM results") == [(6,)]
