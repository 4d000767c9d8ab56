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
from web_helpers import SIZES, WebTable, bot_script, chromium, logged_in, tablet, until

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def browser():
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium (Debian's chromium package) for the web console's page tests")
    with chromium() as browser:
        yield browser


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


def test_a_page_without_the_code_is_refused(browser, tmp_path):
    table = WebTable(tmp_path / "t")
    try:
        page = tablet(browser).new_page()
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
        page.wait_for_function("document.getElementById('login-error').textContent.includes('wrong code')")
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
    finally:
        assert table.stop() == 0
    assert "Traceback" not in table.table.stderr()
