"""`kikimimi bench nimmt`: the table's bot against the contract's reference players.

Each game: 4 players, target 66 (rounds until a total reaches 66), the bot in a random seat against 3
random players, then (a second series) against 3 safest-card players. Win credit: 1 per win, 1/k for
a k-way shared win; the 95% interval is the normal one over the games' credits. Decision time: every
card and row choice of the bot, p99. Games run through the real engine, in worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kikimimi.cliargs import whole

OPPONENTS = ("random", "safest")
FAIR_SHARE = 0.25
GOALS = {"random": 0.85, "safest": 0.35}
DECISION_BUDGET_MS = 200.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=whole(1), default=10000, help="games per series (default 10000)")
    parser.add_argument("--players", type=whole(2, 10), default=4, help="players per game (default 4)")
    parser.add_argument("--target", type=whole(1, 1000), default=66,
                        help="rounds until a total reaches this (default 66)")
    parser.add_argument("--opponents", choices=(*OPPONENTS, "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=whole(1, 64), default=2, help="worker processes (default 2)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def _timed(decide: Callable[..., int], times: list[float]) -> Callable[..., int]:
    def run(obs: Any, rng: random.Random) -> int:
        started = time.perf_counter()
        try:
            return decide(obs, rng)
        finally:
            times.append(time.perf_counter() - started)

    return run


def play_game(seed: int, opponents: str, players: int = 4, target: int = 66) -> tuple[float, list[float], int]:
    """One game: (the bot's win credit, its decision times in seconds, its seat)."""
    from kikimimi.games.nimmt.bots import NimmtBots, Player, monte_carlo_player, random_player, safest_player
    from kikimimi.games.nimmt.engine import Nimmt

    rng = random.Random(seed)
    bot_seat = rng.randint(1, players)
    times: list[float] = []
    bot = monte_carlo_player(rng)
    seats = {seat: (Player(_timed(bot.card, times), _timed(bot.row, times), "bot") if seat == bot_seat
                    else random_player() if opponents == "random" else safest_player())
             for seat in range(1, players + 1)}
    game = Nimmt()
    bots = NimmtBots(seed, seats)
    state = game.initial({"players": players, "target": target})
    while not game.is_over(state):
        event = bots.next_event(state)
        if event is None:  # cannot happen with bots in every seat; a guard against a hang
            break
        state, _ = game.apply(state, event)
    winners = state.result.winners if state.result else ()
    return (1 / len(winners) if bot_seat in winners else 0.0), times, bot_seat


def _chunk(args: tuple[int, int, str, int, int]) -> tuple[list[float], list[float]]:
    first, count, opponents, players, target = args
    credits, times = [], []
    for seed in range(first, first + count):
        credit, decided, _ = play_game(seed, opponents, players, target)
        credits.append(credit)
        times += decided
    return credits, times


def series(games: int, opponents: str, seed: int, workers: int, players: int = 4, target: int = 66) -> dict[str, Any]:
    """A series of games against one kind of opponents: credit, its 95% interval, decision times."""
    started = time.perf_counter()
    size = max(1, min(250, math.ceil(games / max(1, workers) / 4)))
    jobs = [(seed * 1_000_003 + first, min(size, games - first), opponents, players, target)
            for first in range(0, games, size)]
    credits: list[float] = []
    times: list[float] = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for part_credits, part_times in pool.map(_chunk, jobs):
                credits += part_credits
                times += part_times
    else:
        for job in jobs:
            part_credits, part_times = _chunk(job)
            credits += part_credits
            times += part_times
    n = len(credits)
    mean = sum(credits) / n
    variance = sum((c - mean) ** 2 for c in credits) / max(1, n - 1)
    half = 1.96 * math.sqrt(variance / n)
    times.sort()
    return {
        "opponents": opponents, "games": n, "credit": mean, "low": mean - half, "high": mean + half,
        "goal": GOALS.get(opponents), "decisions": len(times),
        "p50_ms": 1000 * times[len(times) // 2] if times else 0.0,
        "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0,
        "max_ms": 1000 * times[-1] if times else 0.0, "seconds": time.perf_counter() - started,
    }


def run(args: argparse.Namespace) -> int:
    kinds = OPPONENTS if args.opponents == "both" else (args.opponents,)
    results = [series(args.games, kind, args.seed, args.workers, args.players, args.target) for kind in kinds]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(title=f"kikimimi bench nimmt: the bot in a random seat, {args.players} players, "
                            f"target {args.target}, {args.games} games per series")
        for col in ("against", "win credit", "95% interval", "goal", "decisions", "p50 ms", "p99 ms", "max ms", "s"):
            table.add_column(col, justify="right")
        for r in results:
            table.add_row(f"3 {r['opponents']}", f"{r['credit']:.3f}", f"{r['low']:.3f}-{r['high']:.3f}",
                          f">= {r['goal']}", str(r["decisions"]), f"{r['p50_ms']:.1f}", f"{r['p99_ms']:.1f}",
                          f"{r['max_ms']:.1f}", f"{r['seconds']:.0f}")
        Console().print(table)
        print(f"fair share {FAIR_SHARE}; decision budget p99 <= {DECISION_BUDGET_MS:.0f} ms")
    ok = all(r["low"] > FAIR_SHARE and r["p99_ms"] <= DECISION_BUDGET_MS for r in results)
    return 0 if ok else 1
