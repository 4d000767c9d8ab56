"""`kikimimi bench wear` measures what the table's own process wrote (its /proc/PID/io) for a real game."""

from __future__ import annotations

import json
import subprocess
import sys


def test_one_game_is_measured_from_the_tables_own_io():
    done = subprocess.run([sys.executable, "-m", "kikimimi", "bench", "wear", "--games", "1", "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["games"] == 1 and figures["events"] > 20
    assert figures["write_bytes"] >= figures["files"]["journal.sqlite"] > 0  # at least the journal itself
    assert figures["synced_commits"] >= figures["events"]


def test_a_bad_count_is_one_line():
    done = subprocess.run([sys.executable, "-m", "kikimimi", "bench", "wear", "--games", "0"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
