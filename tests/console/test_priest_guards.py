"""The Priest's console guards (issue 15, item 14): revealing asks first, actions the game cannot take now
are shown disabled, a refused referee action is said to the Priest, dialogs show their keys."""

from __future__ import annotations

from console_helpers import deal_events, drive, screen_text, settle, shown, submit_all

from kikimimi.games.base import Referee


def test_reveal_asks_first_disabled_actions_and_refusals_told_to_the_priest(table):
    async def script(app, pilot):
        assert app.check_action("undo", ()) is None  # nothing to undo yet: shown disabled
        assert app.check_action("end", ()) is True
        await pilot.press("h")
        assert "y yes · n or Esc no" in screen_text(app)  # the dialog shows its keys
        await pilot.press("n")
        await settle(pilot, table)
        assert not app.reveal and "HANDS SHOWN" not in screen_text(app)
        processed = table.loop.processed
        table.loop.submit(Referee("forgot"))  # only during a turn: the game is in the deal
        await settle(pilot, table, processed + 1)
        assert any("refused “Everyone forgot”: only during a turn" in m for m in app.messages), list(app.messages)
        submit_all(table, deal_events())
        await settle(pilot, table)
        assert app.check_action("undo", ()) is True
        processed = table.loop.processed
        table.loop.submit(Referee("end"))
        await settle(pilot, table, processed + 1)
        assert app.check_action("end", ()) is None  # over: end is disabled
        await pilot.press("h")
        await pilot.press("y")
        await settle(pilot, table)
        assert app.reveal and "clover-1" in shown(app, "#state")

    drive(table, script)
