"""The `kikimimi` command.

Each area of the package owns its sub-commands: a module listed in COMMAND_MODULES defines
`register(subparsers)` and sets `func` on its parsers. Benchmarks are `kikimimi bench TARGET`, each
target a module with `add_arguments(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

COMMAND_MODULES = [
    "kikimimi.table.cli",  # replay, simulate, demo, play, journal
    "kikimimi.devices.cli",  # devices list/watch, enroll
    "kikimimi.voice.cli",  # voices render/say/list-outputs
    "kikimimi.bringup.cli",  # bringup
    "kikimimi.console.cli",  # console
    "kikimimi.records.cli",  # players, records, meeting
    "kikimimi.venue.cli",  # venue host/join/status: a meeting over several tables
]

BENCH_TARGETS = {  # besides these, `kikimimi bench <game id>` for every registered game with a benchmark
    "readers": "kikimimi.devices.bench",
    "voice": "kikimimi.voice.bench",
    "table": "kikimimi.table.bench",
    "standings": "kikimimi.records.bench",  # ladder recomputation over many players, on SQLite or PostgreSQL
    "meeting": "kikimimi.venue.bench",  # many tables reporting into one host and PostgreSQL
    "host-limits": "kikimimi.venue.limits_bench",  # the host under oversized and slow requests
}


def _available(module: str) -> bool:
    """A module not written yet is left out; a module that exists but fails to import is an error."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def build_parser(benches: bool = True) -> argparse.ArgumentParser:
    """Every command's parser. `benches=False` names the bench targets without importing them (a bench
    may load SQLAlchemy or a web server: a table's start must not wait for that)."""
    parser = argparse.ArgumentParser(prog="kikimimi", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        if _available(module):
            importlib.import_module(module).register(sub)
    bench = sub.add_parser("bench", help="measure speed and strength (engine, readers, voice, table, each game)")
    bench_sub = bench.add_subparsers(dest="target", metavar="TARGET", required=True)
    from kikimimi.games.registry import DEFAULT_GAME, games

    targets = dict(BENCH_TARGETS)
    for info in games():
        if info.bench:
            targets[info.id] = info.bench
            if info.id == DEFAULT_GAME:
                targets["engine"] = info.bench  # the name the README and earlier notes use
    for target, module in targets.items():
        if not benches:
            bench_sub.add_parser(target)
        elif _available(module):
            mod = importlib.import_module(module)
            p = bench_sub.add_parser(target, help=(mod.__doc__ or "").strip().splitlines()[0])
            mod.add_arguments(p)
            p.set_defaults(func=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(benches=bool(argv) and argv[0] == "bench")
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
