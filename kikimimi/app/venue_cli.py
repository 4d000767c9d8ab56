"""`kikimimi venue host|join|status`: a meeting played on several tables at once (docs/meetings.md)."""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import socket
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kikimimi.network import lan_address
from kikimimi.records.names import printable

DEFAULT_LISTEN = "0.0.0.0:8765"
log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    venue = subparsers.add_parser("venue", help="a meeting over several tables: the host, each table, the status")
    sub = venue.add_subparsers(dest="venue_command", metavar="ACTION", required=True)

    p = sub.add_parser("host", help="serve the meeting to the tables and the standings page to the TV")
    p.add_argument("--db", help="records database: a SQLite file or a postgresql:// URL "
                                "(default: $KIKIMIMI_RECORDS_URL, else the records file)")
    p.add_argument("--meeting", type=int,
                   help="the meeting served as current (default: the open one, else the latest)")
    p.add_argument("--listen", default=DEFAULT_LISTEN, help="ADDRESS:PORT to listen on (default %(default)s)")
    p.add_argument("--token", help="the organiser's secret, from which each table's own credential is made "
                                   "(default: a new one of 128 bits, printed; one given must be as strong); "
                                   "'' for none")
    p.add_argument("--games", type=int, help="games per table when the meeting is a contest")
    p.set_defaults(func=_host)

    p = sub.add_parser("join", help="this table plays its share of the host's meeting and reports each game")
    p.add_argument("url", help="the host, e.g. http://192.168.1.10:8765")
    p.add_argument("--table", type=int, required=True, help="this table's number in the meeting (1, 2, ...)")
    p.add_argument("--token", help="this table's credential, as the host printed it")
    p.add_argument("--meeting", type=int, help="the meeting (default: the host's current one)")
    p.add_argument("--config", type=Path, help="the table's TOML (default: the simulated Trident table)")
    p.add_argument("--journal", type=Path, help="the journal file (default: the config's; two simulated "
                                               "tables on one machine need one each)")
    p.add_argument("--controller", help="this table's name on the host (default: the machine's name)")
    p.add_argument("--bots", type=int, nargs="?", const=1, metavar="SEED",
                   help="the game's bots play every seat on the simulated readers (a rehearsal, tests)")
    p.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="with --bots: seconds between the bots' taps, after the table has spoken (a rehearsal "
                        "at human pace, e.g. 0.6 as the demo has, so the TV can be watched live; default 0: "
                        "as fast as the table takes them)")
    p.add_argument("--quiet", action="store_true", help="warnings only")
    p.set_defaults(func=_join)

    p = sub.add_parser("status", help="every table of the meeting as the host sees it")
    p.add_argument("url", help="the host, e.g. http://192.168.1.10:8765")
    p.add_argument("--meeting", type=int, help="default: the host's current meeting")
    p.add_argument("--json", action="store_true", help="the host's snapshot as it is")
    p.set_defaults(func=_status)


def _err(text: str) -> None:
    print(printable(f"kikimimi venue: {text}"), file=sys.stderr)


def _listen(text: str) -> tuple[str, int]:
    address, _, port = text.rpartition(":")
    if not address or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--listen {text!r}: give ADDRESS:PORT, e.g. {DEFAULT_LISTEN}")
    return address.strip("[]"), int(port)


TOKEN_BYTES = 16  # 128 bits: every table's credential is keyed by the token, so it must not be guessable offline
TOKEN_BITS = TOKEN_BYTES * 8
# A given token's strength is estimated from its length and kinds of character, which undercounts a random one
# that happens to miss a kind (a 128-bit token_urlsafe with no digit counts as 125): the bar has that margin.
WEAKEST_BITS = 112


def weak_token(token: str) -> str | None:
    """Why an organiser's token is too weak to key the tables' credentials (None when it is strong enough): its
    strength is estimated as its length times the bits of the kinds of character it uses (lower case, upper
    case, digits, others), and must reach WEAKEST_BITS with at least 8 different characters."""
    import math
    import string

    kinds = [(string.ascii_lowercase, 26), (string.ascii_uppercase, 26), (string.digits, 10)]
    pool = sum(size for chars, size in kinds if any(c in chars for c in token))
    if any(not any(c in chars for chars, _ in kinds) for c in token):
        pool += 32
    bits = len(token) * math.log2(pool) if pool > 1 else 0.0
    if bits >= WEAKEST_BITS and len(set(token)) >= 8:
        return None
    strength = f"about {bits:.0f} bits" if len(set(token)) >= 8 else f"{len(set(token))} different characters"
    return (f"--token is too weak ({len(token)} characters, {strength}; a table's credential would give "
            f"it away): leave --token out and the host makes one of {TOKEN_BITS} bits, or make one with "
            f"`python3 -c 'import secrets; print(secrets.token_hex({TOKEN_BYTES}))'`")


