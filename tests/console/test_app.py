"""The console driven by Textual's Pilot on a live simulated table: the state at a glance, undo, alerts, records,
output volumes, quitting, its questions and the game's guide. Every action must reach the table loop's queue and
the journal; nothing private may be on the screen until the Priest reveals the hands.

The console's other topics are in test_app_referee.py, test_app_new_game.py and test_app_virtual_table.py (one
file per topic, so that the workers of `./run test` share them).
"""

from __future__ import annotations

from console_helpers import (
    DEAL,
    deal_events,
    drive,
    journaled,
    known_position,
    screen_text,
    settle,
    shown,
    submit_all,
)

from kikimimi.games.base import Referee, Scan


def test_the_table_at_a_glance_and_hands_hidden_until_revealed(table):
    hand_pieces = [p for pieces in DEAL.values() for p in pieces if p != "heart-1"]

    async def script(app, pilot):
        submit_all(table, known_position())
        await settle(pilot, table)
        state = shown(app, "#state")
        assert "Phase a turn" in state and "to move Seat 3" in state and "Required suit: heart" in state
        assert "Basket: 37" in state  # 54 - 15 dealt - 1 drawn - 2 on the field
        assert "Seat 1  4 in hand" in state and "Seat 2  6 in hand" in state and "Seat 3  5 in hand" in state
        assert "Field heart-3 heart-1" in state
        screen = screen_text(app)
        assert not [p for p in hand_pieces if p in screen], "a hand's piece is on the screen"
        assert "(private line)" in screen
        assert "Spade" not in shown(app, "#said-hand-2")  # seat 2 heard its drawn spade, privately
        await pilot.press("h")
        await pilot.press("y")  # revealing asks first
        await settle(pilot, table)
        assert "spade-8" in shown(app, "#state") and "unknown-turn-left" in shown(app, "#state")
        assert "Spade" in shown(app, "#said-hand-2")
        await pilot.press("h")
        await settle(pilot, table)
        assert "spade-8" not in screen_text(app)

    drive(table, script)


def test_undo_asks_first_and_goes_through_the_journal(table):
    submit_all(table, deal_events())
    before = len(table.loop.session.events)

    async def script(app, pilot):
        await pilot.press("u")
        await pilot.press("n")  # declined: nothing happens
        await settle(pilot, table)
        assert len(table.loop.session.events) == before
        processed = table.loop.processed
        await pilot.press("u")
        assert "a piece on hand 3" in screen_text(app)  # the question, without naming the piece
        await pilot.press("y")
        await settle(pilot, table, processed + 1)
        assert len(table.loop.session.events) == before - 1
        assert "Seat 3  4 in hand" in shown(app, "#state")

    drive(table, script)
    assert journaled(table)[-1] == Referee("undo", {"at": before})  # the count the question named


def test_volume_and_mute_per_output(table):
    async def script(app, pilot):
        await pilot.press("o", "down", "minus", "minus", "m")
        await pilot.click("#up-speaker")
        await pilot.press("escape")
        await settle(pilot, table)
        health = shown(app, "#health")
        assert "hand:1  ok           MUTED" in health

    drive(table, script)
    assert round(table.voice.outputs["hand:1"].volume, 2) == 0.8
    assert table.voice.outputs["hand:1"].muted is True
    assert table.voice.outputs["speaker"].volume == 1.0 and table.voice.outputs["speaker"].muted is False


def test_alerts_for_unknown_tags_and_foreign_pieces(table):
    submit_all(table, [*deal_events(), Scan("field", "heart-3")])

    async def script(app, pilot):
        n = table.loop.processed
        table.hub.simulated("field").tap_and_remove("deadbeef")
        table.hub.simulated("hand:2").tap_and_remove(table.config.deck.uids_of("heart-1")[0])
        await settle(pilot, table, n + 2)
        alerts = shown(app, "#alerts")
        assert "unknown tag deadbeef on field" in alerts
        assert "a piece of seat 1 was tapped on seat 2's hand reader" in alerts
        assert "heart-1" not in screen_text(app)
        await pilot.press("h", "y")  # revealing asks first
        await settle(pilot, table)
        assert "heart-1 of seat 1" in shown(app, "#alerts")

    drive(table, script)


def test_meeting_standings_and_seats_from_the_records(table, tmp_path):
    from kikimimi.records.store import RecordStore

    path = tmp_path / "records.sqlite"
    with RecordStore(path) as store:
        store.meetings.start("half", ["Aoi", "Ben", "Chika"], add_unknown=True)

    async def script(app, pilot):
        state = shown(app, "#state")
        assert "Seat 1  0 in hand  Aoi (Apprentice)" in state or "Seat 1  0 in hand  Aoi (" in state
        assert "Chika" in state
        await pilot.press("g")
        await settle(pilot, table)
        assert "Chika" in screen_text(app) and "Meeting 1" in screen_text(app)

    drive(table, script, records_path=path)


def test_quit_asks_first(table):
    async def script(app, pilot):
        await pilot.press("q", "n")
        assert app.is_running
        await pilot.press("q", "y")
        await pilot.pause()

    app = drive(table, script)
    assert app.return_code == 0
    # the console let go of the loop: only the table's own control socket still listens
    assert table.loop.listeners == [table.control._on_step]


def test_seat_and_choice_questions_for_up_to_ten_seats():
    """A seat is answered by its number (0 for seat 10); a `name=a|b|c` parameter by its choice's number."""
    import asyncio

    from textual.app import App

    from kikimimi.console.dialogs import DIALOG_CSS, PickOne, PickSeat

    answers: list = []

    class Host(App):
        CSS = DIALOG_CSS

        async def on_mount(self) -> None:
            self.push_screen(PickSeat("Which seat?", 10), answers.append)

    async def main() -> None:
        app = Host()
        async with app.run_test() as pilot:
            await pilot.pause()
            assert "Seat 10 (0)" in screen_text(app)
            await pilot.press("0")
            app.push_screen(PickSeat("Which seat?", 4), answers.append)
            await pilot.pause()
            await pilot.press("5", "4")  # seat 5 does not exist: ignored
            app.push_screen(PickOne("Which reason?", [("late", "late"), ("wrong", "wrong")]), answers.append)
            await pilot.pause()
            await pilot.press("2")
            app.push_screen(PickSeat("Which seat?", 3), answers.append)
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()

    asyncio.run(main())
    assert answers == [10, 4, "wrong", None]


def test_a_games_own_guide_is_shown_when_its_info_names_one(table, monkeypatch):

    seen = []

    def game_guide(report, state):
        seen.append(state)
        return [f"Priest: phase {report['phase']}, give seat 1 five pieces."]

    monkeypatch.setattr(type(table.loop.info), "guide_function", lambda info: game_guide)

    async def script(app, pilot):
        assert shown(app, "#guide") == "Priest: phase deal, give seat 1 five pieces."

    drive(table, script)
    assert seen[-1] is table.loop.state
