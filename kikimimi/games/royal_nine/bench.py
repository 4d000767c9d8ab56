"""`kikimimi bench royal-nine`: the placement players' strength and the solver's speed.

- Mean round score of the bot (the exact expectimax), a greedy and a random player over seeded deals
  (no tens, and tens), with 95% intervals. Each deal is one round: a common card and 4 + 4 cards to
  each seat; both seats' scores count (one seat's choices never change the other's score), the
  interval is taken over deals (each deal's mean of its two seats).
- The bot's placements equal the brute-force expectimax (brute.py) on sampled deals (both halves).
- Decision times (p50, p99) of the bot's first-half and second-half decisions, measured serially.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kikimimi.cliargs import whole
from kikimimi.games.royal_nine.cards import deck
from kikimimi.games.royal_nine.policies import HALF_POLICIES
from kikimimi.games.royal_nine.scoring import grid_score
from kikimimi.games.royal_nine.state import HALF

PLAYERS = ("expectimax", "greedy", "random")
LABELS = {"expectimax": "bot (expectimax)", "greedy": "greedy", "random": "random"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=whole(1), default=10_000, help="seeded deals per variant (default 10000)")
    parser.add_argument("--brute", type=int, default=200,
                        help="deals without tens checked against the brute force (default 200)")
    parser.add_argument("--brute-tens", type=int, default=20,
                        help="deals with tens checked against the brute force (default 20; ~5 s each)")
    parser.add_argument("--timing", type=int, default=500, help="deals whose decisions are timed (default 500)")
    parser.add_argument("--variants", choices=("both", "plain", "tens"), default="both")
    parser.add_argument("--jobs", type=whole(1, 64), default=2, help="worker processes for the score runs (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def deal(seed: int, index: int, tens: bool) -> tuple[str, dict[int, list[list[str]]]]:
    """One seeded deal: the common card and each seat's two halves."""
    cards = list(deck(tens))
    random.Random(f"{seed}:{index}:{tens}").shuffle(cards)
    return cards[0], {1: [cards[1:5], cards[9:13]], 2: [cards[5:9], cards[13:17]]}


def play_seat(player: str, common: str, halves: dict[int, list[list[str]]], seat: int, tens: bool,
              rng: random.Random) -> tuple[list[str | None], dict[str, int], dict[str, int]]:
    """A seat's grid after both halves placed by `player`, from what the seat knows."""
    policy = HALF_POLICIES[player]
    first = halves[1][0] + halves[2][0]
    unseen1 = [c for c in deck(tens) if c not in first]
    p1 = policy({}, halves[seat][0], unseen1, HALF, rng)
    fixed = {cell: card for card, cell in p1.items()}
    everything = first + halves[1][1] + halves[2][1]
    unseen2 = [c for c in deck(tens) if c not in everything]
    p2 = policy(fixed, halves[seat][1], unseen2, 0, rng)
    grid: list[str | None] = [None] * 9
    for card, cell in (*p1.items(), *p2.items()):
        grid[cell] = card
    return grid, p1, p2


def _scores(job: tuple[int, int, int, bool]) -> dict[str, list[float]]:
    """Per deal, each player's mean of the two seats' round scores."""
    seed, start, stop, tens = job
    out: dict[str, list[float]] = {player: [] for player in PLAYERS}
    for index in range(start, stop):
        common, halves = deal(seed, index, tens)
        rng = random.Random(f"random-player:{seed}:{index}")
        for player in PLAYERS:
            total = sum(grid_score(play_seat(player, common, halves, seat, tens, rng)[0], common) for seat in (1, 2))
            out[player].append(total / 2)
    return out


def measure_scores(deals: int, seed: int, tens: bool, jobs: int) -> dict[str, dict[str, float]]:
    chunk = max(1, deals // (jobs * 8))
    work = [(seed, start, min(deals, start + chunk), tens) for start in range(0, deals, chunk)]
    merged: dict[str, list[float]] = {player: [] for player in PLAYERS}
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_scores, work))
    else:
        parts = [_scores(job) for job in work]
    for part in parts:
        for player in PLAYERS:
            merged[player] += part[player]
    result = {}
    for player, values in merged.items():
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
        result[player] = {"mean": mean, "low": mean - half, "high": mean + half, "deals": len(values)}
    return result


