"""The Trident: `bench engine` its speed (beside RLCard's UNO with --vs-rlcard), `bench trident` its bots.

`bench engine` times three loops are timed, each a whole game from the empty deal to the end:
- `moves`: the rules' moves played in place by random-legal policies (no taps, no phrases): the loop
  RLCard's UNO game runs (its `step` with a random legal action), the fair side of the comparison;
- `apply, legal bots`: the table's path, taps through `apply` with every phrase, copies for undo;
- `apply, bots with mistakes`: the same with wrong plays, forgotten declarations and stray taps.
CPU time is the figure (a shared machine stretches wall time); wall time and the load average beside it.

`bench trident` plays series of whole games (competition rules, the bot's seat and the first player
rotated) of the bot (strong.py's tree search with its notes of what the others did) against two
random-legal players and against two rule-based players, and for reference the rule-based and random
players against the same (`--only flat:...`: last round's flat search from counts, for comparison):
first-place share with its 95% interval, mean points left in hand, and the CPU time of each of the bot's
decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, cast

from kikimimi.benchclock import Stopwatch, load_average
from kikimimi.games.trident.bots import BotRates
from kikimimi.games.trident.inference import HandNotes
from kikimimi.games.trident.pieces import FULL_MASK, PIECE_OF
from kikimimi.games.trident.playout import Policy, playout, random_policy, rule_policy
from kikimimi.games.trident.state import TridentState
from kikimimi.games.trident.strong import (
    HOLD_WEIGHT,
    ITERATIONS,
    WORLDS,
    MonteCarlo,
    class_of,
    player,
    real_piece,
    seat_view,
)
from kikimimi_bench.trident_games import play_games

RLCARD_SCRIPT = Path(__file__).with_name("rlcard_uno.py")  # run by RLCard's own Python, beside this module
# RLCard and its numpy live in a virtual environment of their own, outside the repository (a cache).
RLCARD_VENV = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kikimimi" / "rlcard-venv"
RLCARD_PACKAGES = ("rlcard==1.2.0", "numpy")


def _at_least_one(text: str) -> int:
    """A count of games, iterations, deals or processes: a whole number of 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is fewer than 1")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each loop; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vs-rlcard", action="store_true",
                        help="alternate runs with RLCard's UNO game loop (installed in ~/.cache/kikimimi/rlcard-venv)")
    parser.add_argument("--series", type=_at_least_one, default=2000,
                        help="bench trident: games per series (default 2000)")
    parser.add_argument("--iterations", type=_at_least_one, default=ITERATIONS,
                        help=f"bench trident: the bot's search iterations a decision (default {ITERATIONS})")
    parser.add_argument("--worlds", type=_at_least_one, default=WORLDS,
                        help=f"bench trident: the flat search's deals per decision (default {WORLDS})")
    parser.add_argument("--workers", type=_at_least_one, default=2, help="bench trident: processes (default 2)")
    parser.add_argument("--seeing-all", action="store_true",
                        help="bench trident: also the same search given every hand, as a reference (not a player)")
    parser.add_argument("--only", nargs="+", metavar="PLAYER:AGAINST",
                        help="bench trident: only these series, e.g. seeing-all:random mc:rules "
                             "(players: mc, flat, rules, random, seeing-all)")
    parser.add_argument("--hand-bias", action="store_true",
                        help="bench trident: instead of the series, measure what opponents keep in hand (the bot's "
                             "HOLD_WEIGHT): each class's share in their hands over its share in the unseen pieces")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def moves_run(games: int, seed: int) -> dict[str, float]:
    """Whole games on the rules' moves with random-legal policies; CPU and wall time of the loop."""
    rnd = random.Random(seed).random
    policies = (None, random_policy, random_policy, random_policy)
    moves = 0
    with Stopwatch() as sw:
        for index in range(games):
            moves += playout(TridentState(first=index % 3 + 1), policies, rnd)
    return _figures(games, moves, sw)


def apply_run(games: int, seed: int, rates: BotRates) -> dict[str, float]:
    """Whole bot games through `apply` (taps, phrases, a new state per event)."""
    with Stopwatch() as sw:
        totals = play_games(games, seed, rates, checked=False)
    return _figures(games, totals.events, sw)


