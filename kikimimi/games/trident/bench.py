"""Trident engine speed: complete bot games and events per second on one core."""

from __future__ import annotations

import argparse
import json
import time

from kikimimi.games.trident.bots import BotRates
from kikimimi.games.trident.simulate import simulate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=5000, help="games per round (default 5000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best is reported (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def measure(games: int, rounds: int, seed: int) -> dict[str, dict[str, float]]:
    """Best of `rounds` for legal-only bots (like RLCard's random agents) and for mistake-making bots."""
    out: dict[str, dict[str, float]] = {}
    for label, rates in (("legal bots", BotRates.perfect()), ("bots with mistakes", BotRates())):
        best = None
        for _ in range(rounds):
            totals = simulate(games, seed, rates, checked=False)
            if best is None or totals.seconds < best.seconds:
                best = totals
        assert best is not None
        out[label] = {
            "games_per_second": best.games / best.seconds,
            "events_per_second": best.events / best.seconds,
            "events_per_game": best.events / best.games,
        }
    return out


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    figures = measure(args.games, args.rounds, args.seed)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"kikimimi bench engine ({args.games} games x {args.rounds} rounds, best round)")
    for col in ("bots", "games/s", "events/s", "events/game"):
        table.add_column(col, justify="right")
    for label, f in figures.items():
        table.add_row(label, f"{f['games_per_second']:,.0f}", f"{f['events_per_second']:,.0f}",
                      f"{f['events_per_game']:.1f}")
    console = Console()
    console.print(table)
    console.print(f"target: 3,000 games/s (legal bots); took {time.perf_counter() - started:.1f} s")
    return 0
