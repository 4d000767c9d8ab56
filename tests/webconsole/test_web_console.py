"""The Priest's web console (issue 25) in Debian's headless Chromium, against real `kikimimi play --web`
processes on the simulated table: touch emulation at a tablet's two orientations and a phone's size.

One browser for the file; each test starts the table it needs. The journal is read back to check that what
the page did reached the table as the terminal console's actions do.

Regenerate the screenshots in docs/ with
    KIKIMIMI_WEB_SCREENSHOTS=1 .venv/bin/pytest tests/webconsole -k fed_game
(the regular run writes them to a temporary folder only).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from web_helpers import SIZES, Process, WebTable, answers, bot_script, logged_in, new_page, tablet, until

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One table for the access test and the two-tablet test, in this order (the first checks that nothing
    reached the journal; the second starts from there)."""
    table = WebTable(tmp_path_factory.mktemp("web") / "t")
    yield table
    assert table.stop() == 0
    assert "Traceback" not in table.table.stderr()


def shown(page, selector: str) -> str:
    return page.inner_text(selector)


def events_on(page) -> int:
    return int(page.evaluate("document.body.dataset.events || -1"))


def small_targets(page) -> list[str]:
    """Every visible button or field smaller than 44 px either way (touch targets)."""
    return page.evaluate("""() => [...document.querySelectorAll('button, input, select')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)""")


def overflowing(page) -> list[str]:
    """Visible buttons whose label is wider than the button (a piece's id cut off)."""
    return page.evaluate("""() => [...document.querySelectorAll('button')]
        .filter((b) => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
        .map((b) => `${b.id || b.textContent.trim()} ${b.scrollWidth}>${b.clientWidth}`)""")


