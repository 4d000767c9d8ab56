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
import signal
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
from kikimimi.venue.client import Heartbeat, HostLink, HostUnreachable, Outbox, Reporter, meeting_games

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
    parser.add_argument("--table-kills", type=int, default=0, metavar="N",
                        help="faults: each table is a process of its own; kill one (SIGKILL) N times while it "
                             "plays, a second or three apart, and start it again on the same journal and outbox")
    parser.add_argument("--full-disk", type=int, default=0, metavar="N",
                        help="faults (SQLite, as root): the records file on a small size-limited tmpfs, filled "
                             "until writes fail N times for a few seconds each, then the space freed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.games < 1 or min(args.kills, args.table_kills, args.full_disk) < 0:
        print("bench meeting: --tables and --games must be at least 1, --kills, --table-kills and --full-disk 0 "
              "or more", file=sys.stderr)
        return 2
    if args.full_disk and (args.db or args.postgres):
        print("bench meeting: --full-disk runs on a throwaway SQLite file (leave out --db and --postgres)",
              file=sys.stderr)
        return 2
    if args.full_disk:
        args.sqlite = True
    with _store(args) as (url, label):
        if url is None:
            print(f"bench meeting: {label}", file=sys.stderr)
            return 1
        figures = measure(url, label, args.tables, args.games, args.pace, args.seed, kills=args.kills,
                          outside_reader=args.outside_reader, table_kills=args.table_kills,
                          full_disk=args.full_disk)
    if args.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    # Under faults the question is "counted once"; a host away for seconds is no latency figure.
    faulted = args.kills or args.table_kills or args.full_disk
    # A meeting left open once every game is in (its settling failed on a full disk) is a failure too.
    settled = figures["meeting_status"] != "open"
    return 0 if figures["counted_once"] and settled and (faulted or figures["latency_p99"] <= TARGET_P99) else 1


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
        except ImportError:  # an install without the repository's testbed/
            if args.postgres:
                yield None, ("--postgres: a throwaway PostgreSQL comes from the repository's testbed/: "
                             "run it from a checkout, or give --db URL")
                return
        else:
            try:
                with throwaway_cluster(fsync=True) as url:
                    yield url, "PostgreSQL (throwaway server, fsync on)"
                return
            except ClusterUnavailable as exc:
                if args.postgres:
                    yield None, f"--postgres: {exc}"
                    return
                print(f"bench meeting: no PostgreSQL ({exc}); measuring on SQLite", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-meeting-") as folder:
        if not args.full_disk:
            yield str(Path(folder) / "records.sqlite"), "SQLite (throwaway file, synchronous FULL)"
            return
        with _small_disk(Path(folder)) as problem:
            if problem:
                yield None, f"--full-disk: {problem}"
            else:
                yield (str(Path(folder) / "records.sqlite"),
                       f"SQLite (throwaway file, synchronous FULL) on a tmpfs of {SMALL_DISK_MB} MB")


SMALL_DISK_MB = 32


@contextlib.contextmanager
def _small_disk(folder: Path) -> Iterator[str | None]:
    """A size-limited tmpfs mounted on `folder`, to be filled: a real ENOSPC under SQLite, not a mock.
    Yields None when mounted, else what is missing."""
    if os.geteuid() != 0:
        yield "needs root, to mount a size-limited tmpfs (mount -t tmpfs -o size=...)"
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SMALL_DISK_MB}m,mode=0700", "tmpfs",
                              str(folder)], capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        yield f"could not mount a tmpfs on {folder}: {(mounted.stderr or mounted.stdout).strip()}"
        return
    try:
        yield None
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


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

    def __init__(self, start_host: Any, kills: int, outside_reader: bool, url: str, meeting: int, seed: int,
                 *, tables: list[SimTable] | None = None, table_kills: int = 0, full_disk: int = 0) -> None:
        super().__init__(name="faults", daemon=True)
        self.start_host, self.kills, self.outside_reader = start_host, kills, outside_reader
        self.url, self.meeting, self.rng = url, meeting, random.Random(seed)
        self.tables, self.table_kills, self.full_disk = tables or [], table_kills, full_disk
        self.host: subprocess.Popen[bytes] = start_host()
        self.stop = threading.Event()
        self.killed = 0
        self.host_exits = 0  # the host stopped by itself (it refuses to start on a full disk): started again
        self.tables_killed = 0
        self.full_episodes = 0
        self.full_seconds = 0.0
        self.full_windows: list[tuple[float, float]] = []  # time.time() from the disk full to the space freed
        self.reads = 0
        self.reader = threading.Thread(target=self._read, name="outside-reader", daemon=True)
        self.filler = threading.Thread(target=self._fill, name="full-disk", daemon=True)

    def run(self) -> None:
        if self.outside_reader:
            self.reader.start()
        if self.full_disk:
            self.filler.start()
        while (self.killed < self.kills or self.tables_killed < self.table_kills) \
                and not self.stop.wait(self.rng.uniform(1.0, 3.0)):
            kill_host = self.killed < self.kills and (self.tables_killed >= self.table_kills
                                                      or self.rng.random() < 0.5)
            if kill_host:
                if self.host.poll() is not None:
                    self.host_exits += 1
                self.host.kill()
                self.host.wait()
                self.killed += 1
                self.host = self.start_host()
            elif any(table.kill() for table in self.rng.sample(self.tables, len(self.tables))):
                self.tables_killed += 1
            elif all(table.done.is_set() for table in self.tables):
                break  # every table has finished: nothing left to kill
        while not self.stop.wait(0.5):  # as a service manager does: a host that stopped by itself is started again
            if self.host.poll() is not None:
                self.host_exits += 1
                self.host = self.start_host()

    def _fill(self) -> None:
        """Fill the records' disk until a write fails (ENOSPC), hold it full a few seconds while the tables report,
        then free the space; `full_disk` times, a few seconds apart."""
        filler = Path(self.url).parent / "filler"
        rng = random.Random(self.rng.random())  # its own: the kills' thread draws from the other
        while self.full_episodes < self.full_disk and not self.stop.wait(rng.uniform(1.0, 3.0)):
            began, full_at = time.monotonic(), time.time()
            try:
                fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    for size in (1 << 16, 512, 1):  # unbuffered, down to the last byte: writes fail from here
                        with contextlib.suppress(OSError):  # ENOSPC
                            while os.write(fd, b"\0" * size):
                                pass
                finally:
                    os.close(fd)
                self.full_episodes += 1
                self.stop.wait(rng.uniform(2.0, 4.0))
            finally:
                filler.unlink(missing_ok=True)
                self.full_seconds += time.monotonic() - began
                self.full_windows.append((full_at, time.time()))

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
        for helper in (self.reader, self.filler):
            if helper.is_alive():
                helper.join()


