"""Many tables reporting into one meeting host: results accepted per second, end of game to standings stream.

One host process (`kikimimi venue host`, as at a venue) on a records store (PostgreSQL by default: a
throwaway server with fsync on; or --db), one meeting of `--tables` tables of three players. The tables
are simulated in this process, one thread each, at the engine level: the game's bots play each game on
the pure engine, and the table's real reporting path does the rest (its journal records each game's
begin and end with WAL + synchronous FULL, the outbox derived from it, the reporter and heartbeat
threads over HTTP). Why not 30 live tables with simulated readers and voices: that would measure this
machine's two cores running 30 audio pipelines, not the host; the host sees exactly the same requests
either way. The page's side is measured as the page gets it: an SSE client on
`/api/meetings/{id}/events` notes when each game first shows in a snapshot (its table's games_played).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from kikimimi.benchclock import Stopwatch, load_average, process_cpu_seconds
from kikimimi.games.base import GameOver
from kikimimi.games.registry import DEFAULT_GAME, get_info
from kikimimi.records.ontable import meeting_setup
from kikimimi.table.journal import Journal
from kikimimi.venue.client import Heartbeat, HostLink, HostUnreachable, Outbox, Reporter

TARGET_P99 = 2.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=30, help="tables of three players (default 30)")
    parser.add_argument("--games", type=int, default=10,
                        help="games per table (default 10: a full trial; 5 a half; any other number: a contest)")
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--db", help="records database (a SQLite file or a postgresql:// URL) instead of a throwaway")
    store.add_argument("--postgres", action="store_true", default=None,
                       help="a throwaway PostgreSQL server, fsync on (the default when Debian's postgresql is here)")
    store.add_argument("--sqlite", action="store_true", help="a throwaway SQLite file")
    parser.add_argument("--pace", type=float, default=2.0,
                        help="a table waits between games at random up to this many seconds (default 2: about "
                             "15 results a second from 30 tables, hundreds of times a real venue's rate); "
                             "0: flat out, the host's capacity")
    parser.add_argument("--kills", type=int, default=0, metavar="N",
                        help="faults: kill the host (SIGKILL) N times while the tables report, a second or three "
                             "apart, and start it again on the same port (default 0)")
    parser.add_argument("--outside-reader", action="store_true",
                        help="faults: another process reads the records all along (`kikimimi meeting show`, again "
                             "and again), as an organiser's terminal or a backup does")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.games < 1 or args.kills < 0:
        print("bench meeting: --tables and --games must be at least 1, --kills 0 or more", file=sys.stderr)
        return 2
    with _store(args) as (url, label):
        if url is None:
            print(f"bench meeting: {label}", file=sys.stderr)
            return 1
        figures = measure(url, label, args.tables, args.games, args.pace, args.seed, kills=args.kills,
                          outside_reader=args.outside_reader)
    if args.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0 if figures["counted_once"] and figures["latency_p99"] <= TARGET_P99 else 1


@contextlib.contextmanager
def _store(args: argparse.Namespace) -> Iterator[tuple[str | None, str]]:
    """The records URL and what it is: --db, a throwaway PostgreSQL (fsync on), or a throwaway SQLite file."""
    if args.db:
        from kikimimi.records.store import safe_url

        yield args.db, safe_url(args.db)
        return
    if not args.sqlite:
        try:
            from testbed.pgcluster import ClusterUnavailable, throwaway_cluster
        except ImportError:
            ClusterUnavailable, throwaway_cluster = None, None  # noqa: N806 - the store's PostgreSQL is not here yet
        if throwaway_cluster is not None:
            try:
                with throwaway_cluster(fsync=True) as url:
                    yield url, "PostgreSQL (throwaway server, fsync on)"
                return
            except ClusterUnavailable as exc:
                if args.postgres:
                    yield None, f"--postgres: {exc}"
                    return
                print(f"bench meeting: no PostgreSQL ({exc}); measuring on SQLite", file=sys.stderr)
        elif args.postgres:
            yield None, ("--postgres: a throwaway PostgreSQL comes from the repository's testbed/: "
                         "run it from a checkout, or give --db URL")
            return
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-meeting-") as folder:
        yield str(Path(folder) / "records.sqlite"), "SQLite (throwaway file, synchronous FULL)"


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Timeline:
    """When each game ended at its table, and when the stream first showed each table's count."""

    ended: dict[tuple[int, int], float] = field(default_factory=dict)  # (table, round) -> time.time()
    shown: dict[tuple[int, int], float] = field(default_factory=dict)
    acked: list[float] = field(default_factory=list)
    acked_at: dict[tuple[int, int], float] = field(default_factory=dict)  # (table, round) -> first answer
    finished_at: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class Faults(threading.Thread):
    """The fault run's faults while the tables report: the host killed (SIGKILL) and started again, `kills`
    times, and an outside process reading the records all along (`meeting show`)."""

    def __init__(self, start_host: Any, kills: int, outside_reader: bool, url: str, meeting: int, seed: int) -> None:
        super().__init__(name="faults", daemon=True)
        self.start_host, self.kills, self.outside_reader = start_host, kills, outside_reader
        self.url, self.meeting, self.rng = url, meeting, random.Random(seed)
        self.host: subprocess.Popen[bytes] = start_host()
        self.stop = threading.Event()
        self.killed = 0
        self.reads = 0
        self.reader = threading.Thread(target=self._read, name="outside-reader", daemon=True)

    def run(self) -> None:
        if self.outside_reader:
            self.reader.start()
        while self.killed < self.kills and not self.stop.wait(self.rng.uniform(1.0, 3.0)):
            self.host.kill()
            self.host.wait()
            self.killed += 1
            self.host = self.start_host()

    def _read(self) -> None:
        """`meeting show` again and again, and on a SQLite file beside it a bare reader opening and closing the
        file every 50 ms (a backup's or a script's way: it is what let the WAL be deleted under the host)."""
        command = [sys.executable, "-m", "kikimimi", "meeting", "show", str(self.meeting), "--db", self.url]
        bare = None
        if "://" not in self.url:
            loop = ("import sqlite3, sys, time\nwhile True:\n    c = sqlite3.connect(sys.argv[1], timeout=30)\n"
                    "    c.execute('SELECT count(*) FROM games').fetchall()\n    c.close()\n    time.sleep(0.05)\n")
            bare = subprocess.Popen([sys.executable, "-c", loop, self.url], stderr=subprocess.DEVNULL)
        try:
            while not self.stop.is_set():
                subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                self.reads += 1
        finally:
            if bare is not None:
                bare.kill()
                bare.wait()

    def finish(self) -> None:
        self.stop.set()
        self.join()
        if self.reader.is_alive():
            self.reader.join()


