"""`kikimimi bench readers --replug N --stall N` (issue 15: the note's re-plug recovery p99 and stalled-reader
detection time): a short run through the real command, real ptys, the real hub and its real watchdog window."""

from __future__ import annotations

import argparse
import re

import pytest

from kikimimi.devices.hub import BACKOFF_MAX, STALL_AFTER
from kikimimi_bench import readers as bench

ROW = re.compile(r"^(?P<name>replug back|replug tap|stall found|stall reopened)\s+n=\s*(?P<n>\d+)\s+"
                 r"p50\s+(?P<p50>[\d.]+) ms\s+p99\s+(?P<p99>[\d.]+) ms\s+max\s+(?P<max>[\d.]+) ms", re.M)


@pytest.mark.hardware_emulation
def test_replug_and_stall_bench_measures_each_plug_and_each_hang(capsys):
    parser = argparse.ArgumentParser(prog="kikimimi bench readers")  # the command's own options and run
    bench.add_arguments(parser)
    code = bench.run(parser.parse_args(["--replug", "3", "--unplugged", "0.3", "0.6", "--stall", "1",
                                          "--faults-of", "serial"]))
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



ANY_ROW = re.compile(r"^(?P<name>[a-z0-9 -]+?)\s+n=\s*(?P<n>\d+)\s+p50\s+(?P<p50>[\d.]+) ms\s+p99\s+(?P<p99>[\d.]+) ms",
                     re.M)


def run_bench(*argv: str) -> tuple[int, str, dict]:
    import contextlib
    import io

    parser = argparse.ArgumentParser(prog="kikimimi bench readers")
    bench.add_arguments(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = bench.run(parser.parse_args(list(argv)))
    text = out.getvalue()
    return code, text, {m["name"]: m for m in ANY_ROW.finditer(text)}


@pytest.mark.hardware_emulation
def test_the_pcsc_and_pn532_paths_are_measured_with_cpu_beside_wall_time(pcscd, pn532):
    code, out, rows = run_bench("--only", "pcsc", "--pcsc-samples", "3")
    assert int(rows["pcsc"]["n"]) == 3 and "wall " in out and " cpu " in out and " load " in out, out
    code, out, rows = run_bench("--only", "pn532", "--pn532-samples", "5")
    assert int(rows["pn532"]["n"]) == 5 and float(rows["pn532"]["p50"]) > 0, out
    code, out, rows = run_bench("--replug", "1", "--stall", "1", "--faults-of", "pcsc", "pn532")
    assert {"pcscd restart back", "pcscd restart tap", "pn532 replug back", "pn532 replug tap",
            "pn532 silent found", "pn532 back ok", "pn532 back tap"} <= set(rows), out
    assert "replug back" not in rows and "stall found" not in rows  # --faults-of leaves the serial ones out


def test_a_tap_that_times_out_is_reported_as_such_not_a_traceback(capsys):
    def never() -> float:
        raise bench.TapTimeout("no tap within 5 s: field reconnecting")

    samples = bench.Samples()
    samples.add(lambda: 0.012)
    samples.add(never)
    assert not bench._report("pn532", samples)
    out = capsys.readouterr().out
    assert "n=   1" in out and "1 timed out" in out and "OVER TARGET" in out
    assert "last timeout: no tap within 5 s: field reconnecting" in out
