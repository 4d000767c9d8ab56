"""Starting the web console: `kikimimi console --web [--listen ADDR:PORT]` and `kikimimi play --web`.

    kikimimi console --web           # attaches to the running table (the service's `play`), else runs it here
    kikimimi play --web              # the table, with the web console served from the same process

Either way the server is a client of the table's control socket, and prints where to open it and the
evening's code (with a QR code that logs a tablet in), for the Priest's eyes: the terminal, or the
service's log (`journalctl -u kikimimi`).
"""

from __future__ import annotations

import argparse
import io
import signal
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from kikimimi.table.live import LiveTable

DEFAULT_LISTEN = "0.0.0.0:8770"
HEADER_SECONDS = 10.0  # a request's headers arrive within this (a tablet on Wi-Fi sends them at once)
IDLE_SECONDS = 5.0  # a connection idle between requests is closed
MAX_CONNECTIONS = 64  # two tablets and a phone use a handful (the pages' streams are capped lower)


def parse_listen(text: str) -> tuple[str, int]:
    address, _, port = text.rpartition(":")
    if not address or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"--listen {text!r}: give ADDRESS:PORT, e.g. {DEFAULT_LISTEN}")
    return address.strip("[]"), int(port)


def bind(listen: str) -> socket.socket:
    """The listening socket, bound before anything is printed (a port in use is said plainly).
    ValueError: a malformed ADDRESS:PORT, or a port that cannot be had (with what to do)."""
    address, port = parse_listen(listen)
    listener = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((address, port))
    except OSError as exc:
        listener.close()
        raise ValueError(f"cannot listen on {listen}: {exc.strerror or exc}; is a web console already running "
                         "there? (--listen ADDRESS:PORT chooses another)") from None
    return listener


def address_of(listener: socket.socket) -> str:
    """The address a tablet types: the machine's LAN address for a wildcard listener."""
    from kikimimi.network import lan_address

    host, port = listener.getsockname()[:2]
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}"


@dataclass(frozen=True)
class WebAddress:
    """Where a tablet opens the web console, and the evening's code (for the Priest's eyes only)."""

    url: str
    code: str
    journal: Path | None = None  # where the code is kept: `current()` reads it again (renewed since)

    def current(self) -> WebAddress:
        """The same address with the code as it is now (renewed at the fixed hour or by the Priest)."""
        if self.journal is None:
            return self
        from kikimimi.console.web.access import evening

        return WebAddress(self.url, evening(self.journal).code, self.journal)

    def renew(self) -> WebAddress:
        """A new code now (the running web console takes it at once; tablets log in again)."""
        if self.journal is None:
            return self
        from kikimimi.console.web.access import evening

        return WebAddress(self.url, evening(self.journal, renew=True).code, self.journal)

    @property
    def spaced_code(self) -> str:
        return f"{self.code[:3]} {self.code[3:]}"

    @property
    def login_link(self) -> str:
        return f"{self.url}/?code={self.code}"

    def qr_text(self) -> str:
        """The login link as a QR code drawn in text (half blocks), or "" without segno."""
        try:
            import segno
        except ImportError:
            return ""
        qr = io.StringIO()
        segno.make(self.login_link, error="m").terminal(out=qr, compact=True)
        return qr.getvalue()


def announce(url: str, code: str, out: TextIO | None = None) -> None:
    """Where to open the console and the code, and a QR code of the link that carries the code."""
    out = out or sys.stdout
    address = WebAddress(url, code)
    print(f"web console: {url}/   the evening's code: {address.spaced_code}", file=out)
    qr = address.qr_text()
    if qr:
        print("scan to open it logged in (the code is in the link: only the Priest's screen):", file=out)
        print(qr, file=out, end="", flush=True)


