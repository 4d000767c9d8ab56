"""A clock that lies: a Pi has no real-time clock and boots with an old time, set later by the network. A bot
table and its venue client play a meeting while their wall clock is set back a day and then forward a year
between events (an injected clock: see table_under_test.py); the journal and the meeting keep the order of
play, every game is reported once, the web console's code lasts its evening, and `journal list` says the jump."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

import rig

from kikimimi.console.web.access import evening
from kikimimi.paths import data_dir

DAY, YEAR = 86400, 365 * 86400


def test_a_meeting_played_while_the_clock_jumps_back_a_day_and_forward_a_year(tmp_path):
    """Two games: the clock goes back a day during the first (the second "begins" before it), and forward a
    year during the second."""
    host = rig.Host(tmp_path, games=2)
    clock = tmp_path / "clock"
    clock.write_text("0")
    (tmp_path / "journal").mkdir()
    table = rig.Table(host, tmp_path, 5, tmp_path / "table.log", "--pace", "0",
                      env={"KIKIMIMI_RIG_CLOCK": str(clock)})
    games: list[str] = []
    jumps = iter([-DAY, YEAR])
    try:
        deadline = time.monotonic() + 120
        while table.process.poll() is None and time.monotonic() < deadline:
            line = table.lines.next(0.5)
            if not line or not line.startswith("ack "):
                continue
            game = line.split()[1]
            if game not in games:  # a game begun: the clock jumps before its next event
                games.append(game)
                offset = next(jumps, None)
                if offset is not None:
                    clock.write_text(str(offset))
                    table.process.send_signal(signal.SIGUSR1)
        code = table.wait(30)
        table.lines.drain(5)  # the lines printed after the last one read above (the loop stops at the exit)
    finally:
        if table.process.poll() is None:
            table.kill()
        host.close()
    log = (tmp_path / "table.log").read_text(errors="replace")
    assert code == 0, log[-2000:]
    clock_lines = [line for line in table.lines.seen if line.startswith("clock ")]
    assert "clock -86400" in clock_lines and f"clock +{YEAR}" in clock_lines, clock_lines
    db = sqlite3.connect(table.journal)
    rows = db.execute("SELECT id, started_at, ended_at FROM games WHERE outcome IS NOT NULL ORDER BY rowid").fetchall()
    db.close()
    finished = [row[0] for row in rows]
    assert len(finished) == 2 and host.recorded() == finished  # every game reported once, in the order played
    (_, first_start, _), (_, second_start, second_end) = rows
    assert second_start < first_start  # the clock went back a day: the order is kept anyway
    assert second_end - second_start > YEAR / 2  # and forward a year during the second game
    config = tmp_path / "table.toml"
    shipped = (data_dir("devices") / "tables" / "trident-sim.toml").read_text()
    config.write_text(f'journal = "{table.journal}"\n' + shipped)
    listing = subprocess.run([sys.executable, "-m", "kikimimi", "journal", "list", "--config", str(config)],
                             capture_output=True, text=True, timeout=60, env={"COLUMNS": "200", "PATH": "/usr/bin"})
    assert "the clock went back" in listing.stdout, listing.stdout + listing.stderr
    rows = [line for line in listing.stdout.splitlines() if any(g in line for g in finished)]
    assert [next(g for g in finished if g in row) for row in rows] == finished  # listed in the order played


def test_the_evenings_code_lasts_its_evening_whatever_the_clock_does(tmp_path, monkeypatch):
    """In-process, with time.time shifted (an injected clock): the code's life is counted on the monotonic
    clock while the table runs; a restart reads the kept file by the wall clock."""
    journal = tmp_path / "journal.sqlite"
    tonight = evening(journal)
    left = tonight.seconds_left()
    real = time.time
    for offset in (-DAY, YEAR):
        monkeypatch.setattr(time, "time", lambda offset=offset: real() + offset)
        assert abs(tonight.seconds_left() - left) <= 2 and tonight.admits(tonight.cookie)
        assert tonight.matches(tonight.code)
    monkeypatch.setattr(time, "time", lambda: real() - DAY)
    assert evening(journal).code == tonight.code  # restarted with the clock set back: the same code