def measure(url: str, label: str, tables: int, games: int, pace: float, seed: int, *, kills: int = 0,
            outside_reader: bool = False) -> dict[str, Any]:
    from kikimimi.records.store import RecordStore

    kind = {10: "full", 5: "half"}.get(games, "contest")
    players = [f"Player {n:03d}" for n in range(1, 3 * tables + 1)]
    with RecordStore(url) as store:
        meeting = store.start_meeting(kind, players, add_unknown=True, tables=tables,
                                      label=f"bench {secrets.token_hex(3)}")
    token = secrets.token_urlsafe(16)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-tables-") as folder:
        log = Path(folder) / "host.log"
        command = [sys.executable, "-m", "kikimimi", "venue", "host", "--db", url, "--listen",
                   f"127.0.0.1:{port}", "--token", token, "--meeting", str(meeting)]
        if kind == "contest":
            command += ["--games", str(games)]
        def start_host() -> subprocess.Popen[bytes]:
            with open(log, "ab") as out:
                return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)

        faults = Faults(start_host, kills, outside_reader, url, meeting, seed)
        host = faults.host
        try:
            _wait_for_host(base, host, log)
            faults.start()
            timeline = Timeline()
            stop = threading.Event()
            watcher = threading.Thread(target=_watch_stream, args=(base, meeting, timeline, stop), daemon=True)
            watcher.start()
            started = time.time()
            with Stopwatch() as clock:
                sims = [SimTable(base, token, n, Path(folder) / f"table{n}", games, pace, seed + n, timeline)
                        for n in range(1, tables + 1)]
                for sim in sims:
                    sim.start()
                for sim in sims:
                    sim.join()
                _wait(lambda: len(timeline.shown) >= tables * games, 30)
                _wait(lambda: timeline.finished_at is not None, 30)
                stop.set()
                faults.finish()
                host = faults.host
            elapsed = time.time() - started
            host_cpu = process_cpu_seconds(host.pid)  # what the (last) host cost, whatever else ran
            errors = [e for sim in sims for e in sim.errors]
        finally:
            faults.stop.set()
            host = faults.host
            host.terminate()
            try:
                host.wait(timeout=10)
            except subprocess.TimeoutExpired:
                host.kill()
        journal_ids = {gid for sim in sims for gid in sim.game_ids}
    with RecordStore(url) as store:
        recorded = store.games(meeting)
        per_table = [t.games_played for t in store.meeting_tables(meeting)]
        status = store.meeting(meeting).status
    recorded_ids = [g.journal_game_id for g in recorded]
    latencies = sorted(timeline.shown[key] - timeline.ended[key] for key in timeline.shown if key in timeline.ended)
    # Where the time goes, per game, in two parts that add up to its end -> stream time: from the game's end
    # to the host's first sign (its answer to the table, or the stream if that came first), then the rest.
    # The answer and the stream are seen on different threads: the stream can come before the answer.
    both = [key for key in timeline.shown if key in timeline.ended and key in timeline.acked_at]
    first_sign = {key: min(timeline.acked_at[key], timeline.shown[key]) - timeline.ended[key] for key in both}
    rest = {key: timeline.shown[key] - timeline.ended[key] - first_sign[key] for key in both}
    to_ack = sorted(first_sign.values())
    stream_first = sum(timeline.shown[key] < timeline.acked_at[key] for key in both)
    first_end = min(timeline.ended.values(), default=started)
    accept_span = max(timeline.acked, default=first_end) - first_end
    return {
        "store": label, "tables": tables, "games": games, "kind": kind, "pace": pace,
        "results": len(recorded), "expected": tables * games,
        "results_per_second": len(timeline.acked) / accept_span if accept_span > 0 else 0.0,
        "accept_seconds": accept_span, "elapsed_seconds": elapsed,
        "latency_p50": _percentile(latencies, 50), "latency_p99": _percentile(latencies, 99),
        "latency_max": latencies[-1] if latencies else float("inf"), "latency_count": len(latencies),
        "ack_p50": _percentile(to_ack, 50), "ack_p99": _percentile(to_ack, 99),
        "parts_count": len(both), "stream_before_answer": stream_first,
        "mean_end_to_stream": statistics.fmean(first_sign[k] + rest[k] for k in both) if both else 0.0,
        "mean_end_to_first_sign": statistics.fmean(first_sign.values()) if both else 0.0,
        "mean_first_sign_to_stream": statistics.fmean(rest.values()) if both else 0.0,
        "counted_once": (len(recorded) == tables * games and len(set(recorded_ids)) == len(recorded)
                         and set(recorded_ids) == journal_ids and all(n == games for n in per_table)),
        "meeting_status": status, "errors": errors[:5],
        "host_kills": faults.killed, "outside_reads": faults.reads,
        "host_cpu_seconds": host_cpu, "host_cpu_ms_per_result": 1000 * host_cpu / max(1, len(recorded)),
        "bench_cpu_seconds": clock.cpu, "bench_wall_seconds": clock.wall,
        "load_average": load_average(),
    }


