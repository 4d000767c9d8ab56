"""`kikimimi bench readers --replug N --stall N` (issue 15: the note's re-plug recovery p99 and stalled-reader
detection time): a short run through the real command, real ptys, the real hub and its real watchdog window."""

from __future__ import annotations

import argparse
import re

import pytest

from kikimimi.devices import bench
from kikimimi.devices.hub import BACKOFF_MAX, STALL_AFTER

ROW = re.compile(r"^(?P<name>replug back|replug tap|stall found|stall reopened)\s+n=\s*(?P<n>\d+)\s+"
                 r"p50\s+(?P<p50>[\d.]+) ms\s+p99\s+(?P<p99>[\d.]+) ms\s+max\s+(?P<max>[\d.]+) ms", re.M)


@pytest.mark.hardware_emulation
def test_replug_and_stall_bench_measures_each_plug_and_each_hang(capsys):
    parser = argparse.ArgumentParser(prog="kikimimi bench readers")  # the command's own options and run
    bench.add_arguments(parser)
    code = bench.run(parser.parse_args(["--replug", "3", "--unplugged", "0.3", "0.6", "--stall", "1"]))
    out = capsys.readouterr().out
    rows = {m["name"]: m for m in ROW.finditer(out)}
    assert set(rows) == {"replug back", "replug tap", "stall found", "stall reopened"}, out
    assert code == 0, out
    assert [int(rows[name]["n"]) for name in ("replug back", "replug tap")] == [3, 3]
    assert [int(rows[name]["n"]) for name in ("stall found", "stall reopened")] == [1, 1]
    back, tap = float(rows["replug back"]["p99"]), float(rows["replug tap"]["p99"])
    # Plugged back while the hub waits out its backoff: read again within its longest wait, the tag after "ok".
    assert 0 < back <= tap < (BACKOFF_MAX + 0.5) * 1000, out
    found, reopened = float(rows["stall found"]["max"]), float(rows["stall reopened"]["max"])
    assert STALL_AFTER * 1000 <= found <= reopened < (STALL_AFTER + 1.5) * 1000, out  # never before the window
    assert "mean 0." in out  # the unplugged durations were drawn from the range asked for

