"""The `kikimimi` command.

Each command module of kikimimi/app/ (COMMAND_MODULES) defines `register(subparsers)` and sets `func` on its
parsers. Benchmarks are `kikimimi bench TARGET`, each target a module with `add_arguments(parser)` and
`run(args) -> int`: the product's own (BENCH_TARGETS), each game's (its registration's `bench`), and those of
the `kikimimi.bench` entry-point group (the repository's kikimimi_bench/, the test rigs' benches).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

# Each command module, the commands it registers and their one-line help: `kikimimi --help` lists them
# without importing any command module, and a command imports only its own module (tests/test_cli_imports.py
# checks this table against what the modules register).
_MODULES: dict[str, dict[str, str]] = {
    "kikimimi.app.table_cli": {
        "replay": "replay an event script of any game",
        "simulate": "play whole bot games and check every rule of the game after every event",
        "demo": "bots play a game on its simulated table; every output is shown",
        "simtables": "the simulated tables and their decks, one per game "
                     "(devices/tables/<game>-sim.toml, devices/decks/<game>-sim.toml)",
        "games": "the games this table plays, their seats and set-up keys",
        "play": "run the live table: readers, voice, journal",
        "journal": "games kept in the journal",
    },
    "kikimimi.app.devices_cli": {"devices": "list readers, watch taps"},
    "kikimimi.app.voice_cli": {"voices": "voice packs and audio outputs (render, say, list-outputs)"},
    "kikimimi.app.bringup_cli": {
        "enroll": "tap every piece and control tag in turn to write a deck",
        "bringup": "test every reader and output of a table; bind readers to roles",
    },
    "kikimimi.app.console_cli": {
        "console": "the Priest's console: the table at a glance, corrections, virtual table",
    },
    "kikimimi.app.records_cli": {
        "players": "the club's players, their ranks and titles",
        "records": "import results from paper score sheets",
        "meeting": "official meetings (full/half trials) and contests",
    },
    "kikimimi.app.venue_cli": {"venue": "a meeting over several tables: the host, each table, the status"},
}
COMMAND_MODULES = list(_MODULES)
COMMANDS: dict[str, tuple[str, str]] = {name: (module, help_text) for module, commands in _MODULES.items()
                                        for name, help_text in commands.items()}
BENCH_HELP = "measure speed and strength (engine, readers, voice, table, each game)"

BENCH_TARGETS = {  # what a club measures on its own table; besides these, `kikimimi bench <game id>`
    "voice": "kikimimi.app.voice_bench",  # voice/bench.py; --lag --realtime plays the live table
    "table": "kikimimi.table.bench",
}
# The benches of the test rigs (emulated readers, a throwaway PostgreSQL, power cuts, many tables, the
# Trident against RLCard) are the repository's kikimimi_bench/, not the product: they join `kikimimi bench`
# through this entry-point group (pyproject.toml declares them), each `name = "module"`.
BENCH_GROUP = "kikimimi.bench"


def plugged_benches() -> dict[str, str]:
    """The benches of the entry-point group: target -> module."""
    from importlib.metadata import entry_points

    return {point.name: point.value for point in entry_points(group=BENCH_GROUP)}


def _available(module: str) -> bool:
    """A module not written yet is left out; a module that exists but fails to import is an error."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def build_parser(benches: bool = True, command: str | None = None,
                 bench_target: str | None = None) -> argparse.ArgumentParser:
    """The parser. `command`: register only the module of that command (the others are listed by name and
    help, not imported); None registers every module. `benches=False` names the bench targets without
    importing them (a bench may load SQLAlchemy or a web server: a table's start must not wait for that)."""
    parser = argparse.ArgumentParser(prog="kikimimi", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = [m for m in COMMAND_MODULES if command is None or COMMANDS.get(command, ("",))[0] == m]
    for module in wanted:
        if _available(module):
            importlib.import_module(module).register(sub)
    for name, (_, help_text) in COMMANDS.items():
        if name not in sub.choices:
            sub.add_parser(name, help=help_text)  # listed, not loaded: `kikimimi NAME` loads its module
    bench = sub.add_parser("bench", help=BENCH_HELP)
    bench_sub = bench.add_subparsers(dest="target", metavar="TARGET", required=True)
    if not benches:
        for target in BENCH_TARGETS:
            bench_sub.add_parser(target)
        return parser
    from kikimimi.games.registry import DEFAULT_GAME, games

    targets = dict(BENCH_TARGETS)
    for info in games():
        if info.bench:
            targets[info.id] = info.bench
            if info.id == DEFAULT_GAME:
                targets["engine"] = info.bench  # the name the README and earlier notes use
    targets.update((name, module) for name, module in plugged_benches().items() if name not in targets)
    for target, module in targets.items():
        if bench_target is not None and target != bench_target:
            bench_sub.add_parser(target)  # named, not imported: `bench X` loads X's module only
        elif _available(module):
            mod = importlib.import_module(module)
            p = bench_sub.add_parser(target, help=(mod.__doc__ or "").strip().splitlines()[0])
            mod.add_arguments(p)
            p.set_defaults(func=mod.run)
        else:  # declared by the group, but its package is not here (an installed kikimimi, no checkout)
            p = bench_sub.add_parser(target, help=f"from a checkout ({module} is not installed)")
            p.set_defaults(func=lambda args, module=module: _not_here(args.target, module), any_options=True)
    return parser


def _not_here(target: str, module: str) -> int:
    print(f"kikimimi bench {target}: {module} is a bench of the repository's kikimimi_bench/, not of the "
          "installed product: run it from a checkout set up by ./run", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv else None
    if command == "bench":
        target = argv[1] if len(argv) > 1 and not argv[1].startswith("-") else None
        parser = build_parser(benches=True, command="bench", bench_target=target)
    else:
        parser = build_parser(benches=False, command=command if command in COMMANDS else "")
    args, unknown = parser.parse_known_args(argv)
    if unknown and not getattr(args, "any_options", False):  # a bench not here: its options are unknown here
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
