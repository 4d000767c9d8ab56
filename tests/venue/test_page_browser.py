"""The venue's standings page in a real headless Chromium (Debian's), served by uvicorn on a local port.

The host here is a TEST DOUBLE of `kikimimi.venue.host` (a few lines below): it mounts the page's real
`routes()` and serves one snapshot and its Server-Sent Events stream exactly as the venue API contract
says, so each test can push the snapshot it needs (a result, a lost table, an older version, a dropped
stream). The last browser test runs the page against the real host (`create_app`) and a real SQLite
records store, with a table joining, reporting its state and a result through the real client.

Regenerate the screenshot in docs/ with
    KIKIMIMI_VENUE_SCREENSHOT=1 .venv/bin/pytest tests/venue/test_page_browser.py -k screenshot
(the regular run writes it to a temporary folder only).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from chromium_helpers import CHROMIUM
from chromium_helpers import chromium as chromium_browser
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from venue_helpers import TOKEN, bot_outcome, new_meeting, serve, wait_for  # on the path: tests/venue/conftest.py

from kikimimi.games.registry import get_info
from kikimimi.records.kinds import ladder
from kikimimi.records.standings import standings
from kikimimi.records.store import RecordStore
from kikimimi.venue import page
from kikimimi.venue.client import HostLink
from kikimimi.venue.host import create_app
from kikimimi.voice.catalog import Catalog

DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "venue-standings.png"


def _titles() -> dict[str, dict[str, str]]:
    """Every rank and peerage name in ja and en, from the voice catalogs (as the host takes them)."""
    ja, en = Catalog.load("ja").values["title"], Catalog.load("en").values["title"]
    return {key: {"ja": ja[key][0], "en": en[key][0]} for key in en}


NAMES = ["Aiko", "Bruno", "Chiara", "Daisuke", "Emma", "Fumiko", "Gus", "Haruto", "Ines", "Jun", "Kate", "Leo"]
RANKS = ["general", "knight", "knight", "wizard", "wizard", "bishop", "bishop", "bishop", "apprentice"]
PEERAGES = ["duchess", "earl", "baroness", None, "baron", None, None, "viscountess"]


def meeting_snapshot(*, players: int = 12, tables: int = 4, names: list[str] | None = None) -> dict[str, Any]:
    """A realistic snapshot, as the contract has it: a Trident full trial mid-way, three players a table."""
    titles = _titles()
    trident = get_info("trident")
    names = list(names or []) + [
        NAMES[i % len(NAMES)] + (f" {i // len(NAMES) + 1}" if i >= len(NAMES) else "") for i in range(players)
    ]
    names = names[:players]
    seats = {name: 1 + i % tables for i, name in enumerate(names)}  # seat choice deals the ranked ones apart
    standings = []
    for position, name in enumerate(names, start=1):  # the names come in standings order
        wins = max(0, 5 - position // 3)
        standings.append({
            "position": position, "player": name, "table": seats[name], "games": 6, "wins": wins,
            "points": 12 + 3 * position, "crashes": 1 if position % 5 == 0 else 0,
            "rank": titles[RANKS[min(position - 1, len(RANKS) - 1)]],
            "peerage": titles[p] if (p := PEERAGES[(position - 1) % len(PEERAGES)]) else None,
        })
    phases = ["turn", "drawing", "deal", "choose_suit"]
    table_rows = [{
        "table": n, "players": [name for name in names if seats[name] == n][:3], "games_played": 5 + n % 2,
        "games_due": 10, "round": 6 + n % 2, "phase": phases[(n - 1) % len(phases)], "game_id": f"g-{n}",
        "health": "ok", "connected": True, "last_seen": "2026-11-22T10:00:00+00:00", "controller": f"table-{n}",
    } for n in range(1, tables + 1)]
    return {
        "version": 1, "updated_at": "2026-11-22T10:00:00+00:00",
        "meeting": {"id": 3, "label": "Autumn trial", "game": "trident", "title": dict(trident.titles),
                    "kind": "full", "status": "open", "tables": tables, "games_due": 10},
        "standings": standings, "tables": table_rows,
    }


class HostDouble:
    """The venue API's two read endpoints over a snapshot the test sets: `push` is a change at the host."""

    def __init__(self, snapshot: dict[str, Any]) -> None:
        self.snapshot = snapshot
        self.refusing = False  # the stream answers 503, as a host that is down behind a proxy would
        self.streams_opened = 0
        self.streams_refused = 0
        self._streams: set[asyncio.Queue[dict[str, Any] | None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def app(self) -> Starlette:
        return Starlette(routes=[
            Route("/api/meetings/{meeting}", self._snapshot),
            Route("/api/meetings/{meeting}/events", self._events),
            *page.routes(),
        ])

    async def _snapshot(self, request: Request) -> Response:
        return JSONResponse(self.snapshot)

    async def _events(self, request: Request) -> Response:
        if self.refusing:
            self.streams_refused += 1
            return JSONResponse({"error": "the host is restarting"}, status_code=503)
        self._loop = asyncio.get_running_loop()
        self.streams_opened += 1
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._streams.add(queue)

        async def stream() -> AsyncIterator[str]:
            try:
                # retry: how soon the browser comes back after a dropped stream (its default is ~3 s).
                yield f"retry: 300\nevent: snapshot\ndata: {json.dumps(self.snapshot)}\n\n"
                while (item := await queue.get()) is not None:
                    yield f"event: snapshot\ndata: {json.dumps(item)}\n\n"
            finally:
                self._streams.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    def push(self, snapshot: dict[str, Any] | None) -> None:
        """Send a snapshot on every open stream (None ends them, as a host going down does)."""
        if snapshot is not None:
            self.snapshot = snapshot
        for queue in list(self._streams):
            assert self._loop is not None
            self._loop.call_soon_threadsafe(queue.put_nowait, snapshot)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    with chromium_browser() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def host() -> Iterator[tuple[HostDouble, str]]:
    double = HostDouble(meeting_snapshot())
    with serve(double.app()) as base_url:
        yield double, base_url


@pytest.fixture
def fresh(host: tuple[HostDouble, str]) -> tuple[HostDouble, str]:
    """The double with a realistic 4-table, 12-player meeting at version 1 again."""
    double, base_url = host
    double.refusing = False
    double.snapshot = meeting_snapshot()
    return double, base_url


def open_page(browser: Any, url: str, *, locale: str = "en-US", width: int = 1920, height: int = 1080,
              fake_clock: bool = False) -> Any:
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    tab = context.new_page()
    if fake_clock:
        tab.clock.install()  # the page's timers wait until the test moves the clock on
    tab.goto(url)
    return tab


@pytest.fixture
def open_tab(browser: Any) -> Iterator[Any]:
    """open_page in a fresh browser context, closed after the test (passed or not), so no stream stays open."""
    tabs: list[Any] = []

    def opener(url: str, **kwargs: Any) -> Any:
        tabs.append(open_page(browser, url, **kwargs))
        return tabs[-1]

    yield opener
    for tab in tabs:
        tab.context.close()


def drawn_version(tab: Any, version: int, timeout_ms: float = 2000) -> None:
    tab.wait_for_selector(f"html[data-version='{version}']", state="attached", timeout=timeout_ms)


def standings_rows(tab: Any) -> list[list[str]]:
    return tab.eval_on_selector_all(
        "#standings tr", "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent))"
    )


def test_the_snapshot_draws_the_standings_and_the_tables(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    tab = open_tab(f"{base_url}/meetings/3?lang=en")
    drawn_version(tab, 1)
    expected = double.snapshot
    rows = standings_rows(tab)
    assert [row[1] for row in rows] == [s["player"] for s in expected["standings"]]
    first = expected["standings"][0]
    assert rows[0][:6] == [str(first[k]) for k in ("position", "player", "table", "wins", "points", "crashes")]
    assert rows[0][6:] == [first["rank"]["en"], first["peerage"]["en"] if first["peerage"] else ""]
    cards = tab.locator(".table-card")
    assert cards.count() == len(expected["tables"])
    table_one = expected["tables"][0]
    assert cards.nth(0).locator(".player").all_text_contents() == table_one["players"]
    assert f"Round {table_one['round']} of {table_one['games_due']}" in cards.nth(0).inner_text()
    assert tab.inner_text("#game-title") == expected["meeting"]["title"]["en"]
    assert tab.inner_text("#meeting-label") == expected["meeting"]["label"]
    # A phase of one game's own has no word in the page: it shows as the game names it.
    assert cards.nth(3).locator(".phase").inner_text() == "Choose suit"


def test_a_result_pushed_by_the_host_shows_within_two_seconds(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    tab = open_tab(f"{base_url}/meetings/current?lang=en")
    drawn_version(tab, 1)
    after = copy.deepcopy(double.snapshot)
    after["version"] = 2
    winner = after["standings"][5]
    winner["wins"] += 1
    winner["games"] += 1
    sent = time.monotonic()
    double.push(after)
    tab.wait_for_function(
        "([name, wins]) => Array.from(document.querySelectorAll('#standings tr'))"
        ".some(r => r.dataset.player === name && r.querySelector('.wins').textContent === String(wins))",
        arg=[winner["player"], winner["wins"]], timeout=2000,
    )
    assert time.monotonic() - sent < 2.0
    # The row that changed flashes; one that did not, does not.
    assert "changed" in tab.locator(f"#standings tr[data-player='{winner['player']}']").get_attribute("class")
    assert "changed" not in (tab.locator("#standings tr").nth(0).get_attribute("class") or "").split()

    # An older snapshot arriving late is dropped: only the newer one after it is drawn.
    tab.evaluate("""() => {
        window.drawnVersions = [];
        new MutationObserver(() => window.drawnVersions.push(document.documentElement.dataset.version))
            .observe(document.documentElement, {attributes: true, attributeFilter: ["data-version"]});
    }""")
    older = copy.deepcopy(after)
    older["version"] = 1
    double.push(older)
    newer = copy.deepcopy(after)
    newer["version"] = 3
    double.push(newer)
    drawn_version(tab, 3)
    assert tab.evaluate("window.drawnVersions") == ["3"], "an older version was drawn"


def test_labels_follow_the_lang_query_then_the_browser(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    """The query beats the browser's language; without it a Japanese browser gets ja (the header's other
    cases are the HTTP tests below)."""
    double, base_url = fresh
    double.snapshot["tables"][2]["connected"] = False
    heads = "els => els.map(e => e.textContent)"
    english = open_tab(f"{base_url}/?lang=en", locale="ja-JP")
    japanese = open_tab(f"{base_url}/meetings/3", locale="ja-JP")
    drawn_version(english, 1)
    drawn_version(japanese, 1)
    assert english.eval_on_selector_all("#standings-table th", heads)[1:6] == \
        ["Player", "Table", "Wins", "Points", "Crashes"]
    assert japanese.eval_on_selector_all("#standings-table th", heads)[1:6] == ["名前", "卓", "勝", "点", "クラッシュ"]
    assert japanese.evaluate("document.documentElement.lang") == "ja"
    assert japanese.inner_text("#game-title") == "トライデント"
    assert japanese.inner_text("#kind") == "公式練習会 (フル)"
    assert standings_rows(japanese)[0][6] == double.snapshot["standings"][0]["rank"]["ja"]
    cards = japanese.locator(".table-card")
    assert cards.nth(0).locator(".table-name").inner_text() == "第1卓"
    assert cards.nth(0).locator(".round").inner_text() == "第7戦 / 全10戦"
    assert cards.nth(0).locator(".badge").inner_text() == "正常"
    assert cards.nth(2).locator(".badge").inner_text() == "通信途絶"


def test_a_name_is_shown_as_text_never_as_html(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    hostile = ["<b>x</b>", "<img src=x onerror=\"window.owned=1\">", "Eve\u202ereversed"]
    snapshot = meeting_snapshot(names=hostile)
    double.snapshot = snapshot
    tab = open_tab(f"{base_url}/?lang=en")
    drawn_version(tab, 1)
    shown = [row[1] for row in standings_rows(tab)]
    # A stored bidi override is shown escaped, as the terminal shows it (issue 21.5): it would reverse the line.
    expected = [name.replace("\u202e", "\\u202e") for name in hostile]
    for name in expected:
        assert name in shown
    assert tab.locator("#standings b, #standings img, #tables b, #tables img").count() == 0
    players_at_tables = tab.locator(".table-card .player").all_text_contents()
    assert set(expected) <= set(players_at_tables)
    assert not any(c in tab.inner_text("body") for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert tab.evaluate("window.owned") is None


def test_a_table_not_reporting_is_marked_lost(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    double.snapshot["tables"][2]["connected"] = False
    double.snapshot["tables"][2]["health"] = "lost"
    double.snapshot["tables"][3]["health"] = "degraded"
    tab = open_tab(f"{base_url}/?lang=en")
    drawn_version(tab, 1)
    badges = tab.locator(".table-card .badge")
    assert badges.all_text_contents() == ["OK", "OK", "LOST", "Degraded"]
    assert badges.nth(2).is_visible()
    assert "state-lost" in tab.locator(".table-card").nth(2).get_attribute("class")
    assert "state-degraded" in tab.locator(".table-card").nth(3).get_attribute("class")


def test_a_table_done_reads_done_and_one_never_joined_reads_not_joined(open_tab: Any,
                                                                     fresh: tuple[HostDouble, str]) -> None:
    """Issue 21.1: a table that played its games and went quiet showed a red LOST beside "Final standings"."""
    double, base_url = fresh
    double.snapshot["meeting"]["status"] = "finished"
    for row in double.snapshot["tables"]:
        row.update(connected=False, health="done", games_played=10, phase="done")
    double.snapshot["tables"][3].update(health="not_joined", games_played=0, last_seen=None, controller=None)
    tab = open_tab(f"{base_url}/?lang=en")
    drawn_version(tab, 1)
    assert tab.locator(".table-card .badge").all_text_contents() == ["Done", "Done", "Done", "Not joined"]
    assert "state-done" in tab.locator(".table-card").nth(0).get_attribute("class")
    assert tab.locator(".state-lost").count() == 0


def test_a_dropped_stream_shows_reconnecting_then_comes_back(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    tab = open_tab(f"{base_url}/?lang=en", fake_clock=True)
    drawn_version(tab, 1)
    assert tab.locator("#link").is_hidden()
    # The stream ends (a proxy's timeout, a host restart): the browser opens a new one by itself.
    opened = double.streams_opened
    changed = meeting_snapshot()
    changed["version"] = 2
    changed["standings"][0]["wins"] += 1
    double.push(None)
    double.snapshot = changed
    drawn_version(tab, 2)
    assert double.streams_opened == opened + 1
    # The host is down for a while (refusing the stream): the marker shows until it is back.
    double.refusing = True
    double.push(None)
    tab.wait_for_selector("#link", state="visible", timeout=2000)
    assert tab.inner_text("#link") == "Reconnecting…"
    # The browser's own retry is refused: EventSource gives up on an HTTP error, the page does not.
    wait_for(lambda: double.streams_refused, 3, "the browser to retry the stream")
    # It comes back with its version count started afresh and a result recorded meanwhile.
    back = meeting_snapshot()
    back["standings"][0]["wins"] += 2
    double.snapshot = back
    double.refusing = False
    assert tab.locator("#link").is_visible()
    tab.clock.run_for(1_000)  # the page's own retry, 1 s after the refusal
    tab.wait_for_selector("#link", state="hidden", timeout=2000)
    tab.wait_for_function(
        "wins => document.querySelector('#standings tr .wins').textContent === String(wins)",
        arg=back["standings"][0]["wins"], timeout=2000,
    )


def test_thirty_tables_and_ninety_players_turn_pages(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    double.snapshot = meeting_snapshot(players=90, tables=30)
    tab = open_tab(f"{base_url}/?lang=en&rotate=15", fake_clock=True)
    drawn_version(tab, 1)
    visible = "sel => Array.from(document.querySelectorAll(sel)).filter(e => !e.hidden).map(e => e.textContent)"
    first_page = tab.evaluate(visible, "#standings tr")
    first_tables = tab.evaluate(visible, ".table-card")
    pages = int(tab.get_attribute("#standings-pager", "data-pages"))
    assert 1 < pages == -(-90 // len(first_page))
    assert tab.inner_text("#standings-pager") == f"Standings 1/{pages}"
    assert tab.inner_text("#tables-pager") == f"Tables 1/{-(-30 // len(first_tables))}"
    assert "compact" in tab.get_attribute("#tables", "class")
    assert _fits_the_screen(tab)
    tab.clock.run_for(14_000)  # ?rotate=15: a page stays 15 s
    assert tab.get_attribute("#standings-pager", "data-page") == "1"
    tab.clock.run_for(1_000)
    assert tab.get_attribute("#standings-pager", "data-page") == "2"
    assert set(tab.evaluate(visible, "#standings tr")).isdisjoint(first_page)
    assert set(tab.evaluate(visible, ".table-card")).isdisjoint(first_tables)
    assert _fits_the_screen(tab)


def test_a_page_on_the_current_meeting_moves_on_to_the_next(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    double, base_url = fresh
    double.snapshot["meeting"]["status"] = "finished"
    tab = open_tab(f"{base_url}/meetings/current?lang=en", fake_clock=True)
    drawn_version(tab, 1)
    assert tab.inner_text("#status") == "Final standings"
    opened = double.streams_opened
    following = meeting_snapshot()
    following["meeting"].update(id=4, label="Winter trial")
    double.snapshot = following  # the host's current meeting is now the next one
    tab.clock.run_for(29_000)
    assert tab.inner_text("#meeting-label") == "Autumn trial" and double.streams_opened == opened
    tab.clock.run_for(2_000)
    tab.wait_for_function("() => document.getElementById('meeting-label').textContent === 'Winter trial'",
                          polling=50, timeout=2000)
    assert tab.inner_text("#status") == "In progress"
    assert double.streams_opened == opened + 1


def _fits_the_screen(tab: Any) -> bool:
    """No scrolling, and every row and card on show lies inside the window."""
    return tab.evaluate("""() => {
        const el = document.scrollingElement;
        if (el.scrollHeight > innerHeight || el.scrollWidth > innerWidth) return false;
        const shown = Array.from(document.querySelectorAll('#standings tr, .table-card')).filter(e => !e.hidden);
        return shown.every(e => {
            const box = e.getBoundingClientRect();
            return box.bottom <= innerHeight && box.right <= innerWidth;
        });
    }""")


def test_twelve_players_and_four_tables_fit_without_scrolling(open_tab: Any, fresh: tuple[HostDouble, str]) -> None:
    """From 1280x720 to 3840x2160: every row and table on one screen, row text at least 4% of its height."""
    _, base_url = fresh
    tab = open_tab(f"{base_url}/?lang=en", width=1280, height=720)
    drawn_version(tab, 1)
    for width, height in ((1280, 720), (1920, 1080), (3840, 2160)):
        tab.set_viewport_size({"width": width, "height": height})
        tab.wait_for_function("h => innerHeight === h", arg=height)
        assert tab.locator("#standings tr:not([hidden])").count() == 12, (width, height)
        assert tab.locator(".table-card:not([hidden])").count() == 4, (width, height)
        assert tab.inner_text("#standings-pager") == ""
        assert _fits_the_screen(tab), (width, height)
        row_text = tab.evaluate("parseFloat(getComputedStyle(document.querySelector('#standings td.name')).fontSize)")
        assert row_text >= 0.04 * height, (width, height)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_screenshot_of_a_four_table_meeting(open_tab: Any, fresh: tuple[HostDouble, str], tmp_path: Path,
                                            lang: str) -> None:
    """The pictures in docs/ (venue-standings.png, venue-standings-ja.png): written there only when
    KIKIMIMI_VENUE_SCREENSHOT is set (the ja one needs a Japanese font, e.g. Debian's fonts-ipafont-gothic)."""
    double, base_url = fresh
    shown = meeting_snapshot()
    shown["tables"][3]["connected"] = False  # one table's network dropped: the page's "lost" marker
    shown["tables"][1]["health"] = "degraded"
    double.snapshot = shown
    tab = open_tab(f"{base_url}/?lang={lang}")
    drawn_version(tab, 1)
    name = DOCS_SCREENSHOT.name if lang == "en" else DOCS_SCREENSHOT.name.replace(".png", f"-{lang}.png")
    folder = DOCS_SCREENSHOT.parent if os.environ.get("KIKIMIMI_VENUE_SCREENSHOT") else tmp_path
    target = folder / name
    tab.wait_for_timeout(100)
    tab.screenshot(path=str(target), animations="disabled")
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(target.read_bytes()[16:20], "big"), int.from_bytes(target.read_bytes()[20:24], "big")
    assert (width, height) == (1920, 1080)


def test_a_result_recorded_through_the_real_host_shows_on_the_page(open_tab: Any, tmp_path: Path) -> None:
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=4, kind="half")
    app = create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None, connected_seconds=2.0)
    with serve(app) as url:
        tab = open_tab(f"{url}/meetings/{meeting}?lang=en")
        tab.wait_for_selector("html[data-version]", state="attached", timeout=5000)
        with RecordStore(db) as store:
            tables = store.tables.all(meeting)
        assert sorted(row[1] for row in standings_rows(tab)) == sorted(n for t in tables for n in t.players)
        assert tab.locator(".table-card .badge").all_text_contents() == ["Not joined"] * 4

        link = HostLink(url, 2, token=TOKEN, controller="table-two")
        try:
            seats = dict(enumerate(link.join()["players"], start=1))
            link.send_state({"round": 1, "phase": "turn", "game_id": "20261122-100000-aaaaaa",
                             "health": {"readers": {"hand:1": "ok", "field": "ok"}, "outputs": {"speaker": "ok"}}})
            card = tab.locator(".table-card[data-table='2']")
            # (Joining alone already shows the table connected, not started: wait for the state itself.)
            card.locator(".round", has_text="Round 1 of 5").wait_for(timeout=2000)
            assert card.locator(".phase").inner_text() == "Playing"
            assert card.locator(".badge").inner_text() == "OK"

            sent = time.monotonic()
            link.report("20261122-100000-aaaaaa", seats, bot_outcome(seed=1).to_json())
            with RecordStore(db) as store:
                played = store.games.in_meeting(meeting)
                expected = standings(played, [n for t in tables for n in t.players], ladder("trident"))
            shown = [[str(s.position), s.player, str(s.wins), str(s.score)] for s in expected]
            tab.wait_for_function(
                """expected => JSON.stringify(Array.from(document.querySelectorAll('#standings tr')).map(
                    r => [0, 1, 3, 4].map(i => r.cells[i].textContent))) === JSON.stringify(expected)""",
                arg=shown, timeout=2000,
            )
            took = time.monotonic() - sent
            print(f"\nresult reported -> standings on the page: {took * 1000:.0f} ms")
            assert took < 2.0
            assert sum(s.wins for s in expected) == 1  # the game counted, once
            # The table falls silent: the host marks it lost after 2 s, and the page shows it.
            card.locator(".badge", has_text="LOST").wait_for(timeout=4000)
            # A meeting the host does not have: the page says what the host said, and keeps trying.
            missing = open_tab(f"{url}/meetings/{meeting + 41}?lang=en")
            missing.wait_for_selector("#waiting-detail:not(:empty)", timeout=4000)
            assert str(meeting + 41) in missing.inner_text("#waiting-detail")
            assert missing.locator("#board").is_hidden()
            missing.context.close()
        finally:
            link.close()
            tab.context.close()  # before the server stops: an open stream would hold its shutdown


# --- the page's routes over HTTP (no browser needed) ---


@pytest.mark.parametrize("path,query,accept,lang", [
    ("/", "", None, "ja"),
    ("/", "", "en-GB,en;q=0.9", "en"),
    ("/meetings/current", "", "fr-FR, en;q=0.5, ja;q=0.8", "ja"),
    ("/meetings/7", "?lang=EN", "ja", "en"),
    ("/meetings/7", "?lang=ja", "en", "ja"),
    ("/", "", "fr, de;q=0.5", "ja"),
])
def test_the_page_names_its_language_and_meeting(
    host: tuple[HostDouble, str], path: str, query: str, accept: str | None, lang: str
) -> None:
    _, base_url = host
    headers = {"Accept-Language": accept} if accept else {}
    response = httpx.get(f"{base_url}{path}{query}", headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    meeting = path.rsplit("/", 1)[-1] or "current"
    assert f'<html lang="{lang}" data-meeting="{meeting}"' in response.text


@pytest.mark.parametrize("query,named", [("?lang=fr", "'fr'"), ("?rotate=0", "rotate"), ("?rotate=x", "rotate")])
def test_a_bad_query_gets_a_one_line_answer(host: tuple[HostDouble, str], query: str, named: str) -> None:
    _, base_url = host
    response = httpx.get(f"{base_url}/meetings/current{query}")
    assert response.status_code == 400
    assert response.text.count("\n") == 1 and named in response.text
    assert response.text.startswith("/meetings/current: ")


def test_the_page_loads_nothing_from_outside_the_host(host: tuple[HostDouble, str]) -> None:
    """The venue may have no internet: every URL the page uses is the host's own."""
    _, base_url = host
    html = httpx.get(f"{base_url}/?lang=en").text
    assets = [part.split('"')[0] for part in html.split('="')[1:] if part.startswith(page.STATIC_PREFIX)]
    assert sorted(a.split("?")[0] for a in assets) == [f"{page.STATIC_PREFIX}/venue.css",
                                                       f"{page.STATIC_PREFIX}/venue.js"]
    for asset in assets:
        response = httpx.get(f"{base_url}{asset}")
        assert response.status_code == 200
        assert "http://" not in response.text and "https://" not in response.text and "@import" not in response.text
    assert "http://" not in html and "https://" not in html
