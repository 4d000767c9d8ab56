"""`kikimimi console`: open the table from its configuration and run the Priest's console on it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("console", help="the Priest's console: the table at a glance, corrections, virtual table")
    p.add_argument("--config", type=Path, help="table configuration (default: the simulated table)")
    p.add_argument("--records", type=Path, help="records database (default: $KIKIMIMI_DATA/records.sqlite)")
    p.add_argument("--reveal-hands", action="store_true",
                   help="start with hands and private lines shown (only when players cannot see the screen)")
    p.set_defaults(func=cmd_console)
    from kikimimi.table.run import FRONT_ENDS

    FRONT_ENDS["console"] = _console_front


def _console_front(table) -> int:  # noqa: ANN001 - a LiveTable; `kikimimi play --console`
    from kikimimi.console.app import run_console

    return run_console(table)


def cmd_console(args: argparse.Namespace) -> int:
    from kikimimi.console.app import run_console
    from kikimimi.table.config import TableConfigError, load_config
    from kikimimi.table.journal import JournalError
    from kikimimi.table.live import open_table

    try:
        config = load_config(args.config)
    except TableConfigError as exc:
        print(f"console: {exc}", file=sys.stderr)  # plain and unwrapped: a path must stay whole
        return 2
    try:
        table = open_table(config)
    except JournalError as exc:
        print(f"console: {exc}", file=sys.stderr)
        return 2
    try:
        return run_console(table, reveal_hands=args.reveal_hands, records_path=args.records)
    finally:
        table.close()
