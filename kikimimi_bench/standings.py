"""Standings recomputation: every player's ladder status over many players' results (SQLite or PostgreSQL).

`kikimimi bench standings --players 10000 --games 100` loads synthetic results of the default game
(outcomes of its real bot games, recycled; full trials of three, bulk inserts, then the meeting
summaries written from them as `store.summaries.rebuild()` does) into a fresh database, then times
`store.ladder.by_name()` several times: a first read by a store opened anew each time (every
finished meeting read from the database, every player replayed) and the reads after one more meeting
is finished (only its players replayed again). `--db URL` measures an existing empty database;
`--postgres` starts a throwaway PostgreSQL server with fsync on. Also here: a simulated table
reporting its games, which the concurrency test runs in several processes at once.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from kikimimi.benchclock import Stopwatch, load_average
from kikimimi.games.base import Outcome
from kikimimi.games.conformance import play_bot_game
from kikimimi.games.registry import DEFAULT_GAME, get_info
from kikimimi.records import schema
from kikimimi.records.kinds import ladder, title_forms
from kikimimi.records.queries import driver_rows, summaries_query
from kikimimi.records.results import results_from_outcome
from kikimimi.records.store import RecordStore

SEATS = get_info(DEFAULT_GAME).seat_count()  # the default game's, whose ladder the bench loads
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
GAMES_PER_TRIAL = 10
PLAYED = 40  # real bot games of the default game; every synthetic result is one of their outcomes


@cache
def played_outcomes() -> tuple[Outcome, ...]:
    """Outcomes as the default game's own engine ends its games (bots playing it), so the records bench
    loads real results of whatever game has the ladder, naming none of its details itself."""
    info = get_info(DEFAULT_GAME)
    outcomes = tuple(game.outcome for seed in range(PLAYED)
                     if (game := play_bot_game(info, seed, bots="perfect")).outcome is not None)
    if not outcomes:
        raise RuntimeError(f"bench: {DEFAULT_GAME}'s bots finished no game")
    return outcomes


def played_outcome(rng: random.Random) -> Outcome:
    return rng.choice(played_outcomes())


def table_outcomes(table: int, games: int, seed: int = 0) -> list[Outcome]:
    """The games a simulated table plays, the same for the same table and seed."""
    rng = random.Random(seed * 1000 + table)
    return [played_outcome(rng) for _ in range(games)]


def report_table(url: str, meeting_id: int, table: int, games: int, seed: int, start: Any = None,
                 twice_every: int = 3) -> list[int]:
    """A table reporting its games of a meeting as they end; every `twice_every`-th game is reported
    twice at once (two threads, as a reconnecting table replaying its outbox beside a live report).
    Returns the numbers the store gave, one per report."""
    numbers: list[int] = []
    failures: list[BaseException] = []
    with RecordStore(url) as store:
        seats = store.tables.get(meeting_id, table).seat_players
        if start is not None:
            start.wait()
        for round_no, outcome in enumerate(table_outcomes(table, games, seed), start=1):
            results = results_from_outcome(seats, outcome, ladder(DEFAULT_GAME))
            journal = f"table{table}-game{round_no}"

            def report(results: Any = results, journal: str = journal) -> None:
                try:
                    numbers.append(store.games.record(meeting_id, results, journal_game_id=journal, table=table))
                except BaseException as exc:  # handed to the caller below, not lost in the thread
                    failures.append(exc)

            copies = 2 if round_no % twice_every == 0 else 1
            threads = [threading.Thread(target=report) for _ in range(copies)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if failures:
                raise failures[0]
    return numbers


def report_table_process(out: Any, *args: Any) -> None:
    """`report_table` in a process of its own: puts (table, numbers) or (table, error text) on `out`."""
    table = args[2]
    try:
        out.put((table, report_table(*args)))
    except Exception as exc:
        out.put((table, f"{type(exc).__name__}: {exc}"))


# -- kikimimi bench standings ---------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=10_000, help="players (default 10000)")
    parser.add_argument("--games", type=int, default=100, help="games per player, in full trials of 10 (default 100)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", help="an EMPTY records database (path or URL); default: a temporary SQLite file")
    where.add_argument("--postgres", action="store_true",
                       help="a throwaway PostgreSQL server (Debian's postgresql), fsync on")
    parser.add_argument("--repeat", type=int, default=5, help="timed recomputations of each kind (default 5)")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.players < SEATS or args.games < GAMES_PER_TRIAL:
        print(f"bench standings: at least {SEATS} players and {GAMES_PER_TRIAL} games each", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        try:
            target = _target(args, stack)
            store = stack.enter_context(RecordStore(target))
        except (RuntimeError, schema.SchemaError) as exc:  # RuntimeError: no throwaway PostgreSQL here
            print(f"bench standings: {exc}", file=sys.stderr)
            return 1
        if store.players.all():
            print(f"bench standings: {store.url} already holds players; give an empty database", file=sys.stderr)
            return 2
        figures = measure(store, args.players, args.games, args.repeat, target)
    if args.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0


def _target(args: argparse.Namespace, stack: ExitStack) -> str:
    if args.db:
        return str(args.db)
    if args.postgres:
        try:  # the throwaway server is the repository's test bed, not part of an installed kikimimi
            from testbed.pgcluster import throwaway_cluster
        except ImportError:
            raise RuntimeError("--postgres starts a throwaway PostgreSQL from the repository's testbed/: "
                               "run it from a checkout, or give --db URL") from None
        return stack.enter_context(throwaway_cluster(fsync=True))
    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="kikimimi-bench-standings-"))
    return str(Path(folder) / "records.sqlite")


def measure(store: RecordStore, players: int, games: int, repeat: int, target: str) -> dict[str, Any]:
    """Load, then time; `target` is what `store` was opened with (each first read opens it anew)."""
    with Stopwatch() as loaded:
        counts = load_synthetic(store, players, games)
    with Stopwatch() as summarized:
        store.summaries.rebuild()  # the bulk load wrote finished meetings directly: summarize them from the results
    cold, warm = [], []
    for _ in range(repeat):
        # A store opened anew (as a host starting): nothing kept, every meeting read and every player
        # replayed from what the database holds. Opening it (connecting, checking the schema) is not timed.
        with RecordStore(target) as fresh:
            cold.append(_timed(fresh))
    with RecordStore(target) as fresh:  # what was timed is right: some players against their own replay
        statuses = fresh.ladder.by_name(DEFAULT_GAME)
        for player in fresh.players.all()[:: max(1, players // 50)]:
            if statuses[player.name] != fresh.ladder.status(player.name, DEFAULT_GAME):
                raise RuntimeError(f"ladder.by_name gives {player.name} another status than their replay")
    query = []
    for _ in range(repeat):  # of a first read, the database's part: every finished meeting's summaries
        with Stopwatch() as sw, store.reading() as conn:
            driver_rows(conn, summaries_query(DEFAULT_GAME))  # as ladder.by_name reads them
        query.append(sw)
    store.ladder.by_name(DEFAULT_GAME)  # the store has read the records once, as a host does when it starts
    names = [p.name for p in store.players.all()[:SEATS]]
    for n in range(repeat):  # one more meeting finished, then the standings read again
        meeting = store.meetings.start("full", names, held_at=f"2999-01-01T00:00:{n:02d}+00:00")
        seats = dict(enumerate(names, start=1))
        for outcome in table_outcomes(1, GAMES_PER_TRIAL, seed=n):
            store.games.record(meeting, results_from_outcome(seats, outcome, ladder(DEFAULT_GAME)))
        store.meetings.finish(meeting)
        warm.append(_timed(store))
    def median(runs: list[Stopwatch], clock: str) -> float:
        return round(float(statistics.median(getattr(sw, clock) for sw in runs)), 3)

    return {
        "database": store.dialect, "url": store.url, **counts, "load_s": round(loaded.wall, 2),
        "load_cpu_s": round(loaded.cpu, 2), "summaries_s": round(summarized.wall, 2),
        "summaries_cpu_s": round(summarized.cpu, 2),
        "cold_median_s": median(cold, "wall"), "cold_max_s": round(max(sw.wall for sw in cold), 3),
        "cold_cpu_median_s": median(cold, "cpu"),
        "cold_query_median_s": median(query, "wall"), "cold_query_cpu_median_s": median(query, "cpu"),
        "after_a_meeting_median_s": median(warm, "wall"),
        "after_a_meeting_max_s": round(max(sw.wall for sw in warm), 3),
        "after_a_meeting_cpu_median_s": median(warm, "cpu"),
        "load_average": round(load_average(), 2),
    }


def _timed(store: RecordStore) -> Stopwatch:
    with Stopwatch() as sw:
        statuses = store.ladder.by_name(DEFAULT_GAME)
    if not statuses:
        raise RuntimeError("no statuses read")
    return sw


def _print(f: dict[str, Any]) -> None:
    print(f"records: {f['database']} ({f['url']}); wall time, with this process's CPU time beside it (a database "
          f"server's own CPU is not in it); load average {f['load_average']}")
    print(f"loaded {f['players']} players, {f['meetings']} full trials, {f['games']} games, "
          f"{f['results']} results in {f['load_s']} s (cpu {f['load_cpu_s']} s); summaries written from them in "
          f"{f['summaries_s']} s (cpu {f['summaries_cpu_s']} s)")
    print(f"ladder.by_name, a store's first read:        median {f['cold_median_s']} s "
          f"(cpu {f['cold_cpu_median_s']} s), max {f['cold_max_s']} s  (target <= 1 s)")
    print(f"  the query reading every finished meeting's summaries alone, timed apart: median "
          f"{f['cold_query_median_s']} s (cpu {f['cold_query_cpu_median_s']} s); the rest of a first read is the "
          "ladder replaying every player")
    print(f"ladder.by_name, after one more meeting:      median {f['after_a_meeting_median_s']} s "
          f"(cpu {f['after_a_meeting_cpu_median_s']} s), max {f['after_a_meeting_max_s']} s")


def load_synthetic(store: RecordStore, players: int, games: int) -> dict[str, int]:
    """Players in full trials of three (shuffled each round; a remainder plays with the first ones
    again), ten games each, every meeting finished. Bulk inserts with explicit ids, one transaction."""
    rng = random.Random(16)
    ids = list(range(1, players + 1))
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in
                                             ("players", "meetings", "meeting_players", "meeting_tables", "games",
                                              "results")}
    rows["players"] = [{"id": i, "name": f"Player {i:05d}", "title_form": title_forms()[0], "created_at": "2024-01-01"}
                       for i in ids]
    meeting_id = game_id = 0
    rules = ladder(DEFAULT_GAME)
    seat_numbers = {seat: str(seat) for seat in range(1, SEATS + 1)}  # results by seat; players by id below
    for _ in range(games // GAMES_PER_TRIAL):
        order = rng.sample(ids, len(ids))
        order += order[: (-len(order)) % SEATS]
        for start in range(0, len(order), SEATS):
            meeting_id += 1
            seated = order[start:start + SEATS]
            held_at = (EPOCH + timedelta(minutes=meeting_id)).isoformat(timespec="seconds")
            rows["meetings"].append({"id": meeting_id, "label": None, "kind": "full", "held_at": held_at,
                                     "status": "finished", "finished_at": held_at, "winner_id": None,
                                     "game": DEFAULT_GAME, "tables": 1})
            rows["meeting_tables"].append({"meeting_id": meeting_id, "table_no": 1, "controller": None,
                                           "joined_at": None, "last_seen": None, "state": "{}"})
            rows["meeting_players"] += [{"meeting_id": meeting_id, "player_id": pid, "position": seat - 1,
                                         "table_no": 1, "seat": seat} for seat, pid in enumerate(seated, start=1)]
            for number in range(1, GAMES_PER_TRIAL + 1):
                game_id += 1
                outcome = played_outcome(rng)
                rows["games"].append({"id": game_id, "meeting_id": meeting_id, "number": number, "table_no": 1,
                                      "round": number, "journal_game_id": None, "reason": "", "recorded_at": held_at,
                                      "game": DEFAULT_GAME, "details": "{}"})
                rows["results"] += [{"game_id": game_id, "player_id": seated[int(r.player) - 1], "seat": r.seat,
                                     "place": r.place, "score": r.score, "won": int(r.won),
                                     "details": json.dumps(dict(r.details), sort_keys=True)}
                                    for r in results_from_outcome(seat_numbers, outcome, rules)]
    with store.writing() as conn:
        for name, table_rows in rows.items():
            _bulk_insert(conn, schema.metadata.tables[name], table_rows)
        if conn.dialect.name == "postgresql":  # ids were given: move the id sequences past them
            for name in ("players", "meetings", "games"):
                conn.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT MAX(id) FROM {name}))")
    return {"players": players, "meetings": meeting_id, "games": game_id, "results": len(rows["results"])}


def _bulk_insert(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    """PostgreSQL: COPY (psycopg's copy protocol); SQLite: executemany in chunks."""
    if not rows:
        return
    columns = list(rows[0])
    if conn.dialect.name == "postgresql":
        driver = conn.connection.driver_connection
        if driver is None:
            raise RuntimeError("the records connection is closed")
        cursor = driver.cursor()
        with cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([row[c] for c in columns])
        return
    for start in range(0, len(rows), 50_000):
        conn.execute(table.insert(), rows[start:start + 50_000])
