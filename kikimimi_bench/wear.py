"""`kikimimi bench wear`: what an evening writes to the table's storage (an SD card on a Pi).

A contest of N games (default 20: an evening) is played by bots on a table that reports every game to a
`kikimimi venue host` on this machine (the host is not the Pi: its writes are not counted). The table's
process writes its journal, the journal's WAL and shared-memory index, the outbox and the web console's
code into a data folder of its own; its /proc/PID/io is read as it exits: `write_bytes` (what it sent
toward the disk, page cache write-back of its files included: WAL checkpoints and the -shm index too),
`wchar` (what it passed to write()), and the number of synced commits (each event and each game is one
SQLite transaction in WAL mode with synchronous=FULL: one fsync each). The files' final sizes are given
beside. The file system's own journal (ext4's jbd2, a few 4 KiB blocks per fsync) is not in these figures:
hardware_docs/hardware-notes.md adds it with its assumption and turns the figures into an SD card's life.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kikimimi.benchclock import Stopwatch

TOKEN = secrets.token_hex(16)  # the host refuses a guessable organiser token; hex never begins with "-"
# Runs the command, then prints its own /proc/self/io as the process ends (after every file is closed).
_MEASURED = ("import atexit, sys\n"
             "from kikimimi.app.cli import main\n"
             "atexit.register(lambda: print('IO ' + open('/proc/self/io').read().replace(chr(10), ' '), flush=True))\n"
             "sys.exit(main(sys.argv[1:]))\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="games in the evening (default 20)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds between the bots' taps (default 0: as fast as the table takes them)")
    parser.add_argument("--json", action="store_true")


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def measure(folder: Path, games: int, pace: float) -> dict[str, Any]:
    from kikimimi.records.store import RecordStore

    db = folder / "host" / "records.sqlite"
    db.parent.mkdir()
    with RecordStore(db) as store:
        store.meetings.start("contest", ["Aki", "Ben", "Chie"], add_unknown=True, tables=1)
    port = _free_port()
    with open(folder / "host.log", "wb") as log:
        host = subprocess.Popen([sys.executable, "-m", "kikimimi", "venue", "host", "--db", str(db), "--listen",
                                 f"127.0.0.1:{port}", "--token", TOKEN, "--games", str(games)],
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            if host.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the venue host did not start: {(folder / 'host.log').read_text()[-400:]}")
            time.sleep(0.1)
        data = folder / "table"
        data.mkdir()
        journal = data / "journal.sqlite"
        with Stopwatch() as watch:
            table = subprocess.run(
                [sys.executable, "-c", _MEASURED, "venue", "join", f"http://127.0.0.1:{port}", "--table", "1",
                 "--token", TOKEN, "--bots", "1", "--pace", str(pace), "--journal", str(journal), "--quiet"],
                capture_output=True, text=True, env={**os.environ, "KIKIMIMI_DATA": str(data)}, timeout=60 * games)
    finally:
        host.terminate()
        host.wait(timeout=10)
    io_line = next((line for line in table.stdout.splitlines() if line.startswith("IO ")), "")
    if table.returncode != 0 or not io_line:
        raise RuntimeError(f"the table failed (exit {table.returncode}): {table.stderr[-600:]}")
    fields = io_line[3:].split()
    io = {fields[i].rstrip(":"): int(fields[i + 1]) for i in range(0, len(fields) - 1, 2)}
    book = sqlite3.connect(journal)
    try:
        played = book.execute("SELECT COUNT(*) FROM games WHERE outcome IS NOT NULL").fetchone()[0]
        started = book.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        events = book.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        book.close()
    sizes = {path.name: path.stat().st_size for path in sorted(data.iterdir()) if path.is_file()}
    commits = events + 2 * started  # an event, a game begun, a game ended: one synced transaction each
    return {"games": played, "events": events, "synced_commits": commits, "write_bytes": io.get("write_bytes", 0),
            "wchar": io.get("wchar", 0), "write_syscalls": io.get("syscw", 0), "files": sizes,
            "per_game_bytes": io.get("write_bytes", 0) / max(1, played),
            "per_game_commits": commits / max(1, played), "wall_s": watch.wall, "load": watch.load}


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= 200 or not 0 <= args.pace <= 5:
        print("bench wear: --games from 1 to 200, --pace seconds from 0 to 5", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="kikimimi-wear-") as scratch:
        try:
            figures = measure(Path(scratch), args.games, args.pace)
        except (RuntimeError, subprocess.TimeoutExpired, OSError) as exc:
            print(f"bench wear: {exc}", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(figures))
        return 0
    n = figures["games"]
    print(f"an evening of {n} games (Trident, bots, reported to a venue host): {figures['events']} events, "
          f"{figures['synced_commits']} synced commits")
    print(f"  written toward the disk (write_bytes): {figures['write_bytes'] / 1e6:.2f} MB, "
          f"{figures['per_game_bytes'] / 1e3:.0f} kB a game; passed to write(): {figures['wchar'] / 1e6:.2f} MB in "
          f"{figures['write_syscalls']} calls")
    print(f"  per game: {figures['per_game_commits']:.0f} synced commits (one fsync each)")
    print("  files at the end: " + ", ".join(f"{name} {size / 1e3:.0f} kB" for name, size in figures["files"].items()))
    print(f"  {figures['wall_s']:.0f} s wall, load {figures['load']:.1f}; the file system's own journal is not "
          "counted (hardware_docs/hardware-notes.md adds it)")
    return 0
