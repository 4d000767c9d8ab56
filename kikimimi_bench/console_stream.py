"""What one page's stream costs while the turn clock runs: bytes per minute per page, by kind of update.

`kikimimi bench console --stream [--seconds 60] [--pace 2]`: the first registered game with a turn clock
(Numeron among the shipped games) on its simulated table, 60 s a turn, the web console served beside it
as `play --web` serves it, and one page's
stream (`/api/events`, logged in with the evening's code) read for `--seconds` while bots play a game at
`--pace` seconds a tap (a new game when one ends). Every byte the page receives is counted, by the event
it came in: the full snapshots, the small health updates, the keep-alive comments.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kikimimi.benchclock import Stopwatch, load_average


def clocked_game() -> Any:
    """The first registered game that keeps a turn clock set by `turn_seconds` (a GameInfo)."""
    from kikimimi.games.registry import games

    for info in games():
        if any(key.name == "turn_seconds" for key in info.setup_keys) and info.clock_function() is not None:
            return info
    raise SystemExit("bench console --stream: no registered game keeps a turn clock")

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stream", action="store_true",
                        help="instead: bytes per minute of one page's stream while the turn clock runs")
    parser.add_argument("--seconds", type=float, default=60.0, help="with --stream: how long (default 60)")
    parser.add_argument("--pace", type=float, default=2.0, help="with --stream: seconds between taps (default 2)")


def run_stream(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-stream-") as home:
        figures = measure(Path(home), args.seconds, args.pace)
    if getattr(args, "json", False):
        print(json.dumps(figures))
    else:
        print_figures(figures)
    return 0 if figures["events"]["snapshot"]["n"] and figures["steps"] else 1


def measure(home: Path, seconds: float, pace: float, seed: int = 1) -> dict[str, Any]:
    import httpx

    from kikimimi.console.link import LocalLink
    from kikimimi.console.web.serve import start_beside
    from kikimimi.table.config import default_config_path, load_config
    from kikimimi.table.feed import SimTapper
    from kikimimi.table.live import open_table

    game = clocked_game()
    config = load_config(default_config_path(game.id), {"journal": str(home / "journal.sqlite"),
                                                        "turn_seconds": 60, "language": "en"})
    table = open_table(config, transcript_only=True)
    with contextlib.redirect_stdout(io.StringIO()):  # the address and code, printed for the Priest
        beside = start_beside(table, "127.0.0.1:0")
    url, code = beside.address.url, beside.address.code
    counts: dict[str, dict[str, int]] = {}
    stop = threading.Event()
    try:
        client = httpx.Client(base_url=url, timeout=10)
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                if client.get("/api/session").status_code == 200:
                    break
            time.sleep(0.05)
        assert client.post("/api/login", json={"code": code}, headers={"Origin": url}).status_code == 200

        def read() -> None:
            with client.stream("GET", "/api/events", timeout=None) as answer:
                kind = "other"
                for line in answer.iter_lines():
                    if stop.is_set():
                        return
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith(":"):
                        kind = "keep-alive"
                    tally = counts.setdefault(kind, {"n": 0, "bytes": 0})
                    tally["bytes"] += len(line.encode()) + 1
                    if not line:
                        tally["n"] += 1
                        kind = "other"

        reader = threading.Thread(target=read, name="bench-page", daemon=True)
        reader.start()
        tapper = SimTapper(table.loop, table.hub)
        link = LocalLink(table)
        bots = table.loop.info.new_bots(seed, table.loop.session.setup)
        rng = random.Random(seed)
        steps = 0
        clocked = 0.0
        with Stopwatch() as clock:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                event = bots.next_event(table.loop.state)
                if event is None:  # the game is over: the next one
                    first = rng.randint(1, game.seat_count(table.loop.session.setup))
                    link.new_game({"game": game.id, "first": first})
                    bots = table.loop.info.new_bots(seed + steps, table.loop.session.setup)
                    continue
                tapper.perform(event)
                steps += 1
                pause_until = min(deadline, time.monotonic() + pace)
                while time.monotonic() < pause_until:
                    clocked += 0.1 if table.loop.clock.remaining() is not None else 0.0
                    time.sleep(0.1)
        stop.set()
        counts_now = {kind: dict(tally) for kind, tally in counts.items()}
    finally:
        stop.set()
        beside()
        table.close()
    total = sum(t["bytes"] for t in counts_now.values())
    per_minute = 60.0 / clock.wall
    return {"game": game.title("en"), "seconds": clock.wall, "steps": steps, "clock_running_s": clocked,
            "events": {kind: {"n": t["n"], "bytes": t["bytes"], "bytes_per_min": t["bytes"] * per_minute}
                       for kind, t in sorted(counts_now.items())},
            "snapshot": counts_now.get("snapshot", {"n": 0, "bytes": 0}),
            "bytes_per_min": total * per_minute, "cpu_s": clock.cpu, "load": load_average()}


def print_figures(figures: dict[str, Any]) -> None:
    print(f"one page's stream, {figures['game']} with the turn clock running {figures['clock_running_s']:.0f} s of "
          f"{figures['seconds']:.0f} s, {figures['steps']} taps by bots:")
    for kind, tally in figures["events"].items():
        mean = tally["bytes"] / tally["n"] if tally["n"] else 0
        print(f"  {kind:<10} {tally['n']:>5} updates, {tally['bytes']:>9} B (mean {mean:.0f} B), "
              f"{tally['bytes_per_min'] / 1024:8.1f} KB/min")
    print(f"  total {figures['bytes_per_min'] / 1024:.1f} KB per minute per page · wall {figures['seconds']:.1f} s, "
          f"cpu {figures['cpu_s']:.2f} s (this process: the table, the web console and the page's reader) · "
          f"load {figures['load']:.2f}")