def measure(url: str, label: str, tables: int, games: int, pace: float, seed: int, *, kills: int = 0,
            outside_reader: bool = False, table_kills: int = 0, full_disk: int = 0) -> dict[str, Any]:
    from kikimimi.records.store import RecordStore

    kind = {10: "full", 5: "half"}.get(games, "contest")
    players = [f"Player {n:03d}" for n in range(1, 3 * tables + 1)]
    with RecordStore(url) as store:
        meeting = store.meetings.start(kind, players, add_unknown=True, tables=tables,
                                      label=f"bench {secrets.token_hex(3)}")
    token = secrets.token_urlsafe(16)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-tables-") as folder:
        log = Path(folder) / "host.log"
        command = [sys.executable, "-m", "kikimimi", "venue", "host", "--db", url, "--listen",
                   f"127.0.0.1:{port}", f"--token={token}", "--meeting", str(meeting)]  # a token may begin with "-"
        if kind == "contest":
            command += ["--games", str(games)]
        def start_host() -> subprocess.Popen[bytes]:
            with open(log, "ab") as out:
                return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)

        timeline = Timeline()
        sims = [SimTable(base, token, n, Path(folder) / f"table{n}", games, pace, seed + n, timeline,
                         own_process=table_kills > 0) for n in range(1, tables + 1)]
        faults = Faults(start_host, kills, outside_reader, url, meeting, seed, tables=sims, table_kills=table_kills,
                        full_disk=full_disk)
        host = faults.host
        try:
            _wait_for_host(base, host, log)
            faults.start()
            stop = threading.Event()
            watcher = threading.Thread(target=_watch_stream, args=(base, meeting, timeline, stop), daemon=True)
            watcher.start()
            started = time.time()
            with Stopwatch() as clock:
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
            for sim in sims:
                sim.kill()
        # What the tables were told is recorded: their outboxes' acknowledgements, read after the run.
        journal_ids, acked_ids = _tables_games(sims, meeting)
        host_errors = _host_errors(log)
    with RecordStore(url) as store:
        recorded = store.games.in_meeting(meeting)
        per_table = [t.games_played for t in store.tables.all(meeting)]
        status = store.meetings.get(meeting).status
    recorded_ids = [g.journal_game_id for g in recorded]
    doubled = len(recorded_ids) - len(set(recorded_ids))
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
        "counted_once": (len(recorded) == tables * games and doubled == 0 and len(journal_ids) == tables * games
                         and set(recorded_ids) == journal_ids and acked_ids <= set(recorded_ids)
                         and all(n == games for n in per_table)),
        "doubled": doubled, "journal_games": len(journal_ids), "acked_lost": len(acked_ids - set(recorded_ids)),
        "meeting_status": status, "errors": errors[:5],
        "host_kills": faults.killed, "outside_reads": faults.reads, "table_kills": faults.tables_killed,
        "host_exits": faults.host_exits,
        "table_starts": sum(sim.starts for sim in sims), "full_disk_episodes": faults.full_episodes,
        "full_disk_seconds": faults.full_seconds,
        "acked_while_full": sum(any(a <= at <= b for a, b in faults.full_windows) for at in timeline.acked),
        "host_errors": host_errors,
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
    """A table at the engine level with the real reporting path: journal, outbox, reporter, heartbeat.

    In this process (one thread a table), or with `own_process` in a process of its own that a fault run can
    kill (SIGKILL) mid-meeting: it is started again on the same journal and outbox and resumes, as a table's
    controller does after a power cut."""

    def __init__(self, base: str, token: str, number: int, folder: Path, games: int, pace: float, seed: int,
                 timeline: Timeline, *, own_process: bool = False) -> None:
        super().__init__(name=f"sim-table-{number}", daemon=True)
        self.base, self.token, self.number, self.folder = base, token, number, folder
        self.games, self.pace, self.seed, self.timeline = games, pace, seed, timeline
        self.own_process = own_process
        self.errors: list[str] = []
        self.round = 0
        self.starts = 0
        self.done = threading.Event()
        self._process: subprocess.Popen[str] | None = None
        self._process_lock = threading.Lock()

    @property
    def journal_path(self) -> Path:
        return self.folder / "journal.sqlite"

    def run(self) -> None:
        try:
            if self.own_process:
                self._run_processes()
            else:
                self.starts = 1
                play_table(self.base, self.token, self.number, self.journal_path, self.games, self.pace, self.seed,
                           self._note, lambda round_no: setattr(self, "round", round_no))
        except Exception as exc:  # the figures say a table failed; the bench goes on with the others
            self.errors.append(f"table {self.number}: {type(exc).__name__}: {exc}")
        finally:
            self.done.set()

    def _note(self, what: str, round_no: int, at: float) -> None:
        with self.timeline.lock:
            if what == "ended":
                self.timeline.ended.setdefault((self.number, round_no), at)
            else:
                self.timeline.acked.append(at)
                self.timeline.acked_at.setdefault((self.number, round_no), at)

    def _run_processes(self) -> None:
        command = [sys.executable, "-c", "from kikimimi_bench.meeting import table_process; table_process()",
                   self.base, self.token, str(self.number), str(self.journal_path), str(self.games), str(self.pace),
                   str(self.seed)]
        while True:
            with self._process_lock:
                self.starts += 1
                self._process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                process = self._process
            assert process.stdout is not None and process.stderr is not None
            for line in process.stdout:
                parts = line.split()
                if len(parts) == 3 and parts[1].isdigit():  # not a line the kill cut short
                    self._note(parts[0], int(parts[1]), float(parts[2]))
            returncode = process.wait()
            if returncode == -signal.SIGKILL:
                continue  # killed by the fault run: started again on the same journal and outbox
            if returncode != 0:
                raise RuntimeError(f"the table's process exited {returncode}: {process.stderr.read()[-500:]}")
            return

    def kill(self) -> bool:
        """SIGKILL the table's process while it plays; False when it is not running (or runs in this process)."""
        with self._process_lock:
            process = self._process
            if process is None or process.poll() is not None or self.done.is_set():
                return False
            process.kill()
            return True


