"""Shared by the web console's tests: a real `kikimimi play --web` (or `console --web`) process on the
simulated table, Debian's Chromium through Playwright, and the page's state as the tests read it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "table"))
from chromium_helpers import CHROMIUM, chromium  # noqa: E402,F401
from table_helpers import bot_script, journal_events, write_config  # noqa: E402,F401
from waiting import wait_until  # noqa: E402

from kikimimi.console.web.access import access_path  # noqa: E402
from kikimimi.table.control import connect, socket_path  # noqa: E402

SIZES = {"tablet-portrait": (768, 1024), "tablet-landscape": (1024, 768), "phone": (390, 844)}


def free_port() -> int:
    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def kikimimi(*args: str) -> list[str]:
    return [sys.executable, "-m", "kikimimi", *args]


class Process:
    """A `kikimimi` command in its own process, its output in files of the test's folder."""

    def __init__(self, folder: Path, name: str, args: list[str], env: dict[str, str]) -> None:
        self.out, self.err = folder / f"{name}.stdout", folder / f"{name}.stderr"
        with self.out.open("ab") as out, self.err.open("ab") as err:
            self.proc = subprocess.Popen(kikimimi(*args), env=env, stdout=out, stderr=err)

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(timeout=15)

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")


class WebTable:
    """`kikimimi play --web 127.0.0.1:PORT` on the simulated table (text only); `restart` stops and starts
    it again (the same journal, the same evening's code)."""

    def __init__(self, folder: Path, *play_args: str, web: bool = True, language: str = "en") -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.config = write_config(folder)
        self.config.write_text(self.config.read_text().replace('language = "en"', f'language = "{language}"'))
        self.journal = folder / "journal.sqlite"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "KIKIMIMI_DATA": str(folder / "data")}
        self.web = web
        self.play_args = list(play_args)
        self.table: Process | None = None
        self.start()

    def start(self) -> WebTable:
        args = ["play", "--config", str(self.config), "--quiet", "--text-only", *self.play_args]
        if self.web:
            args += ["--web", f"127.0.0.1:{self.port}"]
        self.table = Process(self.folder, "play", args, self.env)
        try:
            return self.wait_ready()
        except AssertionError:
            self.table.stop(signal.SIGKILL)  # a table that never got ready must not outlive its test
            raise

    def wait_ready(self, timeout: float = 20.0) -> WebTable:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.table is not None and self.table.proc.poll() is None, \
                f"the table exited: {self.table.stderr() if self.table else ''}"
            with contextlib.suppress(OSError):
                connect(socket_path(self.journal), timeout=1.0).close()
                if not self.web or answers(self.port):
                    return self
            time.sleep(0.05)
        raise AssertionError(f"the table (and its web console on {self.port}) did not start in {timeout} s")

    def stop(self) -> int:
        return self.table.stop() if self.table is not None else 0

    @property
    def code(self) -> str:
        return str(json.loads(access_path(self.journal).read_text())["code"])

    def events(self) -> list[dict[str, Any]]:
        return journal_events(self.journal)

    def games(self) -> list[str]:
        db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
        try:
            return [row[0] for row in db.execute("SELECT game FROM games ORDER BY started_at").fetchall()]
        finally:
            db.close()


def answers(port: int) -> bool:
    """Something listens on the local `port`."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


def tablet(browser: Any, size: str = "tablet-portrait", strict: bool = False) -> Any:
    """A new browser context as a touch tablet (or phone) of `size`; no cookie yet. The test's own probes
    (wait_for_function) are evaluated strings, which the page's CSP forbids: they bypass it unless `strict`
    (the phone in the fed-game test runs the page under its own policy and waits by selectors only)."""
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True,
                               device_scale_factor=1, bypass_csp=not strict)


def new_page(context: Any) -> Any:
    """A page whose script errors are kept (`page.errors`): every test ends asserting there were none."""
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    # A Content-Security-Policy violation is reported on the console as an error ("Refused to ..."); an
    # answer the test expects (401 for a wrong code, a refused action, a server restarting) is not an error.
    page.on("console", lambda message: message.type == "error" and not message.text.startswith(
        "Failed to load resource") and page.errors.append(message.text))
    return page


def logged_in(browser: Any, table: WebTable, size: str = "tablet-portrait") -> Any:
    """A page logged in by the evening's code, typed as the Priest would, showing the live table."""
    page = new_page(tablet(browser, size))
    page.goto(table.url + "/")
    page.wait_for_selector("#code", state="visible")
    page.fill("#code", table.code)
    page.tap("#login-form button[type=submit]")
    page.wait_for_function("document.body.dataset.state === 'live'")
    return page


def until(condition: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
    return wait_until(condition, what, timeout)


@contextlib.contextmanager
def serving_app(app: Any) -> Iterator[str]:
    """The web console's app served on a free local port by the product's own WebThread, once it answers;
    its URL. Stopped on leaving."""
    import httpx

    from kikimimi.console.web import serve

    listener = serve.bind("127.0.0.1:0")
    server = serve.WebThread(app, listener).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(url + "/api/session", timeout=1)
                break
            time.sleep(0.05)
        yield url
    finally:
        server.stop()
