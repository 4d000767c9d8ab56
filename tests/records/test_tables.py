"""A meeting over several tables: seats dealt by seat-choice order, results per table, joins, states."""

from __future__ import annotations

import json
import sqlite3

import pytest

from kikimimi.app.cli import main
from kikimimi.games.base import Outcome
from kikimimi.games.trident.ladder import Rank
from kikimimi.records import schema
from kikimimi.records.results import PlayerResult
from kikimimi.records.store import RecordError, RecordStore

SIX = ["Bob", "Dee", "Ann", "Eve", "Cid", "Fay"]


def win(*ranking: int) -> Outcome:
    return Outcome(ranking=ranking, winners=ranking[:1])


def results(*names: str) -> list[PlayerResult]:
    """The names best first; the first one wins."""
    return [PlayerResult(n, place, won=place == 1) for place, n in enumerate(names, start=1)]


@pytest.fixture
def store(records_url):
    with RecordStore(records_url) as s:
        yield s


@pytest.fixture
def ranked(store):
    """Ann a Bishop (ten wins in a full trial), Bob and Cid Apprentices; Dee, Eve and Fay are new."""
    mid = store.meetings.start("full", ["Ann", "Bob", "Cid"], add_unknown=True)
    for n in range(10):
        store.games.record_outcome(mid, {1: "Ann", 2: "Bob", 3: "Cid"}, win(1, 2, 3), f"warm-{n}")
    store.meetings.finish(mid)
    for name in ("Dee", "Eve", "Fay"):
        store.players.add(name)
    assert store.ladder.status("Ann").rank == Rank.BISHOP
    return store


def test_players_are_dealt_table_by_table_in_seat_choice_order(ranked):
    mid = ranked.meetings.start("half", SIX, tables=2)
    # Lowest first (the first newcomer listed), then the highest, then the rest from the top down.
    tables = ranked.tables.all(mid)
    assert [t.players for t in tables] == [("Dee", "Ann", "Bob"), ("Cid", "Eve", "Fay")]
    assert [t.table for t in tables] == [1, 2]
    assert all(t.games_due == 5 and t.games_played == 0 and t.controller is None for t in tables)
    info = ranked.meetings.get(mid)
    assert info.tables == 2 and info.players == ("Dee", "Ann", "Bob", "Cid", "Eve", "Fay")


def test_one_table_keeps_the_order_given(ranked):
    mid = ranked.meetings.start("half", ["Cid", "Dee", "Ann"])
    assert ranked.meetings.get(mid).players == ("Cid", "Dee", "Ann")
    assert [t.players for t in ranked.tables.all(mid)] == [("Cid", "Dee", "Ann")]


def test_a_game_without_a_ladder_keeps_the_order_given_over_tables(store):
    mid = store.meetings.start("contest", ["E", "D", "C", "B", "A"], game="nimmt", tables=2, add_unknown=True)
    assert [t.players for t in store.tables.all(mid)] == [("E", "D", "C"), ("B", "A")]


@pytest.mark.parametrize(
    ("players", "tables", "message"),
    [
        (12, 5, "12 players at 5 tables leaves tables of 2; trident seats 3"),
        (7, 2, "7 players at 2 tables leaves tables of 4; trident seats 3"),
        (6, 0, "at least one table"),
    ],
)
def test_tables_the_game_cannot_seat_are_refused(store, players, tables, message):
    with pytest.raises(RecordError, match=message):
        store.meetings.start("full", [f"P{n}" for n in range(players)], tables=tables, add_unknown=True)
    assert store.meetings.all() == []


def test_results_go_to_their_table_and_numbers_and_rounds_count_apart(ranked, sql):
    mid = ranked.meetings.start("half", SIX, tables=2)
    assert ranked.games.record(mid, results("Cid", "Eve", "Fay"), table=2, journal_game_id="t2-1") == 1
    assert ranked.games.record(mid, results("Ann", "Dee", "Bob"), table=1, journal_game_id="t1-1") == 2
    assert ranked.games.record(mid, results("Eve", "Cid", "Fay"), table=2, journal_game_id="t2-2") == 3
    rows = sql("SELECT number, table_no, round FROM games WHERE meeting_id = :m ORDER BY number", m=mid)
    assert rows == [(1, 2, 1), (2, 1, 1), (3, 2, 2)]
    assert [t.games_played for t in ranked.tables.all(mid)] == [1, 2]
    # A table replaying its outbox: the same journal game is the same game, nothing written.
    assert ranked.games.record(mid, results("Eve", "Cid", "Fay"), table=2, journal_game_id="t2-2") == 3
    assert ranked.meetings.get(mid).games_played == 3