def _figures(games: int, steps: int, sw: Stopwatch) -> dict[str, float]:
    cpu_rate, wall_rate = sw.rate(games)
    return {"games_per_cpu_second": cpu_rate, "games_per_wall_second": wall_rate, "steps_per_game": steps / games,
            "cpu_seconds": sw.cpu, "wall_seconds": sw.wall, "load": sw.load}


def rlcard_python() -> Path:
    """RLCard's own environment, made on first use (kikimimi's environment stays free of it)."""
    python = RLCARD_VENV / "bin" / "python"
    if not python.exists() or subprocess.run([python, "-c", "import rlcard"], capture_output=True).returncode:
        print(f"installing {' '.join(RLCARD_PACKAGES)} into {RLCARD_VENV} ...", file=sys.stderr)
        venv.create(RLCARD_VENV, with_pip=True, clear=True)
        subprocess.run([python, "-m", "pip", "install", "-q", *RLCARD_PACKAGES], check=True)
    return python


def rlcard_run(python: Path, games: int, seed: int) -> dict[str, float]:
    out = subprocess.run([python, RLCARD_SCRIPT, "--games", str(games), "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return {"games_per_cpu_second": r["games"] / r["cpu_seconds"],
            "games_per_wall_second": r["games"] / r["wall_seconds"],
            "steps_per_game": r["decisions"] / r["games"], "cpu_seconds": r["cpu_seconds"],
            "wall_seconds": r["wall_seconds"], "load": load_average()}


def measure(games: int, rounds: int, seed: int, vs_rlcard: bool) -> dict[str, object]:
    """`rounds` runs of each loop, alternated (RLCard first in odd rounds), the median of each."""
    loops = {
        "moves, random-legal": lambda r: moves_run(games, seed + r),
        "apply, legal bots": lambda r: apply_run(games, seed + r, BotRates.perfect()),
        "apply, bots with mistakes": lambda r: apply_run(games, seed + r, BotRates()),
    }
    if vs_rlcard:
        python = rlcard_python()
        loops["RLCard UNO (3 players)"] = lambda r: rlcard_run(python, games, seed + r)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in loops}
    names = list(loops)
    for r in range(rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            runs[name].append(loops[name](r))
    out: dict[str, object] = {"games_per_run": games, "rounds": rounds, "loops": {}}
    for name, results in runs.items():
        out["loops"][name] = {  # type: ignore[index]
            key: statistics.median(x[key] for x in results) for key in results[0]
        } | {"cpu_rates": [round(x["games_per_cpu_second"]) for x in results]}
    if vs_rlcard:
        uno = runs["RLCard UNO (3 players)"]
        out["vs_rlcard"] = {
            name: {"median_ratio": statistics.median(a["games_per_cpu_second"] / b["games_per_cpu_second"]
                                                     for a, b in zip(runs[name], uno, strict=True)),
                   "ratios": [round(a["games_per_cpu_second"] / b["games_per_cpu_second"], 2)
                              for a, b in zip(runs[name], uno, strict=True)]}
            for name in names if name != "RLCard UNO (3 players)"
        }
    return out


def run(args: argparse.Namespace) -> int:
    if getattr(args, "target", "engine") != "engine":
        return run_strength(args)
    with Stopwatch() as whole:
        figures = measure(args.games, args.rounds, args.seed, args.vs_rlcard)
    figures["total"] = {"cpu_seconds": whole.cpu, "wall_seconds": whole.wall, "load": whole.load}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"kikimimi bench engine ({args.games} games a run, median of {args.rounds} runs, alternated)")
    for col in ("loop", "games / CPU s", "games / wall s", "steps / game", "CPU s a run", "load"):
        table.add_column(col, justify="right")
    loops = cast(dict[str, dict[str, float]], figures["loops"])
    for name, f in loops.items():
        table.add_row(name, f"{f['games_per_cpu_second']:,.0f}", f"{f['games_per_wall_second']:,.0f}",
                      f"{f['steps_per_game']:.1f}", f"{f['cpu_seconds']:.3f}", f"{f['load']:.2f}")
    console = Console(width=max(Console().width, 110))
    console.print(table)
    for name, pair in cast(dict[str, dict[str, Any]], figures.get("vs_rlcard", {})).items():
        console.print(f"{name} / RLCard UNO, CPU games/s, median of paired runs: {pair['median_ratio']:.2f}x "
                      f"(runs: {', '.join(f'{x:.2f}' for x in pair['ratios'])})")
    console.print(f"steps: moves or events (Trident), decisions (UNO). {whole.line()}")
    return 0


