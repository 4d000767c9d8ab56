"""A command imports only what it runs: `kikimimi --help` and `kikimimi games` load no command module
beyond their own, no rich, numpy or sqlite3 (their CPU time is measured with `python -X importtime`)."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

from kikimimi.app.cli import COMMAND_MODULES, COMMANDS


def test_the_command_table_says_what_each_module_registers():
    listed: dict[str, dict[str, str]] = {}
    for name, (module, help_text) in COMMANDS.items():
        listed.setdefault(module, {})[name] = help_text
    for module in COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        registered = {action.dest: action.help for action in sub._choices_actions}
        assert registered == listed.get(module, {}), module


def _loaded_after(argv: list[str]) -> set[str]:
    code = ("import sys, json\nfrom kikimimi.app.cli import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
            "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_help_and_games_load_nothing_they_do_not_run():
    heavy = {"rich", "numpy", "sqlite3", "sqlalchemy", "starlette"}
    for argv in (["--help"], ["games"]):
        loaded = _loaded_after(argv)
        assert not heavy & loaded, (argv, heavy & loaded)
        others = set(COMMAND_MODULES) - ({COMMANDS[argv[0]][0]} if argv[0] in COMMANDS else set())
        assert not others & loaded, (argv, others & loaded)


def test_a_command_still_finds_its_module():
    loaded = _loaded_after(["replay", "--help"])
    assert "kikimimi.app.table_cli" in loaded and "kikimimi.app.venue_cli" not in loaded


def test_a_bench_loads_its_own_module_only():
    loaded = _loaded_after(["bench", "table", "--help"])
    assert "kikimimi.table.bench" in loaded
    assert not {"numpy", "sqlalchemy", "kikimimi_bench.standings", "kikimimi.voice.bench"} & loaded


def test_a_bench_of_the_entry_point_group_not_installed_says_so_in_one_line(monkeypatch, capsys):
    """An installed kikimimi without the checkout: the group names a bench whose module is not there."""
    from kikimimi.app import cli

    monkeypatch.setattr(cli, "plugged_benches", lambda: {"ghost": "kikimimi_bench.no_such_bench"})
    assert cli.main(["bench", "ghost", "--its-own-option", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "kikimimi_bench.no_such_bench" in err and "from a checkout" in err


def test_the_group_brings_the_rigs_benches_into_kikimimi_bench():
    from kikimimi.app.cli import plugged_benches

    plugged = plugged_benches()
    assert {"readers", "meeting", "standings", "powercut", "wear", "engine", "trident"} <= set(plugged)
    assert all(module.startswith("kikimimi_bench.") for module in plugged.values())
