"""`kikimimi console`: the Priest's console on the table of a configuration.

When that table already runs in another process (`kikimimi play`, the boot service, another console: it
holds the lock beside its journal), the console attaches to it over its control socket, with the same
actions and the same journal; when none runs, the console opens and runs the table itself.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kikimimi.console.web.serve import WebAddress, WebBeside
    from kikimimi.table.live import LiveTable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("console", help="the Priest's console: the table at a glance, corrections, virtual table")
    p.add_argument("--config", type=Path, help="table configuration (default: the simulated table)")
    p.add_argument("--records", metavar="PATH|URL",
                   help="records database, a file or a postgresql:// URL (default: $KIKIMIMI_RECORDS_URL, "
                        "else $KIKIMIMI_DATA/records.sqlite)")
    p.add_argument("--reveal-hands", action="store_true",
                   help="start with hands and private lines shown (only when players cannot see the screen)")
    from kikimimi.console.web.serve import DEFAULT_LISTEN  # standard library only: cheap at every start

    p.add_argument("--web", action="store_true", help="serve the console to a tablet's browser instead")
    p.add_argument("--listen", default=DEFAULT_LISTEN, help="with --web: ADDRESS:PORT (default %(default)s)")
    p.add_argument("--new-code", action="store_true",
                   help="make a new code for the table's web console now (the running one takes it at once; "
                        "tablets log in again) and print it")
    p.set_defaults(func=cmd_console)
    install_front_ends()


def install_front_ends() -> None:
    """Offer the consoles to `kikimimi play --console / --web` (the table's loop imports no console: `play`'s
command module asks for them when told to run one)."""
    from kikimimi.table.run import COMPANIONS, FRONT_ENDS

    FRONT_ENDS["console"] = _console_front
    COMPANIONS["web"] = _web_beside


# The web console `play --web` serves in this process: `play --console --web` shows its address and code on
# the terminal console (Textual clears what was printed before it starts).
_web_here: list[WebAddress] = []


def _web_beside(table: LiveTable, listen: str | None) -> WebBeside:  # `kikimimi play --web`
    # Alembic logs INFO lines as the web console imports the records (and as it reads them): not for the
    # Priest's terminal, set before that import (`records.quiet_records_library` does it for each read).
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from kikimimi.console.web.serve import start_beside

    beside = start_beside(table, listen)
    _web_here[:] = [beside.address]
    return beside


def _console_front(table: LiveTable) -> int:  # `kikimimi play --console`
    from kikimimi.console.app import run_console

    return run_console(table, web=_web_here[0] if _web_here else None)


def _new_code(args: argparse.Namespace) -> int:
    """`console --new-code`: a new web console code beside the table's journal, printed for the Priest."""
    from kikimimi.console.web.access import evening
    from kikimimi.table.config import TableConfigError, load_config

    try:
        config = load_config(args.config)
    except TableConfigError as exc:
        print(f"console: {exc}", file=sys.stderr)
        return 2
    try:
        fresh = evening(config.journal, renew=True)
    except OSError as exc:
        print(f"console: cannot write the new code beside {config.journal}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    until = time.strftime("%Y-%m-%d %H:%M", time.localtime(fresh.until))
    print(f"web console: the new code is {fresh.code[:3]} {fresh.code[3:]} (until {until}); "
          "tablets log in again with it")
    return 0


def cmd_console(args: argparse.Namespace) -> int:
    """The table of `--config`: attached to when another process runs it, else opened here."""
    if args.new_code:
        return _new_code(args)
    if args.web:
        from kikimimi.console.web.serve import run_web

        return run_web(args)
    from kikimimi.console.app import run_console
    from kikimimi.table.config import TableConfigError, load_config
    from kikimimi.table.journal import JournalError
    from kikimimi.table.live import TableRunning, open_table

    try:
        config = load_config(args.config)
    except TableConfigError as exc:
        print(f"console: {exc}", file=sys.stderr)  # plain and unwrapped: a path must stay whole
        return 2
    if args.records is not None and (problem := _records_problem(args.records)):
        print(f"console: {problem}", file=sys.stderr)
        return 2
    try:
        table = open_table(config)
    except TableRunning as running:
        return _attach(config.journal, running, args)
    except JournalError as exc:
        print(f"console: {exc}", file=sys.stderr)
        return 2
    try:
        return run_console(table, reveal_hands=args.reveal_hands, records_path=args.records)
    finally:
        table.close()


def _records_problem(target: str) -> str | None:
    """Why --records cannot be opened (a file that is not records, a folder, a server that does not answer),
    said before the console starts rather than inside it."""
    from kikimimi.records.names import RecordError
    from kikimimi.records.schema import SchemaError
    from kikimimi.records.store import RecordStore

    try:
        RecordStore(target, create=False).close()
    except (SchemaError, RecordError, OSError) as exc:
        return f"--records: {exc}"
    return None


def _attach(journal: Path, running: Exception, args: argparse.Namespace) -> int:
    """The table runs in another process (`kikimimi play`, a service, another console): its socket."""
    from kikimimi.console.app import run_console
    from kikimimi.console.link import LinkError, RemoteLink
    from kikimimi.table.server import socket_path

    holder = getattr(running, "holder", "") or "another process"
    path = socket_path(journal)
    try:
        link = RemoteLink.attach(path)
    except LinkError as exc:
        print(f"console: the table is running ({holder}) but cannot be attached to: {exc}; stop it and run "
              "`kikimimi console` alone, or use `kikimimi play --console`", file=sys.stderr)
        return 2
    try:
        return run_console(link, reveal_hands=args.reveal_hands, records_path=args.records)
    finally:
        link.close()
