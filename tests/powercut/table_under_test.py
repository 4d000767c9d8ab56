"""The power-cut rig's table: `kikimimi ARGS` as the command runs it, plus lines on standard output that the
rig reads (an instrument of the test, not of the table):

    ack GAME_ID SEQ CRC   an event's journal append returned (acknowledged: its speech may begin); CRC is
                          the CRC-32 of the event as the journal stores it
    mark GAME_ID          the outbox took the host's answer for that game (it will not be sent again)
    code CODE             the evening's web-console code, as the table would print it (kept beside the journal)

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
import sys
import time
import zlib
from pathlib import Path
from typing import Any

from kikimimi.app.cli import main
from kikimimi.console.web.access import evening
from kikimimi.games.codec import event_to_json
from kikimimi.table import journal as journal_module
from kikimimi.venue import client

_append = journal_module.Journal.append
_mark = client.Outbox.mark


def _acknowledged(self: journal_module.Journal, game_id: str, seq: int, event: Any) -> None:
    _append(self, game_id, seq, event)
    crc = zlib.crc32(json.dumps(event_to_json(event)).encode())
    print(f"ack {game_id} {seq} {crc}", flush=True)


def _marked(self: client.Outbox, meeting: int, journal_game_id: str, *args: Any, **kwargs: Any) -> None:
    _mark(self, meeting, journal_game_id, *args, **kwargs)
    print(f"mark {journal_game_id}", flush=True)


def _lying_clock(path: str) -> None:
    real = time.time
    offset = [0.0]

    def reread(signum: int = 0, frame: Any = None) -> None:
        offset[0] = float(Path(path).read_text() or 0)
        print(f"clock {offset[0]:+.0f}", flush=True)

    reread()
    signal.signal(signal.SIGUSR1, reread)
    time.time = lambda: real() + offset[0]


if __name__ == "__main__":
    if os.environ.get("KIKIMIMI_RIG_CLOCK"):
        _lying_clock(os.environ["KIKIMIMI_RIG_CLOCK"])
    journal_module.Journal.append = _acknowledged  # type: ignore[method-assign]
    client.Outbox.mark = _marked  # type: ignore[method-assign]
    argv = sys.argv[1:]
    if "--journal" in argv:
        print(f"code {evening(argv[argv.index('--journal') + 1]).code}", flush=True)
    sys.exit(main(argv))
