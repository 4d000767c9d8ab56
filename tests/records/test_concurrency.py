"""Many tables writing results at once (issue 16, item 1): four processes, each a table of one meeting,
report their games at the same moment (some twice, at once); every game is counted exactly once and
the ranks derived from the store are those of the same games recorded one after another."""

from __future__ import annotations

import multiprocessing

from kikimimi.games.trident.ladder import LADDER
from kikimimi.records.results import results_from_outcome
from kikimimi.records.store import RecordStore
from kikimimi_bench.standings import report_table_process, table_outcomes

PLAYERS = [f"P{n:02d}" for n in range(12)]
TABLES, GAMES, SEED = 4, 10, 7


def test_four_tables_reporting_at_once_count_every_game_once(records_url, sql, tmp_path):
    with RecordStore(records_url) as store:
        meeting = store.meetings.start("full", PLAYERS, tables=TABLES, add_unknown=True)
    spawn = multiprocessing.get_context("spawn")
    start, out = spawn.Barrier(TABLES), spawn.Queue()
    processes = [
        spawn.Process(target=report_table_process, args=(out, records_url, meeting, table, GAMES, SEED, start))
        for table in range(1, TABLES + 1)
    ]
    for process in processes:
        process.start()
    reported = dict(out.get(timeout=120) for _ in processes)
    for process in processes:
        process.join(timeout=30)
    assert all(isinstance(numbers, list) for numbers in reported.values()), reported
    # Rounds 3, 6 and 9 were reported twice at once; both reports got the one game's number.
    assert all(len(numbers) == GAMES + 3 and len(set(numbers)) == GAMES for numbers in reported.values())

    games = sql("SELECT number, table_no, round, journal_game_id FROM games WHERE meeting_id = :m ORDER BY number",
                m=meeting)
    assert [number for number, *_ in games] == list(range(1, TABLES * GAMES + 1))  # unique, no gaps
    for table in range(1, TABLES + 1):
        mine = sorted((round_no, journal) for _, t, round_no, journal in games if t == table)
        assert mine == [(r, f"table{table}-game{r}") for r in range(1, GAMES + 1)]  # each once, in its order
    assert sql("SELECT COUNT(*) FROM results") == [(TABLES * GAMES * 3,)]

    with RecordStore(records_url) as store:
        store.meetings.finish(meeting)
        concurrent = {name: status.as_dict() for name, status in store.ladder.by_name().items()}
        tables = store.tables.all(meeting)
    with RecordStore(tmp_path / "one-by-one.sqlite") as alone:  # the same games, one process, in turn
        again = alone.meetings.start("full", PLAYERS, tables=TABLES, add_unknown=True)
        for table in tables:
            for outcome in table_outcomes(table.table, GAMES, SEED):
                results = results_from_outcome(table.seat_players, outcome, LADDER)
                alone.games.record(again, results, table=table.table)
        alone.meetings.finish(again)
        assert {name: status.as_dict() for name, status in alone.ladder.by_name().items()} == concurrent
    assert any(status["wins"] >= 4 for status in concurrent.values())  # the games did move the ladder
