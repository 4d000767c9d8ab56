"""Power cuts of a live table and its venue client, on a disk that forgets what was not synced.

The table (`kikimimi venue join --bots`: bots tap as fast as the table takes them, every game reported to a
`kikimimi venue host` on this machine) keeps its journal folder (journal, outbox, web-console code) and
its data folder (with the table's own records file: players added, each game's result written at its end)
on `lazyfs.py`, mounted with FUSE. At a random moment the power goes: the disk stops
(every operation fails from then on) and the table is killed with SIGKILL; the disk keeps only what was
synced. Then the "reboot": the disk is mounted again as it survived, every file is opened, and the table
starts again on it. After a cycle's cuts the table plays its meeting to the end, uncut.

Checked after every cut: every event whose journal append had returned (the table prints `ack`: its
speech may have begun) is in the journal, unchanged; no game's events are doubled or have a gap; every
SQLite file passes `PRAGMA integrity_check` and every JSON file (and the code file) parses; every host
answer the outbox had taken is still there; every player and result the records file had taken is there,
no game recorded twice; the evening's code survives; the game resumes at the next
event. At the end of a cycle: the host and the table's records file hold every finished game of the journal
exactly once.

Needs root (mounting FUSE), /dev/fuse, Debian's fuse3 and python3-pyfuse3 (run under /usr/bin/python3:
the project's virtual environment does not see Debian's Python packages).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
TOKEN = secrets.token_hex(16)  # the host refuses a guessable organiser token; hex never begins with "-"
GAMES = 10  # a full trial: ten games per table (fewer: a contest of that many)


def missing() -> str | None:
    """What this machine lacks for the rig, or None."""
    if os.geteuid() != 0:
        return "needs root (mounting a FUSE filesystem)"
    if not os.path.exists("/dev/fuse"):
        return "needs /dev/fuse (the fuse kernel module)"
    if shutil.which("fusermount3") is None:
        return "needs fusermount3 (Debian package fuse3)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import pyfuse3, trio"], capture_output=True)
    if probe.returncode != 0:
        return f"needs pyfuse3 under {SYSTEM_PYTHON} (Debian package python3-pyfuse3)"
    return None


class Lines:
    """A process's output, line by line, read on a thread (a line waited for with a deadline)."""

    def __init__(self, stream: IO[str]) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def next(self, timeout: float) -> str | None:
        try:
            line = self.queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is not None:
            self.seen.append(line)
        return line

    def drain(self, timeout: float) -> list[str]:
        """Every line until the stream closes (the process died) or `timeout` passes."""
        deadline = time.monotonic() + timeout
        while self.next(max(0.0, deadline - time.monotonic())) is not None:
            pass
        return self.seen