def test_results_must_name_the_tables_players(ranked):
    mid = ranked.meetings.start("half", SIX, tables=2)
    with pytest.raises(RecordError, match="not the table 1's players"):
        ranked.games.record(mid, results("Cid", "Eve", "Fay"), table=1)
    with pytest.raises(RecordError, match="say at which table"):
        ranked.games.record(mid, results("Cid", "Eve", "Fay"))
    with pytest.raises(RecordError, match="tables 1 to 2, not table 3"):
        ranked.games.record(mid, results("Cid", "Eve", "Fay"), table=3)
    assert ranked.meetings.get(mid).games_played == 0


def test_a_trial_counts_its_games_per_table_and_finishes_when_every_table_has_them(ranked):
    mid = ranked.meetings.start("half", SIX, tables=2)
    for n in range(5):
        ranked.games.record_outcome(mid, {1: "Dee", 2: "Ann", 3: "Bob"}, win(2, 1, 3), f"a{n}", table=1)
    with pytest.raises(RecordError, match="table 1 has played all its 5 games"):
        ranked.games.record_outcome(mid, {1: "Dee", 2: "Ann", 3: "Bob"}, win(2, 1, 3), "a5", table=1)
    with pytest.raises(RecordError, match="table\\(s\\) 2 have not played their 5 games"):
        ranked.meetings.finish(mid)
    for n in range(5):
        ranked.games.record_outcome(mid, {1: "Cid", 2: "Eve", 3: "Fay"}, win(1, 2, 3), f"b{n}", table=2)
    ranked.meetings.finish(mid)
    assert ranked.meetings.get(mid).status == "finished"
    assert ranked.ladder.status("Ann").wins == 15 and ranked.ladder.status("Cid").wins == 5
    assert ranked.ladder.status("Eve").rank == Rank.APPRENTICE


def test_a_contest_stands_over_every_table(store):
    mid = store.meetings.start("contest", SIX, tables=2, add_unknown=True)
    first, second = (t.players for t in store.tables.all(mid))
    store.games.record(mid, results(*first), table=1)
    store.games.record(mid, results(*first), table=1)
    store.games.record(mid, results(*second), table=2)
    store.games.record(mid, results(*reversed(second)), table=2)
    changes = store.meetings.finish(mid)
    assert store.meetings.get(mid).winner == first[0]  # two wins; the other table's winners have one each
    assert any(c.player == first[0] for c in changes)


def test_tables_join_and_report_their_state(ranked):
    mid = ranked.meetings.start("half", SIX, tables=2)
    joined = ranked.tables.join(mid, 2, "table-pi-2")
    assert (joined.table, joined.controller, joined.players) == (2, "table-pi-2", ("Cid", "Eve", "Fay"))
    assert joined.joined_at is not None and joined.last_seen is not None
    ranked.tables.report_state(mid, 2, {"round": 1, "health": {"readers": "ok"}})
    ranked.tables.join(mid, 2, "table-pi-2b")  # a restarted controller joins again
    first, second = ranked.tables.all(mid)
    assert first.controller is None and first.state == {}
    assert second.controller == "table-pi-2b" and second.state == {"round": 1, "health": {"readers": "ok"}}
    with pytest.raises(RecordError, match="not plain data"):
        ranked.tables.report_state(mid, 1, {"when": object()})
    with pytest.raises(RecordError, match="not table 3"):
        ranked.tables.join(mid, 3, "x")
    ranked.meetings.abandon(mid)
    with pytest.raises(RecordError, match="abandoned"):
        ranked.tables.join(mid, 1, "late")