def table_process() -> None:
    """A simulated table in a process of its own (`SimTable(own_process=True)`): arguments on the command line,
    one line per game ended or acknowledged on stdout."""
    base, token, number, journal, games, pace, seed = sys.argv[1:8]

    def note(what: str, round_no: int, at: float) -> None:
        print(what, round_no, at, flush=True)

    play_table(base, token, int(number), Path(journal), int(games), float(pace), int(seed), note, lambda _: None)


def play_table(base: str, token: str, number: int, journal_path: Path, games: int, pace: float, seed: int,
               note: Any, set_round: Any) -> None:
    """Play a table's `games` meeting games and report them; a journal that already holds some (a table started
    again) resumes: its unfinished game is ended and only the rest are played."""
    journal_path.parent.mkdir(parents=True, exist_ok=True)
    journal, outbox = Journal(journal_path), Outbox(journal_path)
    # Each table from an address of its own on the loopback network (127.0.0.2, .3, ...), as on a LAN: the
    # host caps connections per client address.
    link = HostLink(base, number, token=token, controller=f"sim-{number}",
                    local_address=f"127.0.{(number + 1) // 256}.{(number + 1) % 256}")
    try:
        assignment = outbox.remember(link.url, _join_retrying(link))
        info = get_info(assignment.game)
        setup = {k: v for k, v in (assignment.setup or meeting_setup(DEFAULT_GAME)).items() if k != "game"}
        played = len(meeting_games(journal, assignment))
        rng = random.Random(seed * 1000 + played)  # a resumed table plays on with other deals

        def acked(journal_id: str, answer: dict[str, Any]) -> None:
            if isinstance(answer.get("round"), int):
                note("acked", answer["round"], time.time())

        reporter = Reporter(link, outbox, assignment, on_reported=acked)
        heartbeat = Heartbeat(link, lambda: {"round": played + 1, "phase": "play", "game_id": None,
                                             "health": {"readers": {}, "outputs": {}}},
                              on_answer=reporter.host_answers)
        reporter.start()
        heartbeat.start()
        unfinished = journal.unfinished()
        for round_no in range(played + 1, games + 1):
            set_round(round_no)
            if unfinished is not None and unfinished.outcome is None:
                game_id, unfinished = unfinished.id, None  # the game the table was killed in: played to its end
            else:
                game_id = journal.begin_game(info.id, setup)
            outcome = _bot_game(info, setup, rng.randrange(1 << 30))
            if pace:
                time.sleep(rng.uniform(0, pace))
            journal.finish(game_id, outcome)  # the end is on disk: from here the reporter owns it
            note("ended", round_no, time.time())
            played = round_no
            reporter.wake()
        if not reporter.wait_drained(timeout=120):
            raise HostUnreachable(f"{reporter.pending} result(s) still unsent after 120 s")
        heartbeat.stop()
        reporter.stop()
    finally:
        link.close()
        outbox.close()
        journal.close()