class LazyMount:
    """lazyfs.py mounted at `mountpoint` from `image`; `cut()` then `stop()`, or `stop()` alone (clean)."""

    def __init__(self, image: Path, mountpoint: Path) -> None:
        self.image, self.mountpoint = image, mountpoint
        mountpoint.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([SYSTEM_PYTHON, str(HERE / "lazyfs.py"), str(image), str(mountpoint)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        assert self.process.stdout is not None
        self.lines = Lines(self.process.stdout)
        answer = self.lines.next(30)
        if answer != "ready":
            self.process.kill()
            raise RuntimeError(f"lazyfs did not mount at {mountpoint}: {answer} {self.lines.drain(2)}")

    def _command(self, command: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.lines.next(60) or ""

    def cut(self) -> str:
        return self._command("cut")

    def stop(self) -> None:
        answer = self._command("stop")
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        subprocess.run(["fusermount3", "-u", "-z", str(self.mountpoint)], capture_output=True)
        if answer != "stopped":
            raise RuntimeError(f"lazyfs did not stop cleanly: {answer} {self.lines.seen[-5:]}")


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Host:
    """`kikimimi venue host` on this machine, its records on the ordinary disk (the host is not the Pi)."""

    def __init__(self, folder: Path, games: int) -> None:
        from kikimimi.records.store import RecordStore

        self.db = folder / "records.sqlite"
        kind = {10: "full", 5: "half"}.get(games, "contest")
        with RecordStore(self.db) as store:
            self.meeting = store.meetings.start(kind, ["Aki", "Ben", "Chie"], add_unknown=True, tables=1)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(folder / "host.log", "ab")  # noqa: SIM115 - the host's process holds it
        self.process = subprocess.Popen([sys.executable, "-m", "kikimimi", "venue", "host", "--db", str(self.db),
                                         "--listen", f"127.0.0.1:{self.port}", "--token", TOKEN,
                                         *(["--games", str(games)] if kind == "contest" else [])],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the venue host did not start: {(folder / 'host.log').read_text()[-500:]}")
            time.sleep(0.1)

    def _answers(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
            return True
        return False

    def recorded(self) -> list[str | None]:
        """The meeting's games as the host recorded them (read with sqlite3 itself: a RecordStore opened again
        in this process was seen to answer from an older snapshot)."""
        db = sqlite3.connect(self.db)
        try:
            return [row[0] for row in db.execute(
                "SELECT journal_game_id FROM games WHERE meeting_id = ? ORDER BY number", (self.meeting,))]
        finally:
            db.close()

    def close(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Table:
    """tests/powercut/table_under_test.py: `kikimimi venue join --bots` with its acknowledgements printed."""

    def __init__(self, host: Host, mountpoint: Path, seed: int, log: Path, *extra: str,
                 env: dict[str, str] | None = None) -> None:
        self.journal = mountpoint / "journal" / "journal.sqlite"
        env = {**os.environ, "KIKIMIMI_DATA": str(mountpoint / "data"), "PYTHONUNBUFFERED": "1", **(env or {})}
        self.log = open(log, "ab")  # noqa: SIM115 - the table's process holds it
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "table_under_test.py"), "venue", "join", host.url, "--table", "1",
             "--token", TOKEN, "--bots", str(seed), "--journal", str(self.journal), "--controller", "powercut",
             *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env, start_new_session=True, cwd=CHECKOUT)
        assert self.process.stdout is not None
        self.lines = Lines(self.process.stdout)

    def kill(self) -> list[str]:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.log.close()
        return self.lines.drain(5)

    def wait(self, timeout: float) -> int:
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        self.lines.drain(5)
        self.log.close()
        return code


@dataclass
class Figures:
    cuts: int = 0
    acked: list[int] = field(default_factory=list)  # events acknowledged before each cut
    events_lost: int = 0
    events_doubled: int = 0
    journal_unopened: int = 0
    outbox_acks: list[int] = field(default_factory=list)  # host answers the outbox took before each cut
    outbox_lost: int = 0
    outbox_unopened: int = 0
    records_acks: list[int] = field(default_factory=list)  # results the records file took before each cut
    records_lost: int = 0  # a result or a player the records file had taken, missing after the cut
    records_doubled: int = 0  # a game recorded twice
    records_unopened: int = 0
    other_unopened: int = 0
    codes_kept: int = 0
    codes_lost: int = 0
    resumed: int = 0
    not_resumed: int = 0
    meetings: int = 0
    reported_once: int = 0
    reported_wrong: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unsynced_at_cut: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.events_lost or self.events_doubled or self.journal_unopened or self.outbox_lost
                    or self.outbox_unopened or self.records_lost or self.records_doubled or self.records_unopened
                    or self.other_unopened or self.codes_lost or self.not_resumed
                    or self.reported_wrong)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "unsynced_at_cut"}


def _event_crc(text: str) -> int:
    return zlib.crc32(text.encode())


def journal_events(path: Path) -> dict[tuple[str, int], int] | str:
    """(game id, seq) -> the event's CRC, or why the journal would not open."""
    try:
        db = sqlite3.connect(path)
        try:
            check = db.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                return f"integrity_check: {check}"
            rows = db.execute("SELECT game_id, seq, event FROM events").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return {(game, seq): _event_crc(text) for game, seq, text in rows}


def _opens(path: Path) -> str | None:
    """Why a file of the table's folders would not open (None: it opens)."""
    try:
        if path.name.endswith((".sqlite", ".db")):
            db = sqlite3.connect(path)
            try:
                check = db.execute("PRAGMA integrity_check").fetchone()[0]
            finally:
                db.close()
            return None if check == "ok" else f"integrity_check: {check}"
        if path.suffix in (".json", ".web"):
            json.loads(path.read_text(encoding="utf-8"))
    except (sqlite3.DatabaseError, ValueError, OSError) as exc:
        return str(exc) or type(exc).__name__
    return None


def _records_held(path: Path) -> tuple[set[str], Counter[str]] | str:
    """The players and the games (by journal id, counted) of the table's records file."""
    try:
        db = sqlite3.connect(path)
        try:
            players = {row[0] for row in db.execute("SELECT name FROM players")}
            games = Counter(row[0] for row in db.execute("SELECT journal_game_id FROM games"))
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return players, games


def _outbox_marks(path: Path) -> set[str] | str:
    try:
        db = sqlite3.connect(path)
        try:
            return {row[0] for row in db.execute("SELECT journal_game_id FROM acked")}
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)


class Cycle:
    """One meeting on a fresh disk: `cuts` power cuts at random moments, then played to its end."""

    def __init__(self, folder: Path, seed: int, figures: Figures, say: Any = print, games: int = GAMES) -> None:
        self.folder, self.seed, self.figures, self.say, self.games = folder, seed, figures, say, games
        self.rng = random.Random(seed)
        self.image = folder / "disk"
        self.mountpoint = folder / "mnt"
        for name in ("journal", "data"):
            (self.image / name).mkdir(parents=True, exist_ok=True)
        self.journal_image = self.image / "journal" / "journal.sqlite"
        self.acked: dict[tuple[str, int], int] = {}
        self.marks: set[str] = set()
        self.players: set[str] = set()  # added to the table's records file (acknowledged)
        self.results: set[str] = set()  # games whose result the records file took (acknowledged)
        self.records_image = self.image / "data" / "records.sqlite"
        self.code: str | None = None
        self.runs = 0
        self.meeting_over = False  # the table played and reported every game before a cut came

    def run(self, cuts: int, longest: float = 3.0) -> None:
        host = Host(self.folder, self.games)
        try:
            for _ in range(cuts):
                if not self._cut_once(host, longest):
                    break
            self._play_to_end(host)
        finally:
            host.close()

    def _start(self, host: Host) -> tuple[LazyMount, Table]:
        self.runs += 1
        mount = LazyMount(self.image, self.mountpoint)
        return mount, Table(host, self.mountpoint, self.seed * 1000 + self.runs, self.folder / "table.log")

    def _cut_once(self, host: Host, longest: float) -> bool:
        before = journal_events(self.journal_image) if self.journal_image.exists() else {}
        mount, table = self._start(host)
        # Most cuts come while the bots play (a random moment after the first event); some while it starts.
        while_starting = self.rng.random() < 0.2
        delay = self.rng.uniform(0.1, 2.0 if while_starting else longest)
        if not while_starting:
            deadline = time.monotonic() + 60
            while not any(line.startswith("ack ") for line in table.lines.seen) and time.monotonic() < deadline \
                    and table.process.poll() is None:
                table.lines.next(0.05)
        try:
            table.process.wait(timeout=delay)
            self.say(f"  the meeting ended before the cut ({delay:.1f} s)")
            self.meeting_over = table.process.returncode == 0
            table.wait(10)
            mount.stop()
            self._read(table.lines.seen)
            return False
        except subprocess.TimeoutExpired:
            pass
        unsynced = mount.cut()
        lines = table.kill()
        mount.stop()
        results_before = len(self.results)
        acked, marks = self._read(lines)
        self.figures.cuts += 1
        self.figures.records_acks.append(len(self.results) - results_before)
        self.figures.acked.append(acked)
        self.figures.outbox_acks.append(marks)
        self.figures.unsynced_at_cut.append(unsynced)
        self._check_after_cut(before if isinstance(before, dict) else {}, lines)
        return True

    def _read(self, lines: list[str]) -> tuple[int, int]:
        acked = marks = 0
        for line in lines:
            parts = line.split()
            if parts[:1] == ["ack"] and len(parts) == 4:
                self.acked[(parts[1], int(parts[2]))] = int(parts[3])
                acked += 1
            elif parts[:1] == ["mark"] and len(parts) == 2:
                self.marks.add(parts[1])
                marks += 1
            elif parts[:1] == ["player"] and len(parts) == 2:
                self.players.add(parts[1])
            elif parts[:1] == ["result"] and len(parts) == 2:
                self.results.add(parts[1])
            elif parts[:1] == ["code"] and len(parts) == 2:
                if self.code is not None and parts[1] != self.code:
                    self.figures.codes_lost += 1
                    self.figures.problems.append(f"run {self.runs}: the evening's code changed after a cut")
                elif self.code is not None:
                    self.figures.codes_kept += 1
                self.code = parts[1]
        return acked, marks

    def _check_after_cut(self, before: dict[tuple[str, int], int], lines: list[str]) -> None:
        figures = self.figures
        for path in sorted(p for p in self.image.rglob("*") if p.is_file()):
            problem = _opens(path)
            if problem is None:
                continue
            figures.problems.append(f"cut {figures.cuts}: {path.relative_to(self.image)} would not open: {problem}")
            if path == self.journal_image:
                figures.journal_unopened += 1
            elif path == self.records_image:
                figures.records_unopened += 1
            elif path.name.endswith(".venue.sqlite"):
                figures.outbox_unopened += 1
            else:
                figures.other_unopened += 1
        events = journal_events(self.journal_image) if self.journal_image.exists() else {}
        if isinstance(events, str):
            return  # counted above as a journal that would not open
        lost = [key for key, crc in self.acked.items() if events.get(key) != crc]
        if lost:
            figures.events_lost += len(lost)
            figures.problems.append(f"cut {figures.cuts}: {len(lost)} acknowledged events lost, e.g. {lost[:3]}")
            for key in lost:  # counted once; the table may write that seq again
                del self.acked[key]
        per_game = Counter(game for game, _ in events)
        for game, count in per_game.items():
            last = max(seq for g, seq in events if g == game)
            if last != count:
                figures.events_doubled += abs(last - count)
                figures.problems.append(f"cut {figures.cuts}: game {game} has {count} events up to seq {last}")
        # The game under way resumes at its next event: the run after a cut, if it acknowledged any event of
        # a game the journal held before it, went on from that game's last event.
        first = next((line.split() for line in lines if line.startswith("ack ")), None)
        if first is not None and any(g == first[1] for g, _ in before):
            held = max(seq for g, seq in before if g == first[1])
            if int(first[2]) == held + 1:
                figures.resumed += 1
            else:
                figures.not_resumed += 1
                figures.problems.append(f"cut {figures.cuts}: game {first[1]} went on at {first[2]}, not {held + 1}")
        outbox = self.journal_image.parent / "journal.sqlite.venue.sqlite"
        if outbox.exists():
            marks = _outbox_marks(outbox)
            if isinstance(marks, set) and not self.marks <= marks:
                figures.outbox_lost += len(self.marks - marks)
                figures.problems.append(f"cut {figures.cuts}: the outbox lost the host's answer for "
                                        f"{sorted(self.marks - marks)[:3]}")
                self.marks &= marks

        self._check_records()

    def _check_records(self) -> None:
        """Every player and result the table's records file had taken is there, and no game twice."""
        figures = self.figures
        if not self.records_image.exists():
            if self.players or self.results:
                figures.records_lost += len(self.players) + len(self.results)
                figures.problems.append(f"cut {figures.cuts}: the records file is gone")
                self.players, self.results = set(), set()
            return
        held = _records_held(self.records_image)
        if isinstance(held, str):
            return  # counted above as a file that would not open
        players, games = held
        lost = (self.players - players) | (self.results - set(games))
        if lost:
            figures.records_lost += len(lost)
            figures.problems.append(f"cut {figures.cuts}: the records file lost {sorted(lost)[:3]}")
            self.players &= players
            self.results &= set(games)
        doubled = {game: n for game, n in games.items() if n > 1}
        if doubled:
            figures.records_doubled += sum(n - 1 for n in doubled.values())
            figures.problems.append(f"cut {figures.cuts}: the records file holds games twice: {sorted(doubled)[:3]}")

    def _play_to_end(self, host: Host) -> None:
        code = 0
        # Not again when the meeting is over: the table finished it before the last cut, or the cut came after
        # its last report (the host then refuses a table joining its closed meeting).
        if not self.meeting_over and len(host.recorded()) < self.games:
            mount, table = self._start(host)
            try:
                code = table.wait(300)
            finally:
                mount.stop()
            self._read(table.lines.seen)
        self.figures.meetings += 1
        events = journal_events(self.journal_image)
        finished = _finished_games(self.journal_image)
        host.close()  # what the host recorded, read once it stopped (another process saw only part of it before)
        recorded = host.recorded()
        self._check_records()
        held = _records_held(self.records_image) if self.records_image.exists() else (set(), Counter())
        if not isinstance(held, str) and set(held[1]) != set(_finished_games(self.journal_image)):
            self.figures.reported_wrong.append(
                f"meeting of cycle {self.seed}: the table's records file holds {len(held[1])} games, the journal "
                f"{len(_finished_games(self.journal_image))} finished")
        if code != 0 or recorded != finished or len(finished) != self.games or isinstance(events, str):
            self.figures.reported_wrong.append(
                f"meeting of cycle {self.seed}: exit {code}, host {len(recorded)} games "
                f"({len(set(recorded))} distinct), journal {len(finished)} finished")
        else:
            self.figures.reported_once += 1


def _finished_games(journal: Path) -> list[str]:
    db = sqlite3.connect(journal)
    try:
        return [row[0] for row in db.execute("SELECT id FROM games WHERE outcome IS NOT NULL ORDER BY rowid")]
    finally:
        db.close()


def run_cuts(cuts: int, per_cycle: int, seed: int, folder: Path, say: Any = print,
             longest: float = 3.0, games: int = GAMES) -> Figures:
    """`cuts` power cuts over meetings of `per_cycle` cuts each (the last may have fewer)."""
    figures = Figures()
    cycle_no = 0
    while figures.cuts < cuts:
        cycle_no += 1
        here = folder / f"cycle-{cycle_no}"
        shutil.rmtree(here, ignore_errors=True)
        here.mkdir(parents=True)
        before = figures.cuts
        Cycle(here, seed + cycle_no, figures, say, games).run(min(per_cycle, cuts - figures.cuts), longest)
        say(f"cycle {cycle_no}: {figures.cuts - before} cuts, {sum(figures.acked[before:])} events acknowledged "
            f"before them, {figures.events_lost} lost so far, {len(figures.problems)} problems so far")
        if figures.cuts == before:
            raise RuntimeError("a meeting ended before its first cut: cuts come too late (see table.log)")
    return figures