def make_server(app: Any) -> Any:
    """uvicorn for the console, bounded as the project's servers are (kikimimi.serving): headers within
    HEADER_SECONDS, idle connections closed, at most MAX_CONNECTIONS; at shutdown the pages' streams are ended
    first (an open stream would otherwise hold the shutdown until it is cut)."""
    import uvicorn

    from kikimimi.serving import server_config

    class ConsoleServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app.state.console.close_streams()
            await super().shutdown(sockets)

    config = server_config(app, header_seconds=HEADER_SECONDS, idle_seconds=IDLE_SECONDS,
                           max_connections=MAX_CONNECTIONS, name="web console", timeout_graceful_shutdown=2)
    return ConsoleServer(config)


class WebThread:
    """uvicorn serving the web console on a thread of a process whose main thread runs the table."""

    def __init__(self, app: object, listener: socket.socket) -> None:
        self.server = make_server(app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listener]},
                                       name="web-console", daemon=True)

    def start(self) -> WebThread:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)


def web_app(journal: Path, records: str | Path | None, language: str) -> tuple[Any, str]:
    """The app for the table of `journal`, and the evening's code (renewed by itself at the fixed hour, or
    when the Priest asks: `kikimimi console --new-code`)."""
    from kikimimi.console.web.access import Access
    from kikimimi.console.web.server import create_app
    from kikimimi.table.server import socket_path

    access = Access(journal)
    return create_app(socket_path(journal), access, records=records, language=language), access.current().code


def say_renewals(app: Any, url: str) -> None:
    """Each code the server makes by itself (the old one ran out) is printed as the first one was: on the
    terminal, or in the service's log, where the Priest reads it."""
    app.state.access.renewed = lambda tonight: announce(url, tonight.code)


class WebBeside:
    """The web console served beside the table by `play --web`: its address, and calling it stops it."""

    def __init__(self, address: WebAddress, stop: Callable[[], None]) -> None:
        self.address = address
        self._stop = stop

    def __call__(self) -> None:
        self._stop()


def start_beside(table: LiveTable, listen: str | None) -> WebBeside:
    """`play --web`: the web console on a thread of the table's process; calling what it returns stops it.
    ValueError when it cannot listen (the table plays on without it: said by the caller)."""
    config = table.config
    listener = bind(listen or DEFAULT_LISTEN)
    app, code = web_app(config.journal, None, config.language)
    address = WebAddress(address_of(listener), code, Path(config.journal))
    announce(address.url, address.code)
    say_renewals(app, address.url)
    return WebBeside(address, WebThread(app, listener).start().stop)


def run_web(args: argparse.Namespace) -> int:
    """`kikimimi console --web`: the running table's web console, or a table run here with one."""
    from kikimimi.table.config import TableConfigError, load_config
    from kikimimi.table.journal import JournalError
    from kikimimi.table.live import TableRunning, open_table

    # SIGTERM (a service stopped) at any time from here: the server stops, and a table opened here is closed
    # cleanly (its socket removed, its lock dropped). uvicorn takes the signal while it serves and raises it
    # again once stopped: this handler takes it then too.
    servers: list[Any] = []
    stopping = threading.Event()

    def on_sigterm(*_: object) -> None:
        stopping.set()
        for server in servers:
            server.should_exit = True

    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        config = load_config(args.config)
        listener = bind(args.listen)
    except (TableConfigError, ValueError) as exc:
        print(f"console: {exc}", file=sys.stderr)
        return 2
    table = None
    try:
        table = open_table(config)
        print(f"console: no table was running; running it here (journal {config.journal})")
    except TableRunning as running:
        print(f"console: attaching to the running table ({getattr(running, 'holder', '') or 'another process'})")
    except JournalError as exc:
        print(f"console: {exc}", file=sys.stderr)
        listener.close()
        return 2
    try:
        app, code = web_app(config.journal, args.records, config.language)
        announce(address_of(listener), code)
        say_renewals(app, address_of(listener))
        servers.append(make_server(app))
        if not stopping.is_set():
            servers[0].run(sockets=[listener])  # until Ctrl-C or SIGTERM
        return 0
    finally:
        if table is not None:
            table.close()
