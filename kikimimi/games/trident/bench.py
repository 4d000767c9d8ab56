"""Trident engine speed: whole random-legal games per CPU second, beside RLCard's UNO with --vs-rlcard.

Three loops are timed, each a whole game from the empty deal to the end:
- `moves`: the rules' moves played in place by random-legal policies (no taps, no phrases): the loop
  RLCard's UNO game runs (its `step` with a random legal action), the fair side of the comparison;
- `apply, legal bots`: the table's path, taps through `apply` with every phrase, copies for undo;
- `apply, bots with mistakes`: the same with wrong plays, forgotten declarations and stray taps.
CPU time is the figure (a shared machine stretches wall time); wall time and the load average beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import venv
from pathlib import Path

from kikimimi.benchclock import Stopwatch, load_average
from kikimimi.games.trident.bots import BotRates
from kikimimi.games.trident.playout import playout, random_policy
from kikimimi.games.trident.simulate import simulate
from kikimimi.games.trident.state import TridentState

RLCARD_SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "rlcard_uno.py"
RLCARD_VENV = RLCARD_SCRIPT.parent / ".venv-rlcard"
RLCARD_PACKAGES = ("rlcard==1.2.0", "numpy")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each loop; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vs-rlcard", action="store_true",
                        help="alternate runs with RLCard's UNO game loop (installed into benchmarks/.venv-rlcard)")
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
        totals = simulate(games, seed, rates, checked=False)
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
    for name, f in figures["loops"].items():  # type: ignore[union-attr]
        table.add_row(name, f"{f['games_per_cpu_second']:,.0f}", f"{f['games_per_wall_second']:,.0f}",
                      f"{f['steps_per_game']:.1f}", f"{f['cpu_seconds']:.3f}", f"{f['load']:.2f}")
    console = Console(width=max(Console().width, 110))
    console.print(table)
    for name, f in figures.get("vs_rlcard", {}).items():  # type: ignore[union-attr]
        console.print(f"{name} / RLCard UNO, CPU games/s, median of paired runs: {f['median_ratio']:.2f}x "
                      f"(runs: {', '.join(f'{x:.2f}' for x in f['ratios'])})")
    console.print(f"steps: moves or events (Trident), decisions (UNO). {whole.line()}")
    return 0
