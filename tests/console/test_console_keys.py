"""Every console key is in the footer, and every tab is reached by a key (issue 21, point 16)."""

from __future__ import annotations

from console_helpers import drive, screen_text
from textual.widgets import TabbedContent


def test_the_footer_shows_every_key_and_every_tab_is_reached_by_keyboard(table):
    seen: list[str] = []
    tabs: list[str] = []

    async def script(app, pilot):
        for _ in range(100):  # the footer draws its keys once the app has settled (later under load)
            text = screen_text(app)
            if " q quit" in " ".join(text.split()):
                break
            await pilot.pause(0.05)
        seen.append(text)
        tabs_widget = app.query_one("#tabs", TabbedContent)
        await pilot.press("v")
        tabs.append(tabs_widget.active)
        await pilot.press("escape", "w")  # out of the virtual table's input, then the said tab
        await pilot.pause()
        tabs.append(tabs_widget.active)
        await pilot.press("g")
        await pilot.pause()
        tabs.append(tabs_widget.active)
        await pilot.press("w")
        await pilot.pause()
        tabs.append(tabs_widget.active)

    drive(table, script)
    footer = [line for line in seen[0].splitlines() if " q quit" in " ".join(line.split())]
    assert footer, seen[0]
    for key, label in (("v", "virtual"), ("g", "meeting"), ("a", "game"), ("w", "said")):
        assert f" {key} {label} " in " ".join(footer[0].split()) + " ", footer
    assert tabs == ["virtual", "said", "meeting", "said"]
