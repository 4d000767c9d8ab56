"""`kikimimi bench wear` measures what the table's own process wrote (its /proc/PID/io) for a real game (the
command is run in the test's process: the host and the table are processes of their own anyway)."""

from __future__ import annotations

import json

from kikimimi.app.cli import main


def test_one_game_is_measured_from_the_tables_own_io(capsys):
    assert main(["bench", "wear", "--games", "1", "--json"]) == 0
    done = capsys.readouterr()
    figures = json.loads(done.out.splitlines()[-1])
    assert figures["games"] == 1 and figures["events"] > 20
    assert figures["write_bytes"] >= figures["files"]["journal.sqlite"] > 0  # at least the journal itself
    assert figures["synced_commits"] >= figures["events"]


def test_a_bad_count_is_one_line(capsys):
    assert main(["bench", "wear", "--games", "0"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
