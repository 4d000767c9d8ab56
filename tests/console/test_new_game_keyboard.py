"""The new-game dialog by keyboard alone, with defaults that fit the table (issue 21, point 17)."""

from __future__ import annotations

import re

from console_helpers import drive, screen_text, settle


def test_a_new_game_of_6_nimmt_by_keyboard_alone_on_a_three_seat_table(table):
    seen: dict[str, object] = {}

    async def script(app, pilot):
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        seen["focus"] = dialog.focused.id
        await pilot.press("enter")  # on the list: chooses the highlighted game, starts nothing
        await pilot.pause()
        seen["still open"] = app.screen is dialog
        await pilot.press("down", "down", "space")  # Space chooses too: Numeron
        await pilot.pause()
        seen["by space"] = dialog.game
        await pilot.press("up", "enter")  # back one: 6 nimmt!
        await pilot.pause()
        await pilot.pause()
        seen["game"] = dialog.game
        seen["screen"] = screen_text(app)
        n = table.loop.processed
        while dialog.focused is not dialog.query_one("#start"):
            await pilot.press("tab")
        await pilot.press("enter")
        await settle(pilot, table, n + 1)
        seen["closed"] = app.screen is not dialog

    drive(table, script)
    assert seen["focus"] == "game" and seen["still open"], seen
    assert seen["by space"] == "numeron" and seen["game"] == "nimmt", seen
    # each value on its label's line; the seat count is this table's three, not the game's default four
    assert re.search(r"players[ \xa0]*3\W", str(seen["screen"])), seen["screen"]
    assert seen["closed"] and table.loop.info.id == "nimmt"
    assert table.loop.session.setup["players"] == 3
