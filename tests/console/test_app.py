"""The console driven by Textual's Pilot on a live simulated table: keys and clicks, then state and screen.

Every action must reach the table loop's queue and the journal; nothing private may be on the
screen until the Priest reveals the hands.
"""

from __future__ import annotations

from console_helpers import DEAL, deal_events, drive, known_position, screen_text, settle, shown, submit_all, wait_for

from kikimimi.games.base import Referee, Scan
from kikimimi.table.journal import Journal


def journaled(table) -> list:
    """The events of the current game as the journal holds them (read through its own connection)."""
    book = Journal(table.config.journal)
    try:
        return list(book.events(table.loop.status.game_id))
    finally:
        book.close()


def test_the_table_at_a_glance_and_hands_hidden_until_revealed(table):
    hand_pieces = [p for pieces in DEAL.values() for p in pieces if p != "heart-1"]

    async def script(app, pilot):
        submit_all(table, known_position())
        await settle(pilot, table)
        state = shown(app, "#state")
        assert "Phase turn" in state and "To move seat 3" in state and "required heart" in state
        assert "basket 37" in state  # 54 - 15 dealt - 1 drawn - 2 on the field
        assert "Seat 1  4 pieces" in state and "Seat 2  6 pieces" in state and "Seat 3  5 pieces" in state
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
        assert "a piece on hand:3" in screen_text(app)  # the question, without naming the piece
        await pilot.press("y")
        await settle(pilot, table, processed + 1)
        assert len(table.loop.session.events) == before - 1
        assert "Seat 3  4 pieces" in shown(app, "#state")

    drive(table, script)
    assert journaled(table)[-1] == Referee("undo")


def taps(events) -> list[tuple[str, str | None]]:
    """Taps as (reader, piece): a tap on a seat's behalf carries the deck's UID of that tag."""
    return [(e.reader, e.piece) if isinstance(e, Scan) else e for e in events]


def test_a_games_referee_action_and_taps_on_a_seats_behalf(table):
    """The Trident's penalty (p, asks a seat) comes from its GameInfo; its declare, pass and suit are
    taps of its controls on a seat's behalf (t, the seat, the control's number)."""
    submit_all(table, [*deal_events(), Scan("field", "heart-3")])
    controls = list(table.loop.info.controls)

    def key(control: str) -> str:
        return str(controls.index(control) + 1)

    async def script(app, pilot):
        n = table.loop.processed
        await pilot.press("p", "2")
        await settle(pilot, table, n + 1)
        assert table.loop.report()["owed"]["2"] == 2
        assert "Seat 2  5 pieces  owes 2" in shown(app, "#state")
        await pilot.press("t", "1", key("ctl-trident"))  # refused (5 pieces), but it is seat 1's tap
        await pilot.press("t", "3", key("ctl-pass"))
        await pilot.press("t", "1", key("ctl-heart"))
        await settle(pilot, table, n + 4)

    drive(table, script)
    events = journaled(table)[-4:]
    assert taps(events) == [Referee("penalty", {"seat": 2}), ("hand:1", "ctl-trident"), ("hand:3", "ctl-pass"),
                            ("hand:1", "ctl-heart")]
    deck, applied = table.loop.deck, table.loop.session.events[-3:]  # the seat's own control tag, as tapped
    assert applied[0].uid == deck.uids_of("ctl-trident")[0] and applied[1].uid == deck.uids_of("ctl-pass")[2]


def test_a_suit_chosen_on_a_seats_behalf(table):
    deal = [e for e in deal_events() if e.piece != "clover-4"] + [Scan("hand:1", "change-draw4")]
    submit_all(table, [*deal, Scan("field", "heart-3"), Scan("field", "change-draw4")])
    assert table.loop.report()["phase"] == "choose_suit"

    async def script(app, pilot):
        n = table.loop.processed
        await pilot.press("t", "1")
        app.screen.query_one("#tag-id").focus()  # or type the control's id
        app.screen.query_one("#tag-id").value = "ctl-spade"
        await pilot.press("enter")
        await settle(pilot, table, n + 1)
        assert table.loop.report()["required"] == "spade"
        assert "required spade" in shown(app, "#state")

    drive(table, script)
    assert taps(journaled(table)[-1:]) == [("hand:1", "ctl-spade")]


