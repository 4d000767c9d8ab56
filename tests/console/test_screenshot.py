"""The console in a known position, kept as docs/console-*.svg (shown by docs/console.md) and compared.

The comparison is of what a person sees: the characters of every screen line, read from the SVG
(Textual's styling ids and colours may change between Textual releases; the text must not).
Regenerate after an intended change with: KIKIMIMI_UPDATE_SCREENSHOT=1 .venv/bin/pytest tests/console
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

from console_helpers import drive, known_position, settle, submit_all
from waiting import wait_until

DOCS = Path(__file__).parents[2] / "docs"
_TEXT = re.compile(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>([^<]*)</text>')
CELL = 12.2  # Textual's SVG cell width in px


def screen_lines(svg: str) -> list[str]:
    """Each screen row's characters, left to right, gaps kept (rows by their y, columns by their x)."""
    rows: dict[float, list[tuple[int, str]]] = {}
    for x, y, _length, text in _TEXT.findall(svg):
        rows.setdefault(float(y), []).append((round(float(x) / CELL), html.unescape(text).replace("\xa0", " ")))
    lines = []
    for _, cells in sorted(rows.items()):
        line = ""
        for column, text in sorted(cells):
            line = line.ljust(column) + text if len(line) < column else line + text
        lines.append(line.rstrip())
    return lines


def _compare(name: str, svg: str, tmp_path: Path) -> None:
    kept = DOCS / name
    if os.environ.get("KIKIMIMI_UPDATE_SCREENSHOT") or not kept.exists():
        kept.write_text(svg, encoding="utf-8")
        assert os.environ.get("KIKIMIMI_UPDATE_SCREENSHOT"), f"{kept} was missing and has been written; run again"
    fresh = tmp_path / name
    fresh.write_text(svg, encoding="utf-8")
    assert screen_lines(svg) == screen_lines(kept.read_text(encoding="utf-8")), (
        f"the screen changed: compare {fresh} with {kept}; if intended, "
        "regenerate with KIKIMIMI_UPDATE_SCREENSHOT=1"
    )


def test_main_screen_matches_the_kept_screenshot(table, tmp_path):
    """The main screen, the virtual table and the new-game dialog: docs/console.md shows these files."""
    shots: dict[str, str] = {}

    async def script(app, pilot):
        submit_all(table, known_position())
        # This table has no voice pack: the Priest is told at start (the check runs on its own thread, so it
        # is waited for, to keep the alerts in one order).
        wait_until(lambda: any(a.key == "voice.pack_incomplete" for _, a in table.loop.status.alerts), 5, "the alert")
        n = table.loop.processed
        table.hub.simulated("field").tap_and_remove("deadbeef")  # an unknown tag: one alert
        assert table.loop.wait_processed(n + 1)
        wait_until(lambda: all(h.status == "ok" for h in table.hub.health().values()), 5, "every reader ok")
        await settle(pilot, table)
        app.refresh_health()
        await settle(pilot, table)
        shots["console-main.svg"] = app.export_screenshot(title="kikimimi console")
        await pilot.press("v")
        await settle(pilot, table)
        shots["console-virtual.svg"] = app.export_screenshot(title="kikimimi console: the virtual table")
        await pilot.press("escape", "w", "n")
        await settle(pilot, table)
        shots["console-new-game.svg"] = app.export_screenshot(title="kikimimi console: a new game")
        await pilot.press("escape")

    drive(table, script, records_path=tmp_path / "no-records.sqlite", clock=lambda t: "20:15:00")
    for name, svg in shots.items():
        _compare(name, svg, tmp_path)


def test_screen_lines_reads_rows_in_order():
    svg = ('<text class="t-r1" x="36.6" y="44.4" textLength="12.2">b</text>'
           '<text class="t-r2" x="0" y="44.4" textLength="12.2">a</text>'
           '<text class="t-r1" x="12.2" y="20" textLength="36.6">top</text>')
    assert screen_lines(svg) == [" top", "a  b"]