def test_a_version_three_database_gets_table_one_and_rounds(tmp_path, legacy_records):
    path = tmp_path / "legacy.sqlite"
    conn = legacy_records(3)
    conn.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, 'x')", [(1, "A"), (2, "B"), (3, "C")])
    conn.execute("INSERT INTO meetings (id, kind, held_at, game) VALUES (1, 'half', 'x', 'trident')")
    conn.executemany("INSERT INTO meeting_players VALUES (1, ?, ?)", [(1, 0), (2, 1), (3, 2)])
    for number in (1, 2):
        conn.execute("INSERT INTO games (id, meeting_id, number, journal_game_id, recorded_at, game)"
                     " VALUES (?, 1, ?, ?, 'x', 'trident')", (number, number, f"j{number}"))
        conn.executemany("INSERT INTO results (game_id, player_id, seat, place, won) VALUES (?, ?, ?, ?, ?)",
                         [(number, 1, 1, 1, 1), (number, 2, 2, 2, 0), (number, 3, 3, 3, 0)])
    conn.commit()
    conn.close()
    with RecordStore(path) as s:
        assert s.schema_version == schema.LATEST
        (table,) = s.tables.all(1)
        assert (table.players, table.games_played, s.meetings.get(1).tables) == (("A", "B", "C"), 2, 1)
        assert s.games.record(1, results("B", "A", "C"), journal_game_id="j2") == 2  # already there
        assert s.games.record(1, results("B", "A", "C"), journal_game_id="j3") == 3
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT number, table_no, round FROM games ORDER BY number").fetchall()
        assert rows == [(1, 1, 1), (2, 1, 2), (3, 1, 3)]


def test_meeting_start_over_tables_only_opens_it_and_show_lists_the_tables(tmp_path, capsys):
    db = ["--db", str(tmp_path / "records.sqlite")]
    code = main(["meeting", "start", "--trial", "half", "--tables", "2", "--players", "A,B,C,D,E,F", "--add-new", *db])
    out = capsys.readouterr().out
    assert code == 0
    assert "table 1: seat 1 A, seat 2 B, seat 3 C" in out and "table 2: seat 1 D, seat 2 E, seat 3 F" in out
    assert main(["meeting", "show", "--json", *db]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["meeting"]["tables"] == 2
    assert [t["players"] for t in shown["tables"]] == [["A", "B", "C"], ["D", "E", "F"]]
    assert main(["meeting", "show", *db]) == 0
    assert "not joined" in capsys.readouterr().out
    code = main(["meeting", "start", "--trial", "half", "--tables", "2", "--players", "A,B,C,D,E,F",
                 "--results", "-", *db])
    assert code == 2 and "played by its tables" in capsys.readouterr().err
    assert main(["meeting", "resume", "1", "--results", "-", *db]) == 1
    assert "played by its 2 tables" in capsys.readouterr().err


def test_every_players_status_at_once_is_each_players_own(ranked):
    mid = ranked.meetings.start("contest", SIX, tables=2)
    for table in ranked.tables.all(mid):
        ranked.games.record(mid, results(*table.players), table=table.table)
        crash_last = [PlayerResult(n, p, details={"crashed": True} if p == 3 else {})
                      for p, n in enumerate(table.players, 1)]
        ranked.games.record(mid, crash_last, table=table.table)
    ranked.meetings.finish(mid, contest_winner="Eve")
    everyone = ranked.ladder.by_name()
    assert everyone == {p.name: ranked.ladder.status(p.name) for p in ranked.players.all()}
    assert everyone["Eve"].contests_won == 1 and everyone["Ann"].wins == 10
    assert ranked.ladder.by_name(names=["eve"]) == {"Eve": everyone["Eve"]}


def test_history_rows_fold_into_each_players_games_packed_by_the_ladder():
    from kikimimi.games.trident.ladder import LADDER
    from kikimimi.records.repos.ladder import packed_meetings

    # (player, meeting, kind, held_at, winner, round, place, won, score, details), as the history query
    # hands them over: in round order; a player whose table played no game has one row of Nones.
    rows = [(1, 7, "half", "t", None, 1, 2, 0, 5, "{}"), (1, 7, "half", "t", None, 2, 1, 1, 0, "{}"),
            (1, 7, "half", "t", None, 3, 3, 0, 9, '{"crashed": true}'),
            (2, 7, "half", "t", None, None, None, None, None, None)]
    folded = list(packed_meetings(LADDER, rows))
    assert folded == [(1, 7, "half", "t", None, "DBG"), (2, 7, "half", "t", None, "")]
    assert [LADDER.unpack(c) for c in folded[0][-1]] == [LADDER.result(2, False, 5, {}), LADDER.result(1, True, 0, {}),
                                                          LADDER.result(3, False, 9, {"crashed": True})]