# -- bench trident: the bots' strength --------------------------------------------------------------


def _policy(name: str, seed: int, size: tuple[int, int], timings: list[float],
            notes: HandNotes | None = None) -> Policy:
    if name == "random":
        return random_policy
    if name == "rules":
        return rule_policy
    # "mc" and "seeing-all": the bot's own search; "flat": last round's bot (the flat search from counts only).
    worlds, iterations = size
    search = MonteCarlo(worlds=worlds, seed=seed) if name == "flat" else player(seed, iterations)

    def timed(s: TridentState, seat: int, legal: int, rnd: Callable[[], float]) -> int:
        started = time.process_time()
        # The reference ("seeing-all") runs the same search on the true state, every hand known.
        choice = search.best(seat, s.copy) if name == "seeing-all" else search.decide(seat_view(s, seat), notes)
        timings.append(time.process_time() - started)
        return real_piece(s.masks[seat], legal, choice, rnd)

    return timed


def series_chunk(job: tuple[str, str, int, int, int, tuple[int, int]]) -> dict[str, Any]:
    """Games `start`..`start+count-1` of a series: player `who` at one seat (rotated), `against` at the others."""
    who, against, start, count, seed, size = job
    timings: list[float] = []
    wins = points = other_points = 0
    cpu0 = time.process_time()
    for index in range(start, start + count):
        rnd = random.Random(seed * 1_000_003 + index).random
        me = index % 3 + 1
        policies: list[Policy | None] = [None, *(_policy(against, 0, size, timings) for _ in range(3))]
        notes = HandNotes(me) if who == "mc" else None  # what the bot heard the others do, step by step
        policies[me] = _policy(who, seed * 1_000_003 + index, size, timings, notes)
        s = TridentState(first=(index // 3) % 3 + 1, rules="competition")
        playout(s, policies, rnd, notes.see if notes else None)
        assert s.result is not None
        wins += s.result.ranking[0] == me
        points += s.points(me)
        other_points += sum(s.points(x) for x in (1, 2, 3) if x != me)
    return {"games": count, "wins": wins, "points": points, "other_points": other_points, "timings": timings,
            "cpu": time.process_time() - cpu0}


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a share."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def series(who: str, against: str, games: int, seed: int, size: tuple[int, int], workers: int) -> dict[str, Any]:
    """A series of `games` games; `size`: the flat search's deals and the bot's iterations per decision."""
    step = max(1, -(-games // (workers * 4)))
    jobs = [(who, against, start, min(step, games - start), seed, size) for start in range(0, games, step)]
    with Stopwatch() as sw:
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                parts = list(pool.map(series_chunk, jobs))
        else:
            parts = [series_chunk(job) for job in jobs]
    wins = sum(p["wins"] for p in parts)
    timings = sorted(t for p in parts for t in p["timings"])
    low, high = wilson(wins, games)
    out: dict[str, Any] = {
        "player": who, "against": against, "games": games, "first_share": wins / games, "interval": [low, high],
        "mean_points_left": sum(p["points"] for p in parts) / games,
        "opponents_mean_points_left": sum(p["other_points"] for p in parts) / (2 * games),
        "cpu_seconds": sum(p["cpu"] for p in parts), "wall_seconds": sw.wall, "load": sw.load,
    }
    if timings:
        out["decisions"] = len(timings)
        out["decision_ms_cpu"] = {"p50": 1000 * timings[len(timings) // 2],
                                  "p99": 1000 * timings[min(len(timings) - 1, int(len(timings) * 0.99))],
                                  "max": 1000 * timings[-1]}
    return out


def hand_bias(games: int, seed: int, opponents: Policy) -> dict[str, float]:
    """At a random-legal seat's turns, each piece class's count in the two other hands over what a uniform deal
    of the pieces that seat has not seen would give them: the bias the bot's deal of the unseen pieces weighs."""
    held: dict[str, float] = dict.fromkeys(HOLD_WEIGHT, 0.0)
    uniform: dict[str, float] = dict.fromkeys(HOLD_WEIGHT, 0.0)

    def observer(s: TridentState, seat: int, legal: int, rnd: Callable[[], float]) -> int:
        unseen = FULL_MASK & ~s.masks[seat] & ~s.field_mask
        others = [s.masks[x] for x in (1, 2, 3) if x != seat]
        share = sum(h.bit_count() for h in others) / unseen.bit_count()
        for i in range(len(PIECE_OF)):
            bit = 1 << i
            if bit & unseen:
                name = class_of(bit, s.required)
                uniform[name] += share
                held[name] += any(h & bit for h in others)
        return random_policy(s, seat, legal, rnd)

    for index in range(games):
        policies: list[Policy | None] = [None, opponents, opponents, opponents]
        policies[index % 3 + 1] = observer
        playout(TridentState(first=(index // 3) % 3 + 1), policies, random.Random(seed * 1_000_003 + index).random)
    return {name: held[name] / uniform[name] for name in HOLD_WEIGHT}


def run_hand_bias(args: argparse.Namespace) -> int:
    with Stopwatch() as sw:
        figures = {name: hand_bias(args.series, args.seed, policy)
                   for name, policy in (("random-legal", random_policy), ("rule-based", rule_policy))}
    if args.json:
        print(json.dumps({"games": args.series, "ratios": figures, "bot_weights": HOLD_WEIGHT}, indent=2))
        return 0
    print(f"held in opponents' hands / uniform deal of the unseen pieces ({args.series} games each)")
    print(f"{'class':<14}" + "".join(f"{name:>14}" for name in figures) + f"{'bot weight':>14}")
    for piece_class, weight in HOLD_WEIGHT.items():
        print(f"{piece_class:<14}" + "".join(f"{f[piece_class]:>14.2f}" for f in figures.values()) + f"{weight:>14.2f}")
    print(sw.line())
    return 0


PLAYERS = ("mc", "flat", "rules", "random", "seeing-all")


def _series_of(text: str) -> tuple[str, str]:
    who, _, against = text.partition(":")
    if who not in PLAYERS or against not in ("random", "rules"):
        raise SystemExit(f"--only {text}: expected PLAYER:AGAINST, PLAYER one of {', '.join(PLAYERS)}, "
                         "AGAINST random or rules")
    return who, against


def run_strength(args: argparse.Namespace) -> int:
    if args.hand_bias:
        return run_hand_bias(args)
    plan = [("mc", "random"), ("mc", "rules"), ("rules", "random"), ("random", "random"), ("random", "rules")]
    if args.seeing_all:
        plan += [("seeing-all", "random"), ("seeing-all", "rules")]
    if args.only:
        plan = [_series_of(text) for text in args.only]
    with Stopwatch() as whole:
        size = (args.worlds, args.iterations)
        results = [series(who, against, args.series, args.seed, size, args.workers) for who, against in plan]
    if args.json:
        print(json.dumps({"series": results, "total": {"cpu_seconds": whole.cpu, "wall_seconds": whole.wall,
                                                        "load": whole.load}}, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    names = {"mc": "the bot (strong)", "flat": "flat Monte-Carlo from counts (last round's bot)", "rules": "rule-based",
             "random": "random-legal",
             "seeing-all": "same search seeing every hand (reference, not a player)"}
    table = Table(title=f"kikimimi bench trident ({args.series} games a series, competition rules, seats rotated)")
    for col in ("player", "against two", "1st share", "95% interval", "points left", "theirs",
                "decision CPU ms p50/p99/max", "CPU s", "wall s", "load"):
        table.add_column(col, justify="right")
    for r in results:
        d = r.get("decision_ms_cpu")
        table.add_row(names[r["player"]], names[r["against"]], f"{r['first_share']:.3f}",
                      f"{r['interval'][0]:.3f}-{r['interval'][1]:.3f}", f"{r['mean_points_left']:.1f}",
                      f"{r['opponents_mean_points_left']:.1f}",
                      f"{d['p50']:.1f} / {d['p99']:.1f} / {d['max']:.1f}" if d else "-",
                      f"{r['cpu_seconds']:.1f}", f"{r['wall_seconds']:.1f}", f"{r['load']:.2f}")
    console = Console(width=max(Console().width, 140))
    console.print(table)
    console.print(f"the bot: {args.iterations} iterations of its tree search per decision (the flat search: "
                  f"{args.worlds} deals, every choice played out on each); CPU s is the sum over {args.workers} "
                  f"processes. {whole.line()}")
    return 0
