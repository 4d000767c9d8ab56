"""Crash safety: a fed game killed with SIGKILL at random moments and restarted each time ends in the state of
the uninterrupted replay, with no event lost or applied twice."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

from table_helpers import bot_script, write_config

from kikimimi.table.config import load_config
from kikimimi.table.journal import Journal
from kikimimi.table.replay import replay
from kikimimi.table.script import event_to_json, read_script

KILLS = 8


def play(config, script) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kikimimi", "play", "--config", str(config), "--feed", str(script), "--quiet",
         "--pace", "0.03"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def journal_games(config):
    journal = Journal(load_config(config).journal)
    try:
        return [(g, [event_to_json(e) for e in journal.events(g.id)], list(journal.export(g.id)))
                for g in journal.games()]
    finally:
        journal.close()


def test_sigkill_at_random_moments_loses_nothing_and_applies_nothing_twice(tmp_path):
    config = write_config(tmp_path)
    script = bot_script(23, tmp_path)
    lines = script.read_text().splitlines()
    expected_events = [event_to_json(x.event) for x in read_script(lines) if x.event is not None]
    rng = random.Random(5)
    kills = 0
    for _ in range(KILLS):
        proc = play(config, script)
        time.sleep(rng.uniform(0.4, 1.6))
        if proc.poll() is not None:
            break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
        games = journal_games(config) if (tmp_path / "journal.sqlite").exists() else []
        if games and games[-1][0].ended_at is not None:
            break
    games = journal_games(config)
    if not games or games[-1][0].ended_at is None:  # the last restart, left to finish (a finished game is not
        final = play(config, script)  # fed again: that would be a new game)
        _, err = final.communicate(timeout=120)
        assert final.returncode == 0, err.decode()[-2000:]
    assert kills >= 3, "the game ended before enough kills: make the script longer"

    games = journal_games(config)
    assert len(games) == 1, [g[0] for g in games]
    record, events, export = games[0]
    assert events == expected_events  # nothing lost, nothing twice
    assert record.outcome is not None
    resumed = replay(export, lang="en").report()
    straight = replay(lines, lang="en").report()
    for key in ("phase", "hands", "field", "penalties", "result", "basket_count", "declared"):
        assert resumed[key] == straight[key], key
    assert json.loads(export[0])["first"] == 1