def store_opener(target: str | None) -> Any:
    """A factory of RecordStores on `target` (a path or URL; None: the default)."""
    from kikimimi.records.store import RecordStore

    return lambda: RecordStore(target, create=False) if target is not None else RecordStore(create=False)


def _host(args: argparse.Namespace) -> int:
    import uvicorn

    from kikimimi.records.schema import SchemaError
    from kikimimi.records.store import RecordError
    from kikimimi.venue.host import create_app, table_credential
    from kikimimi.venue.serving import server_config

    try:
        address, port = _listen(args.listen)
    except ValueError as exc:
        _err(str(exc))
        return 2
    if args.token:
        problem = weak_token(args.token)
        if problem is not None:
            _err(problem)
            return 2
    opener = store_opener(args.db)
    try:  # the database and the meeting are checked before serving: a typo is said now, not per request
        with opener() as store:
            meeting = store.meetings.get(args.meeting) if args.meeting is not None else store.meetings.current()
            workers = 1 if store.dialect == "sqlite" else 4  # SQLite takes one writer at a time
    except (RecordError, SchemaError, OSError) as exc:
        _err(str(exc))
        return 1
    try:  # bound before anything is printed: a port in use is said plainly, not after the URLs
        listener = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((address, port))
    except OSError as exc:
        _err(f"cannot listen on {args.listen}: {exc.strerror or exc}; is a host already running there? "
             "(--listen ADDRESS:PORT chooses another)")
        return 1
    token = secrets.token_hex(TOKEN_BYTES) if args.token is None else (args.token or None)
    app = create_app(opener, token=token, meeting_id=args.meeting, workers=workers,
                     contest_games=args.games)
    shown = lan_address() if address in ("0.0.0.0", "::") else address
    base = f"http://{shown}:{port}"
    print(f"kikimimi venue host on {base}")
    print(f"  the TV: {base}/" + (f"  (meeting {meeting.id}: {meeting.describe()})" if meeting else
                                  "  (no open meeting: start one with `kikimimi meeting start --tables N ...`)"))
    if token is None:
        print(f"  each table: kikimimi venue join {base} --table N")
        print("  no token: anyone on this network can report results", file=sys.stderr)
    elif meeting is not None:
        print("  each table, with its own credential (it opens that table only):")
        for n in range(1, meeting.tables + 1):
            print(f"    kikimimi venue join {base} --table {n} --token {table_credential(token, meeting.id, n)}")
        print(f"  the organiser's token: {token} (it opens every table: keep it, do not hand it to the tables)")
    else:
        print(f"  the organiser's token: {token}; once a meeting is open, start the host again with "
              "--token to print each table's own credential")
    uvicorn.Server(server_config(app, timeout_graceful_shutdown=2)).run(sockets=[listener])
    return 0


