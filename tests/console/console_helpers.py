"""Shared by the console tests: a simulated table, a known position, and a way to drive the app."""

from __future__ import annotations

import asyncio
import html
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import Static

from kikimimi.console.app import ConsoleApp
from kikimimi.games.base import Scan
from kikimimi.table.config import load_config
from kikimimi.table.journal import Journal
from kikimimi.table.live import LiveTable, open_table
from kikimimi.table.server import socket_path

SIZE = (120, 40)
DEAL = {
    1: ["heart-1", "heart-2", "spade-3", "draw2-1", "clover-4"],
    2: ["diamond-1", "diamond-2", "heart-5", "change-spade-1", "spade-1"],
    3: ["clover-1", "clover-2", "unknown-turn-left", "heart-8", "diamond-8"],
}


def open_sim_table(tmp_path: Path, language: str = "en") -> LiveTable:
    config = load_config(None, {"journal": str(tmp_path / "journal.sqlite"), "language": language})
    heard: list[tuple[str, str]] = []
    live = open_table(config, transcript_only=True, on_line=lambda out, line: heard.append((out, line.text)))
    live.heard = heard  # type: ignore[attr-defined]  # what each output said, in order
    return live


def submit_all(table: LiveTable, events: list[Any]) -> None:
    """Events straight on the loop's queue, then wait until the loop has handled them."""
    start = table.loop.processed
    for event in events:
        table.loop.submit(event)
    assert table.loop.wait_processed(start + len(events)), "the loop did not handle the events in time"


def deal_events() -> list[Scan]:
    return [Scan(f"hand:{seat}", piece) for seat, pieces in DEAL.items() for piece in pieces]


def known_position() -> list[Scan]:
    """Dealt, started on heart-3; seat 1 played heart-1; seat 2 drew spade-8 and passed: seat 3 to move."""
    return [*deal_events(), Scan("field", "heart-3"), Scan("field", "heart-1"),
            Scan("hand:2", "spade-8"), Scan("hand:2", "ctl-pass")]


def journaled(table) -> list:
    """The events of the current game as the journal holds them (read through its own connection)."""
    book = Journal(table.config.journal)
    try:
        return list(book.events(table.loop.status.game_id))
    finally:
        book.close()


def drive(table: LiveTable, script: Callable[[ConsoleApp, Any], Awaitable[None]], **options: Any) -> ConsoleApp:
    """Run the console on `table` under Textual's Pilot and play `script(app, pilot)`."""
    app = ConsoleApp(table, **options)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app


async def settle(pilot: Any, table: LiveTable, count: int | None = None) -> None:
    """Wait for the loop (and its posted messages) to reach the screen."""
    if count is not None:
        assert table.loop.wait_processed(count)
    for _ in range(3):
        await pilot.pause()


def shown(app: ConsoleApp, selector: str) -> str:
    content = app.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def screen_text(app: ConsoleApp) -> str:
    """Everything visible on the screen, as text (from the SVG screenshot)."""
    svg = app.export_screenshot()
    svg = re.sub(r"<style.*?</style>", "", svg, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


# -- a table in its own process (the console attaches to it over its control socket) ---------------------

sys.path.insert(0, str(Path(__file__).parents[1] / "table"))
from table_helpers import journal_events, socket_answers, write_config  # noqa: E402
from waiting import wait_until  # noqa: E402


class TableProcess:
    """`kikimimi play` on the simulated table (text only), in its own process with its own data folder."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.config = write_config(folder)
        self.journal = folder / "journal.sqlite"
        self.socket = socket_path(self.journal)
        self.errors = folder / "table.stderr"
        self.env = {**os.environ, "KIKIMIMI_DATA": str(folder / "data")}
        with self.errors.open("wb") as errors:
            self.proc = subprocess.Popen(kikimimi("play", "--config", str(self.config), "--quiet", "--text-only"),
                                         env=self.env, stdout=subprocess.DEVNULL, stderr=errors)
        self.pid = self.proc.pid

    def wait_ready(self, timeout: float = 20.0) -> TableProcess:
        """Until the table's control socket answers (its game is loaded and the loop runs by then)."""
        wait_until(lambda: socket_answers(self.socket), timeout, f"the table's control socket {self.socket}",
                   every=0.05, gone=lambda: None if self.proc.poll() is None else
                   f"the table exited ({self.proc.returncode}): {self.stderr()}")
        return self

    def events(self) -> list[dict[str, Any]]:
        return journal_events(self.journal)

    def stderr(self) -> str:
        return self.errors.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(timeout=15)


def kikimimi(*args: str) -> list[str]:
    return [sys.executable, "-m", "kikimimi", *args]


async def until(pilot: Any, condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Let the app run (messages from another thread or process reach it) until `condition()` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.02)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveTable]:
    """The shipped simulated table in this process, English, text only, with its own journal and records folder
    (the console's and the web console's tests take it through their conftest)."""
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    live = open_sim_table(tmp_path)
    yield live
    live.close()