def test_a_page_without_the_code_is_refused(browser, table):
    page = new_page(tablet(browser))
    answer = page.goto(table.url + "/")
    headers = answer.headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    page.wait_for_selector("#code", state="visible")
    assert page.is_hidden("#app")
    # Without the cookie: no snapshot, no action, from the page's own origin or not.
    for method, path, body in (("GET", "/api/events", None), ("POST", "/api/act", {"do": "undo"})):
        response = page.request.fetch(table.url + path, method=method, headers={"Origin": table.url},
                                      data=json.dumps(body) if body else None)
        assert response.status == 401, (path, response.status)
    # A wrong code is said on the page; the right one opens it.
    wrong = "000000" if table.code != "000000" else "111111"
    page.fill("#code", wrong)
    page.tap("#login-form button[type=submit]")
    page.wait_for_function("document.getElementById('login-error').textContent.includes('Wrong code')")
    page.fill("#code", table.code)
    page.tap("#login-form button[type=submit]")
    page.wait_for_function("document.body.dataset.state === 'live'")
    # Logged in, but another site's page (another Origin) cannot act through the Priest's cookie.
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert list(cookies) == ["kikimimi_priest"]
    assert next(c for c in page.context.cookies())["httpOnly"] is True
    foreign = httpx.post(table.url + "/api/act", json={"do": "pause", "paused": True}, cookies=cookies,
                         headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    huge = httpx.post(table.url + "/api/act", content=b"{" + b" " * 40000 + b"}", cookies=cookies,
                      headers={"Origin": table.url, "Content-Type": "application/json"})
    assert huge.status_code == 413
    assert table.events() == []  # nothing reached the table
    assert page.errors == []
    page.context.close()


def test_a_fed_game_watched_live_at_each_size(browser, tmp_path):
    """A whole bot game fed through the simulated readers while a tablet watches: the page follows it step by
    step to the end; the other sizes open by the QR code's link; every control is a touch target."""
    script = bot_script(3, tmp_path)
    events = len(script.read_text().splitlines()) - 1  # the set-up line is not an event
    table = WebTable(tmp_path / "t", "--feed", str(script), "--pace", "0.03", "--stay")
    shots = DOCS if os.environ.get("KIKIMIMI_WEB_SCREENSHOTS") else tmp_path
    try:
        page = logged_in(browser, table, "tablet-portrait")
        seen: set[int] = set()
        until(lambda: seen.add(events_on(page)) or events_on(page) == events, "the whole game on the page", 30)
        assert len(seen) > 5, f"the page jumped straight to the end: {sorted(seen)}"  # watched, not replayed
        page.wait_for_function("document.getElementById('turn').textContent.includes('Game over')")
        assert len(table.events()) == events
        assert "Ranked by" in page.text_content("#table-result")  # the end, drawn on the table
        assert page.locator("#table .seat").count() == 3  # the table drawn: three seats around it
        assert "For a new game, tap “New game”." in shown(page, "#guide")  # the button, not the terminal's key
        assert "(private line)" in shown(page, "#said-hand-1")  # the earphones' lines stay hidden
        assert small_targets(page) == [] and page.errors == []
        page.screenshot(path=str(shots / "console-web-768x1024.png"))
        for size in ("tablet-landscape", "phone"):
            other = new_page(tablet(browser, size, strict=size == "phone"))  # the phone: under the page's CSP
            other.goto(f"{table.url}/?code={table.code}")  # the QR code's link logs a tablet in
            other.wait_for_selector("body[data-state=live][data-events]")
            assert other.url == table.url + "/"  # the code does not stay in the address bar
            assert events_on(other) == events
            assert small_targets(other) == [], size
            width, height = SIZES[size]
            other.screenshot(path=str(shots / f"console-web-{width}x{height}.png"))
            assert other.errors == []
            other.context.close()
    finally:
        assert table.stop() == 0
    assert "Traceback" not in table.table.stderr()


def test_two_tablets_run_the_table_by_touch(browser, table):
    """Virtual-table tap, reveal with its confirmation, undo, move, pause, volume and mute, a new game of
    another game: each from one tablet, seen on the other, and in the journal where the table journals it."""
    first = logged_in(browser, table, "tablet-landscape")
    second = logged_in(browser, table, "phone")

    # The virtual table: a piece tapped on seat 1's simulated reader (hub, deck, loop, journal).
    first.tap("#tabs [data-tab=virtual]")
    first.tap("#vt-reader-hand-1")
    first.tap("#tap-heart-1")
    until(lambda: table.events() == [{"scan": "hand:1", "piece": "heart-1"}], "the tap in the journal")
    second.wait_for_function("document.body.dataset.events === '1'")
    for page in (first, second):  # the drawn table does not name the piece
        assert "heart-1" not in page.text_content("#table")
    assert "1 in hand" in shown(first, "#seat-1")  # the drawn table counts what seat 1 holds
    assert "(private line)" in shown(first, "#said-hand-1")

    assert overflowing(first) == []  # piece labels fit their buttons (the virtual table is open here) ...
    second.tap("#tabs [data-tab=virtual]")
    assert overflowing(second) == []  # ... and on the phone too
    second.tap("#tabs [data-tab=said]")

    # Hands shown only after the confirmation, with a banner; on that tablet only.
    first.tap("#b-reveal")
    assert "Show every hand" in shown(first, "#dialog-title")
    first.tap("#dialog-buttons button.danger")
    first.wait_for_function("document.getElementById('table').textContent.includes('heart-1')")
    assert first.is_visible("#reveal-banner") and "HANDS SHOWN" in shown(first, "#reveal-banner")
    assert "(private line)" not in shown(first, "#said-hand-1")
    assert "heart-1" not in second.text_content("#table") and second.is_hidden("#reveal-banner")
    first.tap("#b-reveal")  # hiding needs no question
    first.wait_for_function("!document.getElementById('table').textContent.includes('heart-1')")
    assert first.is_hidden("#reveal-banner")

    # Undo, confirmed; the question names no hidden piece; the answer is shown.
    first.tap("#b-undo")
    assert shown(first, "#dialog-title") == "Undo the last accepted event: a piece on hand 1?"
    first.tap("#dialog-buttons button.danger")
    until(lambda: table.events()[-1] == {"referee": "undo", "at": 1}, "the undo in the journal")
    first.wait_for_function("document.body.dataset.answer === 'done'")
    assert "Undo: done." in shown(first, "#toast")
    second.wait_for_function("document.body.dataset.events === '0'")
    assert second.is_disabled("#b-undo")  # nothing accepted left to take back

    # Move a piece (tracking went wrong): picked by touch, from the phone this time.
    second.tap("#b-move")
    second.tap("#pick-heart-2")
    second.tap("#pick-hand_2")
    until(lambda: table.events()[-1] == {"referee": "move", "piece": "heart-2", "to": "hand:2"},
          "the move in the journal")

    # Pause: the other tablet shows it.
    first.tap("#b-pause")
    second.wait_for_selector("#paused", state="visible")
    first.wait_for_function("document.getElementById('b-pause').textContent === 'Resume'")
    first.tap("#b-pause")
    second.wait_for_selector("#paused", state="hidden")

    # Volume and mute per output.
    first.tap("#tabs [data-tab=health]")
    first.tap("#down-speaker")
    second.tap("#tabs [data-tab=health]")
    second.wait_for_function("document.querySelector('#out-speaker .level').textContent === '90%'")
    first.tap("#mute-hand-2")
    second.wait_for_function("document.querySelector('#out-hand-2 .level').textContent === 'MUTED'")

    # One of the game's own referee actions, its parameter asked by touch, then confirmed; refused during the
    # deal, and the page says so with the table's reason.
    first.tap("#b-actions")
    first.tap("#pick-penalty")
    first.tap("#pick-2")
    assert shown(first, "#dialog-title") == "Penalty for seat 2: send it to the table?"
    first.tap("#dialog-buttons button.danger")
    until(lambda: table.events()[-1] == {"referee": "penalty", "seat": 2}, "the penalty in the journal")
    first.wait_for_function("document.body.dataset.answer === 'refused'")
    assert "Penalty: refused by the table: needs a seat 1-3, during a turn" in shown(first, "#toast")

    # A new game of another game, its seat count offered as this table's three hand readers allow.
    first.tap("#b-new")
    first.tap("#game-nimmt")
    players = first.eval_on_selector_all("#key-players button", "(bs) => bs.map((b) => b.textContent)")
    assert players == ["2", "3"]
    first.tap("#key-players-3")
    first.tap("#dialog-buttons button.primary")
    second.wait_for_function("document.body.dataset.game === 'nimmt'")
    assert table.games()[-1] == "nimmt"
    assert "6 nimmt" in shown(second, "#game-title") and "3 seats" in shown(second, "#seats")
    # A refusal is said on the page, the table goes on: an action the game has not got.
    answer = first.evaluate("""async () => (await fetch('/api/act', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({do: 'referee', action: 'penalty'})
        })).json()""")
    assert "has no referee action 'penalty'" in answer["error"]
    assert first.errors == [] and second.errors == []


def test_the_table_restarted_under_the_page(browser, tmp_path):
    """`kikimimi console --web` attached to a `play` that stops and starts again (the service's restart): the
    page says the table is not answering, then carries on by itself; the web console itself restarted: the
    page says it is reconnecting and comes back still logged in (the evening's code is kept). A Japanese
    table: the page speaks its language."""
    table = WebTable(tmp_path / "t", web=False, language="ja")
    web_args = ["console", "--web", "--config", str(table.config), "--listen", f"127.0.0.1:{table.port}"]

    def start_web() -> Process:
        web = Process(table.folder, "web", web_args, table.env)
        until(lambda: answers(table.port), "the web console to listen")
        return web

    web = start_web()
    try:
        page = logged_in(browser, table, "tablet-portrait")
        assert shown(page, "#b-undo") == "取り消し" and "3席" in shown(page, "#seats")
        page.tap("#tabs [data-tab=virtual]")
        page.tap("#vt-reader-hand-2")
        page.tap("#tap-diamond-1")
        page.wait_for_function("document.body.dataset.events === '1'")

        assert table.stop() == 0
        page.wait_for_function("document.body.dataset.state === 'lost'")
        assert "テーブルが応答しません" in shown(page, "#link-banner")
        table.start()
        page.wait_for_function("document.body.dataset.state === 'live'", timeout=15000)
        assert events_on(page) == 1 and page.is_hidden("#link-banner")  # the game resumed from the journal

        assert web.stop() == 0
        page.wait_for_function("document.body.dataset.link === 'down'")
        assert shown(page, "#link-banner") == "再接続中…"
        web = start_web()
        page.wait_for_function("document.body.dataset.link === 'up' && document.body.dataset.state === 'live'",
                               timeout=15000)
        assert page.is_hidden("#login")  # still logged in: the cookie is good for the evening
        page.tap("#b-undo")
        page.tap("#dialog-buttons button.danger")
        page.wait_for_function("['done', 'refused'].includes(document.body.dataset.answer)")
        assert page.evaluate("document.body.dataset.answer") == "done", shown(page, "#toast")
        until(lambda: table.events()[-1] == {"referee": "undo", "at": 1}, "the undo in the journal")
        assert "取り消し:完了しました。" in shown(page, "#toast")  # the answer in the table's language
        assert page.errors == []
    finally:
        assert web.stop() == 0
        assert table.stop() == 0
    assert "Traceback" not in web.stderr() + table.table.stderr()
