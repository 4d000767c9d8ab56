"""Suhjong: solver speed and distribution; the bot's win share against a random and a greedy player."""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
import timeit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=2000, help="seeded games per match-up (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--solver-only", action="store_true", help="only the solver figures")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")


def solver_figures() -> dict[str, object]:
    """Cold build of every table (best of 5 in this process, and once in a fresh interpreter), look-up
    cost once built, and the distribution of best roles over the 2002 multisets."""
    from kikimimi.games.suhjong import solver

    builds = []
    for _ in range(5):
        started = time.perf_counter()
        solver.build_tables()
        builds.append(time.perf_counter() - started)
    code = ("import time; t=time.perf_counter(); from kikimimi.games.suhjong import solver; "
            "solver.best_table(); print(time.perf_counter()-t)")
    fresh = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    table = solver.best_table()
    keys = list(table)
    n = 200
    raw = min(timeit.repeat(lambda: [table[k] for k in keys], number=n, repeat=3)) / (n * len(keys))
    hands = [tuple(reversed(k)) for k in keys]  # unsorted: best() sorts
    via = min(timeit.repeat(lambda: [solver.best(h) for h in hands], number=20, repeat=3)) / (20 * len(hands))
    return {
        "build_seconds_best_of_5": min(builds),
        "fresh_interpreter_import_and_build_seconds": fresh,
        "lookup_seconds_table": raw,
        "lookup_seconds_best_unsorted": via,
        "distribution": solver.distribution(),
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (a draw counts half a win)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def match_figures(games: int, seed: int) -> dict[str, object]:
    from kikimimi.games.suhjong.bots import play_match

    out: dict[str, object] = {}
    for opponent in ("random", "greedy"):
        started = time.perf_counter()
        tally = play_match("bot", opponent, games, seed)
        share = (tally["wins"] + 0.5 * tally["draws"]) / games
        low, high = wilson(tally["wins"] + 0.5 * tally["draws"], games)
        out[f"bot_vs_{opponent}"] = {**tally, "games": games, "share": share, "interval95": [low, high],
                                     "seconds": time.perf_counter() - started}
    return out


def run(args: argparse.Namespace) -> int:
    figures: dict[str, object] = {"solver": solver_figures()}
    if not args.solver_only:
        figures["matches"] = match_figures(args.games, args.seed)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    s = figures["solver"]
    assert isinstance(s, dict)
    fresh = s["fresh_interpreter_import_and_build_seconds"]
    print(f"solver: all 2002 multisets built in {s['build_seconds_best_of_5'] * 1000:.1f} ms (best of 5; "
          f"target <= 500 ms); fresh interpreter, import + build {fresh:.3f} s")
    print(f"        look-up {s['lookup_seconds_table'] * 1e9:.0f} ns from the table, "
          f"{s['lookup_seconds_best_unsorted'] * 1e9:.0f} ns via best() on unsorted digits (target <= 1 us)")
    d = s["distribution"]
    print(f"        {d['multisets']} multisets: {d['no_role']} with no role, {d['role']} with a role, "
          f"{d['96_or_more']} with 96 or more")
    matches = figures.get("matches") or {}
    assert isinstance(matches, dict)
    for name, m in matches.items():
        low, high = m["interval95"]
        print(f"{name}: share {m['share']:.3f} (95% {low:.3f}-{high:.3f}) over {m['games']} games: "
              f"{m['wins']} won, {m['draws']} drawn, {m['losses']} lost, bot first in half ({m['seconds']:.0f} s)")
    return 0