def _tables_games(sims: list[SimTable], meeting: int) -> tuple[set[str], set[str]]:
    """Every meeting game the tables' journals finished, and those their outboxes say the host acknowledged."""
    finished: set[str] = set()
    acked: set[str] = set()
    for sim in sims:
        if not sim.journal_path.exists():
            continue
        journal, outbox = Journal(sim.journal_path), Outbox(sim.journal_path)
        try:
            assignment = outbox.assignment(sim.number, meeting)
            if assignment is not None:
                finished |= {g.id for g in meeting_games(journal, assignment)}
            acked |= {gid for gid, refused in outbox.done(meeting).items() if refused is None}
        finally:
            outbox.close()
            journal.close()
    return finished, acked


def _host_errors(log: Path) -> dict[str, Any]:
    """What the host's log said went wrong, by kind: tracebacks (and the last one's last line), and the lines
    naming a full disk."""
    text = log.read_text(errors="replace") if log.exists() else ""
    last = text[text.rfind("Traceback (most recent call last)"):].splitlines()[1:] if "Traceback" in text else []
    ends = [line for line in last if line.strip() and not line.startswith(" ")]
    return {"tracebacks": text.count("Traceback (most recent call last)"), "last_error": ends[0] if ends else "",
            "disk_full_lines": sum("full" in line.lower() for line in text.splitlines()
                                   if "Traceback" not in line and not line.startswith(" "))}


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
    print(f"  counted once: {'yes' if f['counted_once'] else 'NO'} (games expected {f['expected']}, finished in "
          f"the tables' journals {f['journal_games']}, recorded {f['results']}, doubled {f['doubled']}, "
          f"acknowledged to a table but not recorded {f['acked_lost']}); meeting {f['meeting_status']}; "
          f"whole run {f['elapsed_seconds']:.1f} s")
    print(f"  faults: host kills {f['host_kills']} (and {f['host_exits']} times the host stopped by itself and was "
          f"started again), table kills {f['table_kills']} ({f['table_starts']} table "
          f"starts in all), full-disk episodes {f['full_disk_episodes']} ({f['full_disk_seconds']:.1f} s full, "
          f"{f['acked_while_full']} results acknowledged meanwhile); "
          f"`meeting show` read the records {f['outside_reads']} times"
          f"{' (and on SQLite a bare reader every 50 ms)' if f['outside_reads'] else ''}")
    last = f["host_errors"]["last_error"]
    print(f"  host log: {f['host_errors']['tracebacks']} tracebacks, {f['host_errors']['disk_full_lines']} lines "
          f"naming a full disk{'; the last traceback: ' + last if last else ''}")
    print(f"  host CPU: {f['host_cpu_seconds']:.1f} s in all, {f['host_cpu_ms_per_result']:.1f} ms per result "
          f"(with start-up, heartbeats and the stream); this process (the simulated tables and the watcher): "
          f"cpu {f['bench_cpu_seconds']:.1f} s, wall {f['bench_wall_seconds']:.1f} s; load average "
          f"{f['load_average']:.1f} on {os.cpu_count()} cores")
    for error in f["errors"]:
        print(f"  error: {error}")
