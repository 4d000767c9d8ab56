"""`kikimimi bench numeron`: the solver's calls over every secret, the bots' decision time, and how much
items shorten the bots' games.

1. Every possible secret, no items: the calls the bot's solver needs (NUMERON call included): average,
   worst, histogram, for 3, 4 and 5 digits (targets: 4 digits <= 5.25 and worst 7, 3 digits <= 5.00
   and worst 6; the optimum for 4 digits is 26274/5040 = 5.2131).
2. Bot games through the engine: the time of each bot decision (`next_event` at the start of a turn or
   a call, or for DOUBLE's place: where the bot chooses), p50/p99/max (target p99 <= 50 ms), the p99 of
   every tap, and the calls the winner needed with and without items (mean with a 95% interval).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from kikimimi.cliargs import whole

DEFAULT_CONFIGS = ("3", "4", "5", "4:3", "5:7")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--digits", type=whole(3, 5), nargs="*", default=[3, 4, 5],
                        help="solver table for these (3 to 5 digits, as the game has)")
    parser.add_argument("--games", type=whole(1), default=100, help="bot games per configuration (default 100)")
    parser.add_argument("--configs", nargs="*", default=list(DEFAULT_CONFIGS),
                        help="bot game configurations DIGITS[:ITEMS] (default 3 4 5 4:3 5:7)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of tables")


def solver_table(digits: int) -> dict[str, Any]:
    """The calls for every secret: the shipped tree, else the bot's run-time rule played out."""
    from kikimimi.games.numeron.bots import next_call
    from kikimimi.games.numeron.judge import judge, tree_calls
    from kikimimi.games.numeron.solver import numbers

    started = time.perf_counter()
    counts = []
    rng = random.Random(0)
    for secret in numbers(digits):
        calls = tree_calls(secret, digits)
        if calls is None:  # not covered by a shipped tree: play the bot's rule
            log: list[list[Any]] = []
            while True:
                call = next_call(digits, log, 1, rng)
                eat, bite = judge(secret, call)
                log.append(["call", 1, call, eat, bite])
                if eat == digits:
                    break
            calls = len(log)
        counts.append(calls)
    hist = {str(k): counts.count(k) for k in sorted(set(counts))}
    return {"digits": digits, "secrets": len(counts), "total": sum(counts), "average": sum(counts) / len(counts),
            "worst": max(counts), "histogram": hist, "seconds": time.perf_counter() - started}


def _mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    if len(values) < 2:
        return (values[0] if values else math.nan, math.nan)
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def bot_games(digits: int, items: int, games: int, seed: int) -> dict[str, Any]:
    from kikimimi.games.numeron.invariants import privacy_leaks
    from kikimimi.games.registry import get_info

    info = get_info("numeron")
    game = info.game
    setup = info.parse_setup({"digits": digits, "items": items})
    times: list[float] = []
    decisions: list[float] = []
    winner_calls: list[float] = []
    leaks = 0
    items_used = 0
    for g in range(games):
        bots = info.new_bots(seed * 100003 + g, setup)
        state = game.initial(setup)
        for _ in range(info.max_events):
            # A decision point: the start of a turn or of a call (what to call, which item), DOUBLE's place.
            deciding = state.phase == "play" and (state.step == "double_choice" or (state.step == "call"
                                                                                  and not state.call))
            started = time.perf_counter()
            event = bots.next_event(state)
            elapsed = time.perf_counter() - started
            times.append(elapsed)
            if deciding:
                decisions.append(elapsed)
            if event is None:
                break
            after, effects = game.apply(state, event)
            leaks += len(privacy_leaks(state, event, effects, after))
            state = after
        report = game.report(state)
        result = report["result"] or {}
        if result.get("winner"):
            winner_calls.append(result["calls"][str(result["winner"])])
        items_used += sum(len(v) for v in report["items_used"].values())
    times.sort()
    decisions.sort()
    mean, half = _mean_ci(winner_calls)
    return {"digits": digits, "items": items, "games": games, "taps": len(times), "decisions": len(decisions),
            "p50_ms": 1000 * decisions[len(decisions) // 2], "p99_ms": 1000 * decisions[int(len(decisions) * 0.99)],
            "max_ms": 1000 * decisions[-1], "tap_p99_ms": 1000 * times[int(len(times) * 0.99)],
            "winner_calls": mean, "winner_calls_ci95": half,
            "items_per_game": items_used / games, "privacy_leaks": leaks}


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    solver = [solver_table(d) for d in args.digits]
    configs = []
    for text in args.configs:
        d, _, i = text.partition(":")
        configs.append(bot_games(int(d), int(i or 0), args.games, args.seed))
    if args.json:
        print(json.dumps({"solver": solver, "bots": configs}, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title="Numeron solver: calls to find every secret, no items")
    for col in ("digits", "secrets", "average", "worst", "histogram"):
        table.add_column(col, justify="right")
    for s in solver:
        table.add_row(str(s["digits"]), str(s["secrets"]), f"{s['total']}/{s['secrets']} = {s['average']:.4f}",
                      str(s["worst"]), " ".join(f"{k}:{v}" for k, v in s["histogram"].items()))
    console.print(table)
    table = Table(title=f"Numeron bot games ({args.games} per row, seed {args.seed})")
    for col in ("digits", "items", "decision p50", "p99", "max", "any tap p99", "winner's calls (95%)",
                "items/game", "leaks"):
        table.add_column(col, justify="right")
    for c in configs:
        table.add_row(str(c["digits"]), str(c["items"]), f"{c['p50_ms']:.2f} ms", f"{c['p99_ms']:.1f} ms",
                      f"{c['max_ms']:.1f} ms", f"{c['tap_p99_ms']:.1f} ms",
                      f"{c['winner_calls']:.2f} ± {c['winner_calls_ci95']:.2f}",
                      f"{c['items_per_game']:.1f}", str(c["privacy_leaks"]))
    console.print(table)
    console.print("targets: 4 digits <= 5.25 (optimum 5.2131), worst 7; 3 digits <= 5.00, worst 6; "
                  f"decision p99 <= 50 ms. Took {time.perf_counter() - started:.0f} s")
    return 0