def test_move_a_piece_the_table_lost_track_of(table):
    submit_all(table, [*deal_events(), Scan("field", "heart-3")])

    async def script(app, pilot):
        n = table.loop.processed
        await pilot.press("m")
        await pilot.press(*"nonsense", "enter")
        assert "not a piece id" in screen_text(app)  # said in the dialog itself
        app.screen.query_one("#piece").value = ""
        await pilot.press(*"spade-7")
        await pilot.click("#to-hand-2")
        await pilot.pause()
        await pilot.click("#move")
        await settle(pilot, table, n + 1)
        assert "spade-7" in table.loop.report()["hands"]["2"]
        alerts = shown(app, "#alerts")
        assert "moved a piece to hand:2" in alerts and "spade-7" not in alerts

    drive(table, script)
    assert journaled(table)[-1] == Referee("move", {"piece": "spade-7", "to": "hand:2"})


def test_end_the_game_shows_the_ranking(table):
    submit_all(table, [*deal_events(), Scan("field", "heart-3"), Scan("field", "heart-1")])

    async def script(app, pilot):
        n = table.loop.processed
        await pilot.press("e", "y")
        await settle(pilot, table, n + 1)
        state = shown(app, "#state")
        assert "Phase game over" in state
        assert "1st seat 1 (4 pieces" in state and "ended by the Priest" in state

    drive(table, script)
    assert journaled(table)[-1] == Referee("end")


def test_a_games_referee_action_without_parameters_asks_first(table):
    submit_all(table, [*deal_events(), Scan("field", "heart-3")])
    [forgot] = [a for a in table.loop.info.referee_actions if a.action == "forgot"]

    async def script(app, pilot):
        n = table.loop.processed
        await pilot.press(forgot.key, "n")  # declined
        await settle(pilot, table)
        assert table.loop.processed == n
        await pilot.press(forgot.key, "y")
        await settle(pilot, table, n + 1)
        assert table.loop.report()["phase"] == "start"

    drive(table, script)
    assert journaled(table)[-1] == Referee("forgot")


def test_every_referee_action_of_the_game_is_in_the_game_menu(table):
    submit_all(table, [*deal_events(), Scan("field", "heart-3")])
    actions = table.loop.info.referee_actions

    async def script(app, pilot):
        await pilot.press("a")
        menu = screen_text(app)
        assert all(action.label in menu for action in actions)
        n = table.loop.processed
        index = [a.action for a in actions].index("penalty")
        await pilot.press(str(index + 1), "3")  # the penalty, then its seat
        await settle(pilot, table, n + 1)

    drive(table, script)
    assert journaled(table)[-1] == Referee("penalty", {"seat": 3})


async def start_by_keyboard(pilot, app) -> None:
    """Tab to Start (focus begins on the game list, where Enter chooses), then Enter."""
    while app.screen.focused is not app.screen.query_one("#start"):
        await pilot.press("tab")
    await pilot.press("enter")


def test_new_game_of_the_same_game_with_its_setup_keys(table):
    submit_all(table, deal_events())
    old_game = table.loop.status.game_id

    async def script(app, pilot):
        n = table.loop.processed
        await pilot.press("n")
        assert "The game in progress ends now" in screen_text(app)
        dialog = app.screen
        helps = [str(w.content) for w in dialog.query(".help")]
        assert helps == [key.describe() for key in table.loop.info.setup_keys]  # each key, its values, default
        await pilot.click("#key-first-1")  # the second choice: seat 2
        await pilot.click("#key-rules-1")  # competition
        await start_by_keyboard(pilot, app)
        await settle(pilot, table, n + 1)
        assert app.screen is not dialog
        report = table.loop.report()
        assert (report["first"], report["rules"], report["phase"]) == (2, "competition", "deal")
        assert "new game: The Trident (first 2, rules competition)" in shown(app, "#said-speaker")

    drive(table, script)
    assert table.loop.status.game_id != old_game
    book = Journal(table.config.journal)
    try:
        games = {g.id: g for g in book.games()}
    finally:
        book.close()
    assert games[old_game].ended_at is not None and games[old_game].outcome is None  # kept, abandoned


