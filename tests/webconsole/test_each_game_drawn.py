"""Each of the five games drawn on the tablet (issue 32, item 1), on a Japanese table: a new game from the
page's form, a few of its bots' taps made for the seats through the page's own action, and the table drawn
with the seats around it, the turn marked and no English on the screen but piece ids and reader names; then
the game ended from the page (its end drawn) and every tab opened: no English word in any tab but the
Meeting tab (still the records' English text: the test says so as an expected failure).

Regenerate the screenshots in docs/ with
    KIKIMIMI_WEB_SCREENSHOTS=1 .venv/bin/pytest tests/webconsole/test_each_game_drawn.py
(the regular run writes them to a temporary folder only).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from web_helpers import WebTable, logged_in

from kikimimi.games.registry import games
from kikimimi.games.session import Session

# The page's own action, as its buttons send it (the body given to the evaluated function as `body`).
ACT = ("async (body) => (await fetch('/api/act', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
       "body: JSON.stringify(%s)})).json()")
DOCS = Path(__file__).resolve().parents[2] / "docs"
TAPS = 12
# What may stay in Latin letters on a Japanese screen: piece and control ids (printed on the pieces), reader
# and output names, the product's name, the language switch, a player's name.
ALLOWED = re.compile(r"^(kikimimi|English|OK|Priest|hand|field|speaker|ctl|hand:\d+|[a-z0-9]+(-[a-z0-9]+)+)$")
# One-word piece, control and reader ids: printed on the pieces and readers, shown as they are.
IDS: set[str] = {word for info in games()
                 for word in (*info.pieces, *info.controls, *info.readers(dict(info.setup_defaults)))}
IDS |= {control.removeprefix("ctl-") for info in games() for control in info.controls}  # a control's button
IDS |= {piece.split("-", 1)[-1] for info in games() for piece in info.pieces}  # a piece's button: its id's rest
# The Meeting tab is still the records' own English text (kikimimi/console/records.py): a known gap, checked
# apart so that every other tab fails on English.
NOT_YET = {"meeting"}


TABS = ("said", "alerts", "health", "virtual", "meeting")


def latin_words(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z0-9:-]*", text) if not ALLOWED.match(w) and w not in IDS})


def english_words(page) -> list[str]:
    """Latin words visible in the table pane and header that are not ids (the drawn table, guide, header)."""
    text = page.inner_text("header") + "\n" + page.inner_text("#guide") + "\n" + page.inner_text("#table") \
        + "\n" + page.inner_text("#toolbar")
    return latin_words(text)


def english_in_tabs(page) -> dict[str, list[str]]:
    """Each tab opened as the Priest opens it (a tap on its button), and the Latin words it shows."""
    found = {}
    for tab in TABS:
        page.click(f"#tabbtn-{tab}")
        page.locator(f"#tab-{tab}").wait_for()
        words = latin_words(page.inner_text(f"#tab-{tab}"))
        if words:
            found[tab] = words
    page.click("#tabbtn-said")
    return found


def test_each_game_is_drawn_as_a_table(browser, tmp_path):
    table = WebTable(tmp_path / "t", language="ja")
    shots = DOCS if os.environ.get("KIKIMIMI_WEB_SCREENSHOTS") else tmp_path
    try:
        page = logged_in(browser, table, "tablet-portrait")
        tabs_english: dict[str, dict[str, list[str]]] = {}  # every tab of every game, at its end
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
            tabs_english[info.id] = english_in_tabs(page)
        assert page.errors == []
        english = {game: {tab: words for tab, words in found.items() if tab not in NOT_YET}
                   for game, found in tabs_english.items()}
        assert {game: found for game, found in english.items() if found} == {}
        if any(tab in found for found in tabs_english.values() for tab in NOT_YET):
            pytest.xfail(f"English left in {sorted(NOT_YET)} on a Japanese table: {tabs_english}")
    finally:
        assert table.stop() == 0
