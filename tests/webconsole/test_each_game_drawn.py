"""Each of the five games drawn on the tablet (issue 32, item 1), on a Japanese table: a new game from the
page's form, a few of its bots' taps made for the seats through the page's own action, and the table drawn
with the seats around it, the turn marked and no English on the screen but piece ids and reader names; then
the game ended from the page (its end drawn) and every tab opened: no English word in any tab (data the
page marks `translate="no"`, such as the records' file name, is shown as it is and not counted).

Regenerate the screenshots in docs/ with
    KIKIMIMI_WEB_SCREENSHOTS=1 .venv/bin/pytest tests/webconsole/test_each_game_drawn.py
(the regular run writes them to a temporary folder only).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from web_helpers import SIZES, WebTable, logged_in

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


TABS = ("said", "alerts", "health", "virtual", "meeting")


def latin_words(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z0-9:-]*", text) if not ALLOWED.match(w) and w not in IDS})


def english_words(page) -> list[str]:
    """Latin words visible in the table pane and header that are not ids (the drawn table, guide, header)."""
    text = page.inner_text("header") + "\n" + page.inner_text("#guide") + "\n" + page.inner_text("#table") \
        + "\n" + page.inner_text("#toolbar")
    return latin_words(text)


def shown_text(page, selector: str) -> str:
    """The text of `selector` less what the page marks as data not to translate (`translate="no"`)."""
    text = page.inner_text(selector)
    for data in page.locator(f'{selector} [translate="no"]').all_inner_texts():
        text = text.replace(data, " ")
    return text


def english_in_tabs(page) -> dict[str, list[str]]:
    """Each tab opened as the Priest opens it (a tap on its button), and the Latin words it shows."""
    found = {}
    for tab in TABS:
        page.click(f"#tabbtn-{tab}")
        page.locator(f"#tab-{tab}").wait_for()
        words = latin_words(shown_text(page, f"#tab-{tab}"))
        if words:
            found[tab] = words
    page.click("#tabbtn-said")
    return found


DIALOG_BUTTONS = ("b-new", "b-actions", "b-tapfor", "b-move", "b-undo", "b-reveal", "b-end")


def dialogs_shown(page, size: tuple[int, int]) -> dict[str, str]:
    """Each dialog the toolbar opens (the new-game form, the game's actions, a tap for a seat, a move, the
    undo, reveal and end questions), opened by a tap at `size` and closed unanswered (Escape): its text."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    texts = {}
    for button in DIALOG_BUTTONS:
        control = page.locator(f"#{button}")
        if not control.is_visible() or not control.is_enabled():
            continue
        control.click()
        page.wait_for_function("document.getElementById('dialog').open")
        texts[button] = shown_text(page, "#dialog")
        page.keyboard.press("Escape")
        page.wait_for_function("!document.getElementById('dialog').open")
    page.set_viewport_size({"width": SIZES["tablet-portrait"][0], "height": SIZES["tablet-portrait"][1]})
    return texts


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
            size = list(SIZES.values())[len(tabs_english) % len(SIZES)]
            shown = dialogs_shown(page, size)
            assert {"b-new", "b-tapfor", "b-move", "b-end"} <= set(shown) and all(shown.values()), (info.id, shown)
            for button, text in shown.items():
                assert latin_words(text) == [], (info.id, size, button, latin_words(text))
            seats_drawn = page.locator("#table .seat").count()
            assert seats_drawn == info.seat_count(session.setup), info.id
            assert english_words(page) == [], (info.id, english_words(page))
            page.screenshot(path=str(shots / f"console-table-{info.id}.png"))
            # The end (ranking or winner, final scores) is drawn on the table, in Japanese.
            events = int(page.evaluate("document.body.dataset.events"))
            assert page.evaluate(ACT % "{do: 'end'}", None).get("answer") == "done", info.id
            page.wait_for_function(f"Number(document.body.dataset.events) > {events}")
            page.locator("#table-result").wait_for()
            assert "番席" in page.inner_text("#table-result"), info.id
            assert english_words(page) == [], (info.id, "end", english_words(page))
            tabs_english[info.id] = english_in_tabs(page)
            for size in SIZES.values():  # the same screens at each size (a resize, not a new browser)
                page.set_viewport_size({"width": size[0], "height": size[1]})
                assert english_words(page) == [], (info.id, size, english_words(page))
            page.set_viewport_size({"width": SIZES["tablet-portrait"][0], "height": SIZES["tablet-portrait"][1]})
        assert page.errors == []
        assert {game: found for game, found in tabs_english.items() if found} == {}
    finally:
        assert table.stop() == 0


JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def test_no_japanese_on_an_english_tables_screens(browser, tmp_path):
    """An English table, each game started from the page and ended, at the three sizes: no Japanese in the
    page (the language switch, which names Japanese in Japanese, aside), in any tab, nor in any dialog of the
    toolbar (each game opens them at one of the three sizes in turn)."""
    table = WebTable(tmp_path / "t", language="en")
    try:
        page = logged_in(browser, table, "tablet-portrait")
        found: dict[str, list[str]] = {}
        found_games: list[str] = []
        for info in games():
            seats = min(info.seats[1], 3)
            setup = {"game": info.id, **({info.seat_key: seats} if info.seat_key else {})}
            assert page.evaluate(ACT % "{do: 'new_game', setup: body}", setup).get("answer") == "done"
            page.wait_for_function(f"document.body.dataset.game === '{info.id}'")
            size = list(SIZES.values())[len(found_games) % len(SIZES)]
            found_games.append(info.id)
            for button, text in dialogs_shown(page, size).items():
                if JAPANESE.search(text):
                    found[f"{info.id} {button} {size}"] = JAPANESE.findall(text)
            events = int(page.evaluate("document.body.dataset.events") or 0)
            assert page.evaluate(ACT % "{do: 'end'}", None).get("answer") == "done", info.id
            page.wait_for_function(f"Number(document.body.dataset.events) > {events}")
            for width, height in SIZES.values():
                page.set_viewport_size({"width": width, "height": height})
                text = page.inner_text("body").replace(page.inner_text("#b-lang"), "")  # the switch: 日本語
                found.update({f"{info.id} {width}x{height}": JAPANESE.findall(text)} if JAPANESE.search(text) else {})
            for tab in TABS:
                page.click(f"#tabbtn-{tab}")
                if JAPANESE.search(page.inner_text(f"#tab-{tab}")):
                    found[f"{info.id} {tab}"] = JAPANESE.findall(page.inner_text(f"#tab-{tab}"))
            page.click("#tabbtn-said")
        assert found == {}
        assert page.errors == []
    finally:
        assert table.stop() == 0
