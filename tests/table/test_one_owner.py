"""One table = one process (issue 15, item 7): a second `play` on the same journal refuses at once and leaves the
first table's game alone; a table killed with SIGKILL leaves no stale lock, so the next `play` resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from table_helpers import bot_script, journal_events, write_config
from waiting import exited, wait_until

from kikimimi.table.config import load_config
from kikimimi.table.journal import Journal
from kikimimi.table.live import TableRunning, open_table
from kikimimi.table.script import event_to_json, read_script

HELD = 12  # script lines the first table is fed before it just stays


def kikimimi(*args: str) -> list[str]:
    return [sys.executable, "-m", "kikimimi", *args]


def games(config):
    journal = Journal(load_config(config).journal)
    try:
        return [(g, [event_to_json(e) for e in journal.events(g.id)]) for g in journal.games()]
    finally:
        journal.close()


def events_now(folder) -> list | None:
    """The journal's events while another process writes it: read-only, so this never creates the schema under
    the table's feet."""
    try:
        return journal_events(folder / "journal.sqlite")
    except sqlite3.Error:
        return None


def test_a_second_play_refuses_and_a_sigkilled_table_leaves_no_stale_lock(tmp_path):
    config = write_config(tmp_path)
    script = bot_script(23, tmp_path)
    lines = script.read_text().splitlines()
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:HELD]) + "\n")
    first_events = [event_to_json(x.event) for x in read_script(lines[:HELD]) if x.event is not None]
    all_events = [event_to_json(x.event) for x in read_script(lines) if x.event is not None]

    first = subprocess.Popen(kikimimi("play", "--config", str(config), "--feed", str(part), "--stay", "--quiet",
                                      "--text-only"),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: events_now(tmp_path) == first_events, 30, "the first table's events", every=0.05,
                   gone=exited(first, "the first table"))

        second = subprocess.run(kikimimi("play", "--config", str(config)), capture_output=True, text=True,
                                timeout=30)
        assert second.returncode == 2, second.stderr
        assert "Traceback" not in second.stderr + second.stdout
        [message] = second.stderr.strip().splitlines()  # one line
        assert message.startswith("kikimimi: the table is already running (pid ")
        assert f"(pid {first.pid}, started at " in message
        assert message.endswith("stop it first, or attach the Priest's console to it with `kikimimi console`")
        time.sleep(0.3)
        assert events_now(tmp_path) == first_events  # the first table's game, exactly its own events
        assert first.poll() is None  # the first table carries on
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()

    # Killed outright: the kernel dropped the lock with the process; the next table starts and resumes.
    again = subprocess.run(kikimimi("play", "--config", str(config), "--feed", str(script), "--quiet", "--text-only"),
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr[-2000:]
    [(record, events)] = games(config)
    assert events == all_events and record.ended_at is not None


def test_the_lock_is_taken_before_any_device_and_released_on_close(tmp_path):
    config = load_config(write_config(tmp_path))
    table = open_table(config, transcript_only=True)
    try:
        with pytest.raises(TableRunning, match=rf"already running \(pid {os.getpid()}, started at "):
            open_table(config, transcript_only=True)
        assert (tmp_path / "journal.sqlite.lock").stat().st_mode & 0o077 == 0  # the owner's only
    finally:
        table.close()
    table = open_table(config, transcript_only=True)  # released on close: the same process may open it again
    table.close()
