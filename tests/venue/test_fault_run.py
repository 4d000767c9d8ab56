"""A small fault run of `kikimimi bench meeting` (its long form: --tables 3 --games 30 --kills 5 --table-kills 5
--full-disk 3 --outside-reader): a table process SIGKILLed mid-meeting and started again on its journal, and the
host's SQLite records on a real full disk (a size-limited tmpfs, filled until writes fail); every game is
recorded exactly once and nothing a table was told is recorded goes missing."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from kikimimi_bench.meeting import _small_disk, measure


def test_table_kill_and_full_disk_count_every_game_once() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root, to mount a size-limited tmpfs for the full disk (mount -t tmpfs -o size=...)")
    with tempfile.TemporaryDirectory(prefix="kikimimi-fault-run-") as folder, _small_disk(Path(folder)) as problem:
        if problem:
            pytest.skip(f"full disk: {problem}")
        f = measure(str(Path(folder) / "records.sqlite"), "SQLite on a small tmpfs", tables=2, games=3, pace=0.2,
                    seed=3, table_kills=1, full_disk=1)
    assert f["table_kills"] == 1 and f["table_starts"] == 3  # the fault happened: one table started twice
    assert f["full_disk_episodes"] == 1
    assert f["journal_games"] == 6 and f["results"] == 6 and f["doubled"] == 0 and f["acked_lost"] == 0
    assert f["counted_once"], f["errors"]
    assert f["meeting_status"] == "finished"