def _join(args: argparse.Namespace) -> int:
    from kikimimi.table.config import TableConfigError, load_config
    from kikimimi.table.journal import JournalError
    from kikimimi.table.live import open_table
    from kikimimi.table.run import setup_logging
    from kikimimi.venue.client import HostLink, Outbox
    from kikimimi.venue.tablerun import MeetingRefused, TableRun, join_or_resume

    problem = host_url_problem(args.url)
    if problem is not None:
        _err(problem)
        return 2
    if args.table < 1:
        _err(f"--table {args.table}: give the table's number in the meeting, 1 or more")
        return 2
    if args.pace and args.bots is None or not 0 <= args.pace <= 60:
        _err(f"--pace {args.pace:g}: give seconds from 0 to 60, with --bots (the bots' pace)")
        return 2
    console = Console(highlight=False, stderr=True)
    setup_logging(console, quiet=args.quiet or args.bots is not None)
    if args.bots is not None:  # bots tap faster than hands: the two-tags watch would cry wolf
        logging.getLogger("kikimimi.table.loop").setLevel(logging.ERROR)
    overrides: dict[str, Any] = {}
    if args.journal is not None:
        overrides["journal"] = str(args.journal.resolve())
    if args.bots is not None:
        overrides["debounce"] = 0  # bots tap as fast as the table takes them
    try:
        config = load_config(args.config, overrides)
        table = open_table(config, transcript_only=args.bots is not None)
    except (TableConfigError, JournalError, OSError) as exc:
        _err(str(exc))
        return 2

    def say(text: str) -> None:
        console.print(Text(printable(text)))

    stop = threading.Event()
    try:
        outbox = Outbox(config.journal)
    except JournalError as exc:
        table.close()
        _err(str(exc))
        return 2
    link = HostLink(args.url, args.table, token=args.token, meeting=args.meeting,
                     controller=args.controller or socket.gethostname())
    try:
        assignment = join_or_resume(link, outbox, say, stop)
        say(f"table {assignment.table} of meeting {assignment.meeting} ({assignment.game}, {assignment.kind}): "
            + ", ".join(f"seat {s} {n}" for s, n in assignment.seat_players.items()))
        run = TableRun(table, link, outbox, assignment, say, bots=args.bots, pace=args.pace)
        code = run.run()
        say(f"table {assignment.table}: every game played and reported" if code == 0 else
            f"table {assignment.table}: the host refused some results; they are kept in {outbox.path}")
        return code
    except MeetingRefused as exc:
        _err(str(exc))
        return 1
    except ValueError as exc:  # the table cannot play the meeting's game (no deck, a seat missing)
        _err(f"this table cannot play the meeting: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        table.close()
        link.close()
        outbox.close()


def host_url_problem(url: str) -> str | None:
    """Why `url` cannot be a host's address (None when it can): an http(s) URL with a host, such as
    http://192.168.1.10:8765. Said at once, instead of a table waiting for a host that cannot answer."""
    import httpx

    example = "give the host's address, e.g. http://192.168.1.10:8765"
    try:
        parsed = httpx.URL(url)
        port = parsed.port
    except (httpx.InvalidURL, ValueError, TypeError):
        return f"{url!r} is not a URL: {example}"
    if port is not None and not 0 < port < 65536:
        return f"{url!r}: port {port} is not a port (1 to 65535): {example}"
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return f"{url!r} is not an http:// or https:// URL with a host: {example}"
    return None


def _status(args: argparse.Namespace) -> int:
    import httpx

    problem = host_url_problem(args.url)
    if problem is not None:
        _err(problem)
        return 2
    ref = args.meeting if args.meeting is not None else "current"
    url = f"{args.url.rstrip('/')}/api/meetings/{ref}"
    try:
        response = httpx.get(url, timeout=5)
        snapshot = response.json()
    except httpx.HTTPError as exc:
        _err(f"{url}: the host does not answer ({type(exc).__name__}); is `kikimimi venue host` running?")
        return 1
    except ValueError:
        _err(f"{url}: not a kikimimi host (the answer is not JSON)")
        return 1
    if response.status_code != 200:
        _err(f"{url}: {snapshot.get('error') if isinstance(snapshot, dict) else response.reason_phrase}")
        return 1
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False, indent=2))
        return 0
    # Piped or captured output gets a width that fits the table instead of rich's 80 columns.
    Console(highlight=False, width=None if sys.stdout.isatty() else 120).print(status_table(snapshot))
    return 0


def _seen(iso: str | None) -> str:
    """When the host last heard from a table: 'never', or the time (UTC) and how long ago."""
    if not iso:
        return "never"
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return printable(iso)
    ago = (datetime.now(UTC) - when).total_seconds()
    return f"{when:%H:%M:%S} ({ago:.0f} s ago)"


HEALTH_STYLE = {"ok": "green", "degraded": "yellow", "lost": "bold red", "done": "green", "not_joined": "dim"}


def status_table(snapshot: dict[str, Any]) -> Table:
    m = snapshot["meeting"]
    due = f", {m['games_due']} games per table" if m.get("games_due") else ""
    table = Table(title=Text(printable(f"Meeting {m['id']}: {m['title']['en']}, {m['kind']}, {m['status']}{due}")))
    for column in ("table", "players", "games", "round", "phase", "health", "last seen", "controller"):
        table.add_column(column, justify="right" if column in ("table", "games", "round") else "left",
                         overflow="fold")
    for t in snapshot["tables"]:
        played = f"{t['games_played']}/{t['games_due']}" if t.get("games_due") else str(t["games_played"])
        table.add_row(str(t["table"]), Text("\n".join(printable(name) for name in t["players"])), played,
                      "" if t.get("round") is None else str(t["round"]), Text(printable(t.get("phase") or "")),
                      Text(str(t["health"]).replace("_", " "), style=HEALTH_STYLE.get(t["health"], "")),
                      Text(_seen(t.get("last_seen"))), Text(printable(t.get("controller") or "")))
    return table
