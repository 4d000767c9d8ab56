"""Each of the five games drawn on the tablet (issue 32, item 1), on a Japanese table: a new game from the
page's form, a few of its bots' taps made for the seats through the page's own action, and the table drawn
with the seats around it, the turn marked and no English on the screen but piece ids and reader names.

Regenerate the screenshots in docs/ with
    KIKIMIMI_WEB_SCREENSHOTS=1 .venv/bin/pytest tests/webconsole/test_each_game_drawn.py
(the regular run writes them to a temporary folder only).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from web_helpers import WebTable, chromium, logged_in

from kikimimi.games.registry import games
from kikimimi.games.session import Session

# The page's own action, as its buttons send it (the body given to the evaluated function as `body`).
ACT = ("async (body) => (await fetch('/api/act', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
       "body: JSON.stringify(%s)})).json()")
DOCS = Path(__file__).resolve().parents[2] / "docs"
TAPS = 12
# What may stay in Latin letters on a Japanese screen: piece and control ids (printed on the pieces), reader
# and output names, the product's name, the language switch, a player's name.
ALLOWED = re.compile(r"^(kikimimi|English|OK|Priest|hand|field|speaker|ctl|[a-z0-9]+(-[a-z0-9]+)+|[a-z]+\d*)$")


@pytest.fixture(scope="module")
def browser():
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium (Debian's chromium package) for the web console's page tests")
    with chromium() as browser:
        yield browser


def english_words(page) -> list[str]:
    """Latin words visible in the table pane and header that are not ids (the drawn table, guide, header)."""
    text = page.inner_text("header") + "\n" + page.inner_text("#guide") + "\n" + page.inner_text("#table") \
        + "\n" + page.inner_text("#toolbar")
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z0-9:-]*", text) if not ALLOWED.match(w)})


def test_each_game_is_drawn_as_a_table(browser, tmp_path):
    table = WebTable(tmp_path / "t", language="ja")
    shots = DOCS if os.environ.get("KIKIMIMI_WEB_SCREENSHOTS") else tmp_path
    try:
        page = logged_in(browser, table, "tablet-portrait")
        for info in games():
            seats = min(info.seats[1], 3)
            setup = {"game": info.id, **({info.seat_key: seats} if info.seat_key else {})}
            answer = page.evaluate(ACT % "{do: 'new_game', setup: body}", setup)
            assert answer.get("answer") == "done", answer
            page.wait_for_function(f"document.body.dataset.game === '{info.id}'")
            session = Session(info.game, dict(answer["setup"]))
            bots = info.new_bots(5, session.setup)
            for _ in range(TAPS):
                event = bots.next_event(session.state)
                if event is None or not hasattr(event, "reader"):
                    break
                session.feed(event)
                page.evaluate(ACT % "{do: 'tap_for', reader: body[0], tag: body[1]}", [event.reader, event.piece])
            page.wait_for_function("Number(document.body.dataset.events) >= 1")
            seats_drawn = page.locator("#table .seat").count()
            assert seats_drawn == info.seat_count(session.setup), info.id
            assert english_words(page) == [], (info.id, english_words(page))
            assert not page.locator("#details").is_visible(), info.id  # the English text panel: not on a ja table
            page.screenshot(path=str(shots / f"console-table-{info.id}.png"))
            # The end (ranking or winner, final scores) is drawn on the table, in Japanese.
            events = int(page.evaluate("document.body.dataset.events"))
            assert page.evaluate(ACT % "{do: 'end'}", None).get("answer") == "done", info.id
            page.wait_for_function(f"Number(document.body.dataset.events) > {events}")
            page.locator("#table-result").wait_for()
            assert "番席" in page.inner_text("#table-result"), info.id
            assert english_words(page) == [], (info.id, "end", english_words(page))
        assert page.errors == []
    finally:
        assert table.stop() == 0
