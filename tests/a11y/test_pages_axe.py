"""Accessible pages (issue 32, item 5): axe-core in Chromium finds no serious or critical WCAG A/AA
violation (contrast included) on the tablet console, in both languages, logged out and in, with each panel
and a dialog open, and on the venue's standings page; every control has an accessible name in both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from axe_helpers import axe_script, serious_violations
from chromium_helpers import CHROMIUM, chromium
from web_helpers import WebTable, new_page, tablet


@pytest.fixture(scope="module")
def browser() -> Any:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package")
    axe_script()  # skips when axe-core is not installed
    with chromium() as browser:
        yield browser


def unnamed_controls(page: Any) -> list[str]:
    """Visible buttons and fields without an accessible name (text, aria-label, a label)."""
    return page.evaluate("""() => [...document.querySelectorAll('button, input, select, [role=tab]')]
        .filter((e) => e.offsetParent !== null)
        .filter((e) => !(e.textContent.trim() || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                         || (e.id && document.querySelector(`label[for="${e.id}"]`))))
        .map((e) => e.outerHTML.slice(0, 80))""")


def test_the_tablet_console_in_both_languages(browser, tmp_path):
    table = WebTable(tmp_path / "t", language="ja")
    try:
        page = new_page(tablet(browser, "tablet-portrait"))
        page.goto(table.url + "/")
        page.wait_for_selector("#code", state="visible")
        found = serious_violations(page, "login ja")
        page.fill("#code", table.code)
        page.tap("#login-form button[type=submit]")
        page.wait_for_function("document.body.dataset.state === 'live'")
        for lang in ("ja", "en"):
            assert page.evaluate("document.documentElement.lang") == lang
            for tab in ("said", "alerts", "health", "virtual", "meeting"):
                page.tap(f"#tabs [data-tab={tab}]")
                found += serious_violations(page, f"{lang} {tab}")
                assert unnamed_controls(page) == [], (lang, tab)
            page.tap("#b-new")
            page.wait_for_selector("#dialog[open]")
            found += serious_violations(page, f"{lang} new game")
            assert unnamed_controls(page) == [], (lang, "new game")
            page.tap("#dialog-buttons button:not(.primary)")
            page.tap("#b-lang")  # the switch: the same screens in the other language
            page.wait_for_function(f"document.documentElement.lang === '{'en' if lang == 'ja' else 'ja'}'")
        assert found == []
        assert page.errors == []
    finally:
        assert table.stop() == 0


def test_the_venue_standings_page(browser):
    from test_page_browser import HostDouble, meeting_snapshot
    from venue_helpers import serve

    double = HostDouble(meeting_snapshot())
    found: list[str] = []
    with serve(double.app()) as base_url:
        for lang in ("en", "ja"):
            context = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
            page = context.new_page()
            page.goto(f"{base_url}/meetings/3?lang={lang}")
            page.wait_for_function("document.querySelectorAll('.table-card').length > 0")
            found += serious_violations(page, f"standings {lang}")
            context.close()
    assert found == []


def test_the_check_finds_a_page_that_fails(browser):
    """The check itself can fail: a nameless button and low contrast are found."""
    page = browser.new_context(bypass_csp=True).new_page()
    page.set_content('<html lang="en"><title>t</title><body><p style="color:#777;background:#888">faint</p>'
                     "<button></button></body></html>")
    found = " ".join(serious_violations(page))
    assert "color-contrast" in found and "button-name" in found
    page.context.close()