def _percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("inf")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(pct) - 1] if pct < 100 else values[-1]


def _wait(check: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _wait_for_host(base: str, host: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if host.poll() is not None:
            raise RuntimeError(f"the host stopped: {log.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/meetings/current", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the host did not answer within 30 s: {log.read_text(errors='replace')[-2000:]}")


def _watch_stream(base: str, meeting: int, timeline: Timeline, stop: threading.Event) -> None:
    """The page's view: each game is shown once its table's games_played reaches its round."""
    shown_count: dict[int, int] = {}
    while not stop.is_set():  # again after the stream ends (a host killed in a fault run)
        with contextlib.suppress(httpx.HTTPError), httpx.stream(
                "GET", f"{base}/api/meetings/{meeting}/events", timeout=httpx.Timeout(10, read=60)) as resp:
            for line in resp.iter_lines():
                if stop.is_set():
                    return
                if not line.startswith("data:"):
                    continue
                now = time.time()
                snapshot = json.loads(line[5:])
                with timeline.lock:
                    for table in snapshot["tables"]:
                        n, played = table["table"], table["games_played"]
                        for round_no in range(shown_count.get(n, 0) + 1, played + 1):
                            timeline.shown[(n, round_no)] = now
                        shown_count[n] = max(shown_count.get(n, 0), played)
                    if snapshot["meeting"]["status"] != "open" and timeline.finished_at is None:
                        timeline.finished_at = now
        stop.wait(0.2)


class SimTable(threading.Thread):
    """A table at the engine level with the real reporting path: journal, outbox, reporter, heartbeat."""

    def __init__(self, base: str, token: str, number: int, folder: Path, games: int, pace: float, seed: int,
                 timeline: Timeline) -> None:
        super().__init__(name=f"sim-table-{number}", daemon=True)
        self.base, self.token, self.number, self.folder = base, token, number, folder
        self.games, self.pace, self.seed, self.timeline = games, pace, seed, timeline
        self.game_ids: list[str] = []
        self.errors: list[str] = []
        self.round = 0

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # the figures say a table failed; the bench goes on with the others
            self.errors.append(f"table {self.number}: {type(exc).__name__}: {exc}")

    def _play(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        journal_path = self.folder / "journal.sqlite"
        journal, outbox = Journal(journal_path), Outbox(journal_path)
        # Each table from an address of its own on the loopback network (127.0.0.2, .3, ...), as on a LAN: the
        # host caps connections per client address.
        link = HostLink(self.base, self.number, token=self.token, controller=f"sim-{self.number}",
                        local_address=f"127.0.{(self.number + 1) // 256}.{(self.number + 1) % 256}")
        try:
            assignment = outbox.remember(link.url, _join_retrying(link))
            rng = random.Random(self.seed)

            def acked(journal_id: str, answer: dict[str, Any]) -> None:
                with self.timeline.lock:
                    now = time.time()
                    self.timeline.acked.append(now)
                    if isinstance(answer.get("round"), int):
                        self.timeline.acked_at.setdefault((self.number, answer["round"]), now)

            reporter = Reporter(link, outbox, assignment, on_reported=acked)
            heartbeat = Heartbeat(link, lambda: {"round": self.round, "phase": "play", "game_id": None,
                                                 "health": {"readers": {}, "outputs": {}}},
                                  on_answer=reporter.host_answers)
            reporter.start()
            heartbeat.start()
            info = get_info(assignment.game)
            setup = {k: v for k, v in (assignment.setup or meeting_setup(DEFAULT_GAME)).items() if k != "game"}
            for round_no in range(1, self.games + 1):
                self.round = round_no
                game_id = journal.begin_game(info.id, setup)
                outcome = _bot_game(info, setup, rng.randrange(1 << 30))
                if self.pace:
                    time.sleep(rng.uniform(0, self.pace))
                journal.finish(game_id, outcome)  # the end is on disk: from here the reporter owns it
                with self.timeline.lock:
                    self.timeline.ended[(self.number, round_no)] = time.time()
                self.game_ids.append(game_id)
                reporter.wake()
            if not reporter.wait_drained(timeout=120):
                raise HostUnreachable(f"{reporter.pending} result(s) still unsent after 120 s")
            heartbeat.stop()
            reporter.stop()
        finally:
            link.close()
            outbox.close()
            journal.close()


def _join_retrying(link: HostLink, seconds: float = 60.0) -> dict[str, Any]:
    """The table's join, tried again while the host is away (killed in a fault run), as `venue join` waits."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return link.join()
        except HostUnreachable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _bot_game(info: Any, setup: dict[str, Any], seed: int) -> Any:
    prepared = info.prepare_setup(setup, random.Random(seed))
    state, bots = info.game.initial(prepared), info.new_bots(seed, prepared)
    while (event := bots.next_event(state, ())) is not None:
        state, effects = info.game.apply(state, event)
        for effect in effects:
            if isinstance(effect, GameOver):
                return effect.outcome
    raise RuntimeError("the bots' game did not end")


def _print(f: dict[str, Any]) -> None:
    print(f"bench meeting: {f['tables']} tables x {f['games']} games ({f['kind']}) = {f['expected']} results; "
          f"store: {f['store']}; one host process; tables simulated at the engine level, one thread each, "
          f"real journal + outbox + HTTP; pace {f['pace']} s (pid {os.getpid()})")
    print(f"  results accepted: {f['results']} in {f['accept_seconds']:.2f} s "
          f"= {f['results_per_second']:.0f} results/s (from the first game's end to the last acknowledgement)")
    ok = "ok" if f["latency_p99"] <= TARGET_P99 else "OVER TARGET"
    print(f"  end of game -> standings stream: p50 {f['latency_p50'] * 1000:.0f} ms, "
          f"p99 {f['latency_p99'] * 1000:.0f} ms, max {f['latency_max'] * 1000:.0f} ms over {f['latency_count']} "
          f"games (target p99 <= {TARGET_P99:.0f} s: {ok})")
    print(f"  in two parts that add up, mean over {f['parts_count']} games: end of game -> the host's first sign "
          f"(its answer, or the stream when that came first: {f['stream_before_answer']} games) "
          f"{f['mean_end_to_first_sign'] * 1000:.0f} ms + then -> stream {f['mean_first_sign_to_stream'] * 1000:.0f} ms"
          f" = {f['mean_end_to_stream'] * 1000:.0f} ms; the first part alone p50 {f['ack_p50'] * 1000:.0f} ms, "
          f"p99 {f['ack_p99'] * 1000:.0f} ms")
    print(f"  counted once: {'yes' if f['counted_once'] else 'NO'} ({f['results']} games recorded, "
          f"{f['expected']} played); meeting {f['meeting_status']}; whole run {f['elapsed_seconds']:.1f} s")
    if f["host_kills"] or f["outside_reads"]:
        print(f"  faults: the host killed {f['host_kills']} times and started again; `meeting show` read the "
              f"records {f['outside_reads']} times (and on SQLite a bare reader every 50 ms)")
    print(f"  host CPU: {f['host_cpu_seconds']:.1f} s in all, {f['host_cpu_ms_per_result']:.1f} ms per result "
          f"(with start-up, heartbeats and the stream); this process (the simulated tables and the watcher): "
          f"cpu {f['bench_cpu_seconds']:.1f} s, wall {f['bench_wall_seconds']:.1f} s; load average "
          f"{f['load_average']:.1f} on {os.cpu_count()} cores")
    for error in f["errors"]:
        print(f"  error: {error}")
