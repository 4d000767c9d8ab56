"""Commands that wait on a simulated table say what to do, before they wait (real commands, in subprocesses)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path


def _lines_until(stream, marker: str) -> Iterator[str]:  # noqa: ANN001 - a text pipe
    for line in stream:
        yield line
        if marker in line:
            return


def _run(argv: list[str], tmp_path: Path, marker: str) -> str:
    env = {**os.environ, "KIKIMIMI_DATA": str(tmp_path / "data"), "COLUMNS": "1000"}
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        seen = "".join(_lines_until(proc.stdout, marker))  # what it printed before it began to wait
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    return seen


def test_meeting_start_on_a_simulated_table_says_where_its_games_are_played(tmp_path):
    seen = _run(["meeting", "start", "--players", "Ann,Bob,Cid", "--trial", "half", "--add-new"], tmp_path,
                "Game 1 of 5.")
    assert "readers are simulated" in seen and "console's virtual table" in seen, seen
    assert "--results -" in seen and "venue join --bots" in seen, seen


def test_bringup_on_simulated_readers_says_how_to_tap_them(tmp_path):
    seen = _run(["bringup", "--plain"], tmp_path, "tap a tag on any reader")
    assert "simulated readers (field, hand:1, hand:2, hand:3): no hand taps them. Type ROLE TAG" in seen, seen
