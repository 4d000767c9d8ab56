"""`kikimimi bench powercut`: a live table and its venue client cut off at random moments, on a disk that
forgets whatever was not synced, then "rebooted" and started again (tests/powercut/: the rig and its FUSE
filesystem, which need root, /dev/fuse, Debian's fuse3 and python3-pyfuse3).

The rig is a test instrument and lives in the checkout's tests/ folder, not in the installed package: this
bench runs from a checkout only, and says so elsewhere.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from kikimimi.benchclock import Stopwatch, children_cpu_seconds

RIG = Path(__file__).resolve().parents[1] / "tests" / "powercut" / "rig.py"  # kikimimi_bench/ is beside tests/


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cuts", type=int, default=200, help="power cuts to make (default 200)")
    parser.add_argument("--per-meeting", type=int, default=10,
                        help="cuts in one meeting before it is played to its end and checked (default 10)")
    parser.add_argument("--longest", type=float, default=3.0,
                        help="a cut comes at most this many seconds after the table's first event (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep the disks and logs in this folder")
    parser.add_argument("--json", action="store_true")


def _rig() -> ModuleType | str:
    if not RIG.exists():
        return f"the power-cut rig is not here ({RIG}): run this bench from a checkout of kikimimi"
    sys.path.insert(0, str(RIG.parent))
    spec = importlib.util.spec_from_file_location("rig", RIG)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rig"] = module
    spec.loader.exec_module(module)
    reason = module.missing()
    return f"the power-cut rig {reason}" if reason else module


def run(args: argparse.Namespace) -> int:
    for name in ("cuts", "per_meeting"):
        if getattr(args, name) < 1:
            print(f"bench powercut: --{name.replace('_', '-')} must be 1 or more", file=sys.stderr)
            return 2
    if not 0.1 < args.longest <= 60:
        print("bench powercut: --longest must be seconds above 0.1 and at most 60", file=sys.stderr)
        return 2
    rig = _rig()
    if isinstance(rig, str):
        print(f"bench powercut: {rig}", file=sys.stderr)
        return 2
    say = (lambda line: None) if args.json else print
    with tempfile.TemporaryDirectory(prefix="kikimimi-powercut-") as scratch:
        folder = args.keep or Path(scratch)
        children = children_cpu_seconds()
        with Stopwatch() as watch:
            figures = rig.run_cuts(args.cuts, args.per_meeting, args.seed, folder, say, args.longest)
        cpu = watch.cpu + children_cpu_seconds() - children
    data = {**figures.to_json(), "wall_s": round(watch.wall, 1), "cpu_s": round(cpu, 1), "load": watch.load}
    if args.json:
        print(json.dumps(data))
        return 1 if figures.failed else 0
    acked = figures.acked
    print(f"\npower cuts made: {figures.cuts} over {figures.meetings} meetings of 10 games (seed {args.seed})")
    print(f"journal: events acknowledged before each cut: {sum(acked)} in all, per cut median "
          f"{sorted(acked)[len(acked) // 2]}, min {min(acked)}, max {max(acked)}; lost: {figures.events_lost}; "
          f"doubled or missing in a game: {figures.events_doubled}; would not open: {figures.journal_unopened}")
    print(f"outbox: host answers taken before each cut: {sum(figures.outbox_acks)} in all; lost: "
          f"{figures.outbox_lost}; would not open: {figures.outbox_unopened}")
    print(f"records file: results taken before each cut: {sum(figures.records_acks)} in all; lost (results or "
          f"players): {figures.records_lost}; doubled: {figures.records_doubled}; would not open: "
          f"{figures.records_unopened}")
    print(f"other files that would not open (web-console code, ...): {figures.other_unopened}; evening's code "
          f"kept over a cut {figures.codes_kept} times, lost {figures.codes_lost}")
    print(f"games resumed at the next event after a cut: {figures.resumed}, not: {figures.not_resumed}")
    print(f"meetings reported exactly once (every finished game, once, in order): {figures.reported_once} of "
          f"{figures.meetings}")
    for problem in figures.problems[:20] + figures.reported_wrong[:20]:
        print(f"  {problem}")
    print(f"{watch.wall:.0f} s wall, {cpu:.0f} s CPU (this process and its children), load {watch.load:.1f}")
    return 1 if figures.failed else 0