def measure_times(deals: int, seed: int, tens: bool) -> dict[str, dict[str, float]]:
    """The bot's decision times, serially, the solver's caches cleared so that nothing is reused."""
    from kikimimi.games.royal_nine.solver import _solve, solve

    times: dict[str, list[float]] = {"first half": [], "second half": []}
    cpu: dict[str, list[float]] = {"first half": [], "second half": []}  # without the time other processes take
    common, halves = deal(seed, 0, tens)
    play_seat("expectimax", common, halves, 1, tens, random.Random(0))  # warm the shape caches
    for index in range(deals):
        common, halves = deal(seed, 10_000_000 + index, tens)
        first = halves[1][0] + halves[2][0]
        everything = first + halves[1][1] + halves[2][1]
        for seat in (1, 2):
            _solve.cache_clear()
            started, started_cpu = time.perf_counter(), time.thread_time()
            p1 = solve({}, halves[seat][0], [c for c in deck(tens) if c not in first], HALF).best()
            times["first half"].append(time.perf_counter() - started)
            cpu["first half"].append(time.thread_time() - started_cpu)
            fixed = {cell: card for card, cell in p1.items()}
            started, started_cpu = time.perf_counter(), time.thread_time()
            solve(fixed, halves[seat][1], [c for c in deck(tens) if c not in everything], 0).best()
            times["second half"].append(time.perf_counter() - started)
            cpu["second half"].append(time.thread_time() - started_cpu)
    return {label: {"p50_ms": 1000 * _quantile(values, 0.5), "p99_ms": 1000 * _quantile(values, 0.99),
                    "max_ms": 1000 * max(values), "cpu_p99_ms": 1000 * _quantile(cpu[label], 0.99),
                    "decisions": len(values)} for label, values in times.items()}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(q * len(ordered))) - 1)]


def check_brute(deals: int, seed: int, tens: bool) -> dict[str, Any]:
    """The bot's placements (both halves of seat 1) against the brute-force expectimax."""
    from kikimimi.games.royal_nine.brute import brute_best

    agree = checked = 0
    mismatches = []
    for index in range(deals):
        common, halves = deal(seed, 20_000_000 + index, tens)
        _, p1, p2 = play_seat("expectimax", common, halves, 1, tens, random.Random(0))
        first = halves[1][0] + halves[2][0]
        everything = first + halves[1][1] + halves[2][1]
        hand1, hand2 = sorted(halves[1][0]), sorted(halves[1][1])
        fixed = {cell: card for card, cell in p1.items()}
        for bot, brute in (
            (tuple(p1[c] for c in hand1), brute_best({}, hand1, [c for c in deck(tens) if c not in first], HALF)),
            (tuple(p2[c] for c in hand2), brute_best(fixed, hand2, [c for c in deck(tens) if c not in everything], 0)),
        ):
            checked += 1
            if bot == brute:
                agree += 1
            else:
                mismatches.append({"deal": index, "bot": bot, "brute": brute})
    return {"decisions": checked, "equal": agree, "mismatches": mismatches[:5]}


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    variants = {"both": (False, True), "plain": (False,), "tens": (True,)}[args.variants]
    figures: dict[str, Any] = {}
    for tens in variants:
        name = "tens" if tens else "no tens"
        figures[name] = {
            "scores": measure_scores(args.deals, args.seed, tens, args.jobs),
            "times": measure_times(args.timing, args.seed, tens),
        }
        brute = args.brute_tens if tens else args.brute  # the brute force: ~2 s a first half, ~5 s with tens
        if brute:
            figures[name]["brute"] = check_brute(brute, args.seed, tens)
    figures["seconds"] = time.perf_counter() - started
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    _print(figures, args)
    ok = all(v["brute"]["equal"] == v["brute"]["decisions"] for k, v in figures.items()
             if isinstance(v, dict) and "brute" in v)
    return 0 if ok else 1


def _print(figures: dict[str, Any], args: argparse.Namespace) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for name, f in figures.items():
        if not isinstance(f, dict):
            continue
        table = Table(title=f"Royal Nine, {name}: mean round score over {args.deals} deals (95% interval)")
        for col in ("player", "mean", "95% interval"):
            table.add_column(col, justify="right")
        for player, s in f["scores"].items():
            table.add_row(LABELS[player], f"{s['mean']:.3f}", f"{s['low']:.3f} – {s['high']:.3f}")
        console.print(table)
        for label, t in f["times"].items():
            console.print(f"  bot {label} decision: p50 {t['p50_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms, "
                          f"max {t['max_ms']:.1f} ms, CPU p99 {t['cpu_p99_ms']:.1f} ms ({t['decisions']} decisions)")
        if "brute" in f:
            b = f["brute"]
            console.print(f"  bot = brute-force expectimax on {b['equal']}/{b['decisions']} decisions")
    console.print("targets: bot >= 4.85 without tens; first half <= 100 ms p99, second half <= 5 ms p99; "
                  f"took {figures['seconds']:.0f} s")