def test_new_game_the_table_cannot_play_says_why_and_changes_nothing(table):
    before = table.loop.status.game_id

    async def script(app, pilot):
        await pilot.press("n")
        dialog = app.screen
        asked = []

        def start(setup):
            asked.append(setup)
            raise ValueError("the table cannot play that")

        dialog.start = start
        await start_by_keyboard(pilot, app)
        await pilot.pause()
        assert app.screen is dialog and "the table cannot play that" in screen_text(app)
        assert asked[0]["game"] == table.loop.info.id
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not dialog

    drive(table, script)
    assert table.loop.status.game_id == before


def test_new_game_of_every_registered_game_from_the_console(table):
    """The Priest starts each registered game (Numeron too when it is registered): its panel, its keys,
    its pieces on the virtual table; a game this table cannot play is refused in the dialog with the
    loop's reason; a game with a seat count starts with the table's three seats."""
    from kikimimi.games.registry import games

    others = [info for info in games() if info.id != "trident"]
    started: list[str] = []

    async def start(app, pilot, info) -> bool:
        n = table.loop.processed
        await pilot.press("n")
        app.screen.query_one(f"#game-{info.id}").value = True  # as a click on it (Pilot's clicks are slow)
        await pilot.pause()
        await start_by_keyboard(pilot, app)  # a game with a seat count defaults to this table's three seats
        await pilot.pause()
        if app.screen.id != "_default":
            assert str(app.screen.query_one("#error").content)  # why, in the loop's words
            await pilot.press("escape")
            return False
        await settle(pilot, table, n + 1)
        return True

    async def script(app, pilot):
        for info in [*others, games()[0]]:
            if not await start(app, pilot, info):
                continue
            started.append(info.id)
            await settle(pilot, table)
            assert table.loop.info.id == info.id
            assert info.title("en") in app.query_one("#state-box").border_title
            assert f"new game: {info.title('en')}" in shown(app, "#said-speaker")
            assert "Phase" in shown(app, "#state") or shown(app, "#state")
            for action in info.referee_actions:
                assert action.key in app._game_keys or action.key in "hnutmearzovwgq"
            vt = app.query_one("#vt")
            assert vt.pieces == list(info.pieces) and vt.controls == list(info.controls)
            screen = screen_text(app)
            report = table.loop.report()
            hands = report.get("hands") or {}
            held = {p for pieces in hands.values() for p in pieces}
            assert not [p for p in held if p in screen.split()], "a hand's piece is on the screen"

    drive(table, script)
    assert started[-1] == "trident"
    if any(info.id == "numeron" for info in others) and playable(table, "numeron"):
        assert "numeron" in started


def playable(table, game: str) -> bool:
    """Whether this simulated table has what the game needs (its deck) to start it at all."""
    from kikimimi.table.config import TableConfigError

    try:
        table.config.deck_for(game)
    except TableConfigError:
        return False
    return True


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
        assert wait_for(lambda: "Seat 1, heart." in said("speaker"))
        before.update({out: said(out) for out in ("speaker", "hand:1", "hand:2", "hand:3")})
        await settle(pilot, table)
        n = table.loop.processed
        await pilot.press("r")
        await settle(pilot, table, n + 1)
        assert "(repeated)" in shown(app, "#said-speaker")

    drive(table, script)
    last = before["speaker"][-2:]  # the start piece's announcement is two phrases: the piece, then the kind
    assert wait_for(lambda: said("speaker") == before["speaker"] + last)
    assert all(said(out) == before[out] for out in ("hand:1", "hand:2", "hand:3"))  # nothing private repeated
    assert len(table.loop.session.events) == 16  # a repeat is not an event
    assert steps[-1].event == Referee("announce") and not steps[-1].journaled
    assert set(callers) == {"table-loop"}


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
        assert "(heart-1)" in shown(app, "#alerts")

    drive(table, script)


def test_meeting_standings_and_seats_from_the_records(table, tmp_path):
    from kikimimi.records.store import RecordStore

    path = tmp_path / "records.sqlite"
    with RecordStore(path) as store:
        store.start_meeting("half", ["Aoi", "Ben", "Chika"], add_unknown=True)

    async def script(app, pilot):
        state = shown(app, "#state")
        assert "Seat 1  0 pieces  Aoi (Apprentice)" in state or "Seat 1  0 pieces  Aoi (" in state
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
