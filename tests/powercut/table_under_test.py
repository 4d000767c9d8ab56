"""The power-cut rig's table: `kikimimi ARGS` as the command runs it, plus lines on standard output that the
rig reads (an instrument of the test, not of the table):

    ack GAME_ID SEQ CRC   an event's journal append returned (acknowledged: its speech may begin); CRC is
                          the CRC-32 of the event as the journal stores it
    mark GAME_ID          the outbox took the host's answer for that game (it will not be sent again)
    player NAME           a player was added to the table's records file (`$KIKIMIMI_DATA/records.sqlite`)
    result GAME_ID        a finished game's result was written to that records file (its commit returned)
    code CODE             the evening's web-console code, as the table would print it: only once its file
                          (beside the journal) reads back with it; one that could not be saved is not shown

The table's records file: a table that keeps its own records writes, as a one-table meeting does (`kikimimi meeting
start` on the table: `store.players.add`, `store.meetings.start`, `store.games.record_outcome` at each game's end),
the players and every finished game's result into the data folder. Here each game is recorded as the journal
finishes it, and at a start every finished game of the journal not yet in the records is recorded (a cut between
the two), as the venue client's outbox replays what the host has not taken.

With KIKIMIMI_RIG_CLOCK=FILE, the process's wall clock (time.time) is the real one plus the seconds in FILE,
read again on SIGUSR1: a clock set back or forward while the table runs, as a Pi's is when the network sets
it after a boot without a real-time clock (the monotonic clock goes on, as it does then). An injected clock:
libfaketime's faked monotonic clock makes Python's sleeps fail here, and a real jump leaves it alone.

    python tests/powercut/table_under_test.py venue join URL --table 1 --bots 7 --journal J
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
import time
import zlib
from pathlib import Path
from typing import Any

from kikimimi.app.cli import main
from kikimimi.console.web.access import evening
from kikimimi.games.base import Outcome
from kikimimi.games.codec import event_to_json
from kikimimi.table import journal as journal_module
from kikimimi.venue import client

_append = journal_module.Journal.append
_mark = client.Outbox.mark
_finish = journal_module.Journal.finish
PLAYERS = ("Aki", "Ben", "Chie")  # the rig's meeting (tests/powercut/rig.py: Host)


def _acknowledged(self: journal_module.Journal, game_id: str, seq: int, event: Any) -> None:
    _append(self, game_id, seq, event)
    crc = zlib.crc32(json.dumps(event_to_json(event)).encode())
    print(f"ack {game_id} {seq} {crc}", flush=True)


def _marked(self: client.Outbox, meeting: int, journal_game_id: str, *args: Any, **kwargs: Any) -> None:
    _mark(self, meeting, journal_game_id, *args, **kwargs)
    print(f"mark {journal_game_id}", flush=True)


class TableRecords:
    """The table's records file in its data folder: the players, a contest for them, each game's result."""

    def __init__(self, path: Path) -> None:
        from kikimimi.records.store import RecordStore

        self.path = path
        with RecordStore(path, create=True) as store:
            for name in PLAYERS:
                if store.players.find(name) is None:
                    store.players.add(name)
                    print(f"player {name}", flush=True)
            meeting = store.meetings.current()
            self.meeting = meeting.id if meeting is not None else store.meetings.start("contest", list(PLAYERS))

    def record(self, game_id: str, outcome: Outcome) -> None:
        from kikimimi.records.store import RecordStore

        with RecordStore(self.path) as store:
            store.games.record_outcome(self.meeting, dict(enumerate(PLAYERS, start=1)), outcome, game_id)
        print(f"result {game_id}", flush=True)

    def catch_up(self, journal: Path) -> None:
        """Record the journal's finished games the records do not hold (the same game is never recorded twice:
        `record_game` knows it by its journal id)."""
        if not journal.exists():
            return
        db = sqlite3.connect(journal)
        try:
            finished = db.execute("SELECT id, outcome FROM games WHERE outcome IS NOT NULL ORDER BY rowid").fetchall()
        finally:
            db.close()
        db = sqlite3.connect(self.path)
        try:
            held = {row[0] for row in db.execute("SELECT journal_game_id FROM games")}
        finally:
            db.close()
        for game_id, outcome in finished:
            if game_id not in held:
                self.record(game_id, Outcome.from_json(json.loads(outcome)))


def _recording(records: TableRecords) -> Any:
    def finish(self: journal_module.Journal, game_id: str, outcome: Outcome | None) -> None:
        _finish(self, game_id, outcome)
        if outcome is not None:
            records.record(game_id, outcome)

    return finish


def _lying_clock(path: str) -> None:
    real = time.time
    offset = [0.0]

    def reread(signum: int = 0, frame: Any = None) -> None:
        offset[0] = float(Path(path).read_text() or 0)
        # One write of the whole line, straight to the descriptor: the handler may run while the main
        # thread is inside a print (its text already buffered, its newline not), and a print here would
        # land in the middle of that line.
        os.write(sys.stdout.fileno(), f"clock {offset[0]:+.0f}\n".encode())

    reread()
    signal.signal(signal.SIGUSR1, reread)
    time.time = lambda: real() + offset[0]


if __name__ == "__main__":
    if os.environ.get("KIKIMIMI_RIG_CLOCK"):
        _lying_clock(os.environ["KIKIMIMI_RIG_CLOCK"])
    journal_module.Journal.append = _acknowledged  # type: ignore[method-assign]
    client.Outbox.mark = _marked  # type: ignore[method-assign]
    argv = sys.argv[1:]
    if os.environ.get("KIKIMIMI_DATA") and "--journal" in argv:
        records = TableRecords(Path(os.environ["KIKIMIMI_DATA"]) / "records.sqlite")
        records.catch_up(Path(argv[argv.index("--journal") + 1]))
        journal_module.Journal.finish = _recording(records)  # type: ignore[method-assign]
    if "--journal" in argv:
        tonight = evening(argv[argv.index('--journal') + 1])
        if tonight.saved:
            print(f"code {tonight.code}", flush=True)
    sys.exit(main(argv))
