"""The console's virtual table and repeat on a live simulated table: taps through the simulated readers by
clicks and by keyboard alone, and the repeat of the last public announcement (never a private one).
"""

from __future__ import annotations

from console_helpers import (
    DEAL,
    deal_events,
    drive,
    journaled,
    settle,
    shown,
    submit_all,
)
from waiting import wait_until

from kikimimi.games.base import Scan
from kikimimi.table.messages import Announcement


def test_repeat_the_last_public_announcement_through_the_loop(table):
    """The repeat is the loop's announcement: the voice is called on the loop's thread, never the UI's."""
    import threading

    before: dict[str, list[str]] = {}
    callers: list[str] = []
    steps: list = []
    say = table.voice.say

    def watched(effect):
        callers.append(threading.current_thread().name)
        say(effect)

    table.voice.say = watched
    table.loop.listeners.append(steps.append)

    def said(output: str) -> list[str]:
        return [text for out, text in table.heard if out == output]

    async def script(app, pilot):
        await pilot.press("r")
        await settle(pilot, table)
        assert app.messages[-1] == "Nothing public has been said yet."
        submit_all(table, [*deal_events(), Scan("field", "heart-3")])
        wait_until(lambda: "Heart seat 1." in said("speaker"), 5, "the tap said on the speaker")
        before.update({out: said(out) for out in ("speaker", "hand:1", "hand:2", "hand:3")})
        await settle(pilot, table)
        n = table.loop.processed
        await pilot.press("r")
        await settle(pilot, table, n + 1)
        assert "(repeated)" in shown(app, "#said-speaker")

    drive(table, script)
    last = before["speaker"][-1:]  # the start piece's announcement: one phrase, the piece and the seat to move
    wait_until(lambda: said("speaker") == before["speaker"] + last, 5, "the last lines said again")
    assert all(said(out) == before[out] for out in ("hand:1", "hand:2", "hand:3"))  # nothing private repeated
    assert len(table.loop.session.events) == 16  # a repeat is not an event
    repeat = steps[-1]  # the loop's own step, as its type: an announcement of what the speaker said last
    assert isinstance(repeat.event, Announcement) and not repeat.journaled
    assert list(repeat.event.says) == repeat.effects and len(repeat.effects) == len(last)
    assert set(callers) == {"table-loop"}


def test_virtual_table_taps_through_the_simulated_readers(table):
    async def script(app, pilot):
        await pilot.press("v")
        await pilot.click("#vt-reader-hand-1")
        await pilot.pause()
        assert app.query_one("#vt").reader == "hand:1"
        for piece in DEAL[1][:2]:  # clicks (each click is slow under Pilot: the rest is typed below)
            n = table.loop.processed
            await pilot.click(f"#tap-{piece}")
            assert table.loop.wait_processed(n + 1)
        for piece in DEAL[1][2:]:
            n = table.loop.processed
            await enter(app, pilot, piece)
            assert table.loop.wait_processed(n + 1)
        await pilot.click("#vt-reader-hand-2")
        await pilot.pause()
        assert app.query_one("#vt").reader == "hand:2"
        for seat in (2, 3):
            for piece in DEAL[seat]:
                n = table.loop.processed
                await enter(app, pilot, piece if seat == 2 else f"{seat} {piece}")
                assert table.loop.wait_processed(n + 1)
        await pilot.click("#vt-reader-field")
        await pilot.pause()
        n = table.loop.processed
        await enter(app, pilot, "heart-3")
        await settle(pilot, table, n + 1)
        await pilot.click("#vt-reader-hand-1")
        await pilot.pause()
        await pilot.click("#vt-basket")  # seat 1 draws a random basket piece
        await settle(pilot, table, n + 2)
        await pilot.click("#tap-ctl-pass")
        await settle(pilot, table, n + 3)

    drive(table, script)
    report = table.loop.report()
    assert [report["hands"][s] for s in "23"] == [sorted(DEAL[2]), sorted(DEAL[3])]
    assert report["phase"] == "turn" and report["turn"] == 2 and report["field"] == ["heart-3"]
    assert len(report["hands"]["1"]) == 6
    assert table.hub.health()["hand:1"].taps == 7  # five dealt, one drawn, one pass: as hardware taps
    assert journaled(table)[-1] == Scan("hand:1", "ctl-pass")


async def enter(app, pilot, text: str) -> None:
    """Type into the virtual table's input (set at once: Pilot's key presses are slow) and press Enter."""
    field = app.query_one("#vt-piece")
    field.focus()
    field.value = text
    await pilot.press("enter")


def test_virtual_table_by_keyboard_alone(table):
    async def script(app, pilot):
        await pilot.press("v")  # the input has the keys now
        n = table.loop.processed
        await pilot.press(*"1 basket", "enter")  # typed key by key once
        assert table.loop.wait_processed(n + 1)
        for seat in (1, 2, 3):
            for _ in range(5 if seat > 1 else 4):
                n = table.loop.processed
                await enter(app, pilot, f"{seat} basket")
                assert table.loop.wait_processed(n + 1)
        n = table.loop.processed
        await enter(app, pilot, "hand:9 heart-1")
        assert "no simulated reader 'hand:9'" in app.messages[-1]
        await enter(app, pilot, "f nonsense")
        assert "'nonsense' is not a piece or control id" in app.messages[-1]
        await pilot.press("escape", "h", "y")  # back to the console's keys: h reveals (asks first)
        await settle(pilot, table)
        assert app.reveal
        assert table.loop.processed == n

    drive(table, script)
    report = table.loop.report()
    assert [len(report["hands"][s]) for s in "123"] == [5, 5, 5] and report["phase"] == "start"
