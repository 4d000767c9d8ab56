"""While the turn clock runs, health changes every 0.5 s: a page gets the clock (or the health) alone, a few
hundred bytes, not the whole snapshot again; a step still brings a whole snapshot. Numeron (the game with a
turn clock) on its simulated table, the web console served beside it as `play --web` serves it, a page's
stream read raw and Debian's Chromium drawing the clock from those updates."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
from pathlib import Path

import httpx
import pytest
from web_helpers import chromium, new_page, tablet, until

from kikimimi.console.web.serve import start_beside
from kikimimi.table.config import default_config_path, load_config
from kikimimi.table.feed import SimTapper
from kikimimi.table.live import open_table


@pytest.fixture
def clocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Numeron in play (numbers set by bots: the clock runs), its web console beside it."""
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    config = load_config(default_config_path("numeron"), {"journal": str(tmp_path / "journal.sqlite"),
                                                           "turn_seconds": 60, "language": "en"})
    table = open_table(config, transcript_only=True)
    bots = table.loop.info.new_bots(1, table.loop.session.setup)
    tapper = SimTapper(table.loop, table.hub)
    while table.loop.report()["phase"] == "set":
        tapper.perform(bots.next_event(table.loop.state))
    assert table.loop.clock.remaining() is not None
    with contextlib.redirect_stdout(io.StringIO()):
        beside = start_beside(table, "127.0.0.1:0")
    try:
        yield table, beside.address, lambda: tapper.perform(bots.next_event(table.loop.state))
    finally:
        beside()
        table.close()


def read_stream(url: str, code: str, seconds: float, during=None) -> list[tuple[str, str]]:
    """(event, data) of one page's stream for `seconds`; `during()` runs half-way."""
    got: list[tuple[str, str]] = []
    client = httpx.Client(base_url=url, timeout=10)
    assert client.post("/api/login", json={"code": code}, headers={"Origin": url}).status_code == 200
    done = threading.Event()

    def read() -> None:
        with client.stream("GET", "/api/events", timeout=None) as answer:
            kind = ""
            for line in answer.iter_lines():
                if done.is_set():
                    return
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    got.append((kind, line[6:]))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(seconds / 2)
    if during is not None:
        during()
    time.sleep(seconds / 2)
    done.set()
    reader.join(timeout=KEEP_ALIVE_WAIT)
    client.close()
    return list(got)


KEEP_ALIVE_WAIT = 20  # the reader ends at the stream's next line (a health update comes every 0.5 s)


def test_the_clock_comes_alone_and_a_step_as_a_snapshot(clocked):
    table, address, step = clocked
    got = read_stream(address.url, address.code, 4.0, during=step)
    kinds = [kind for kind, _ in got]
    assert kinds[0] == "snapshot"
    # The first snapshot, maybe a second one as the console reads the table's health the first time, then
    # the clock every 0.5 s, and the bots' tap half-way: a whole snapshot between the clock's updates.
    assert kinds.count("snapshot") <= 3 and kinds.count("health") >= 5, kinds
    step = len(kinds) - 1 - kinds[::-1].index("snapshot")
    assert "health" in kinds[:step] and "health" in kinds[step + 1:], kinds
    ticks = [json.loads(data) for kind, data in got[:step] if kind == "health"]
    alone = [tick for tick in ticks if "clock" in tick and "health" not in tick]
    assert alone, "the clock is sent alone when it is all that changed"
    seconds = [tick["clock"][1] for tick in alone]
    assert seconds == sorted(seconds, reverse=True) and seconds[0] > seconds[-1]  # it counts down
    snapshot_size = len(got[0][1])
    assert all(len(data) < snapshot_size / 5 for kind, data in got if kind == "health")


def test_the_page_draws_the_clock_from_the_updates(clocked):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium (Debian's chromium package) for the page test")
    table, address, _ = clocked
    with chromium() as browser:
        page = new_page(tablet(browser))
        page.goto(address.login_link)
        page.wait_for_selector("body[data-state=live]")
        version = page.get_attribute("body", "data-version")
        first = until(lambda: page.inner_text("#clock"), "the clock on the page")
        until(lambda: page.inner_text("#clock") not in ("", first), "the clock counting down on the page")
        assert page.get_attribute("body", "data-version") == version  # no snapshot: the updates drew it
        assert int(page.get_attribute("body", "data-health") or 0) >= 1
        assert page.errors == []
