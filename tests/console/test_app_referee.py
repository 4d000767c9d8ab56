"""The console's referee actions on a live simulated table: a game's own actions and menu, taps on a seat's behalf,
moving a lost piece, ending the game. Each reaches the loop's queue and the journal.
"""

from __future__ import annotations

from console_helpers import (
    deal_events,
    drive,
    journaled,
    screen_text,
    settle,
    shown,
    submit_all,
)

from kikimimi.games.base import Referee, Scan


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
        assert "Seat 2  5 in hand  owes 2" in shown(app, "#state")
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
        assert "Required suit: spade" in shown(app, "#state")

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
        assert "moved a piece to hand 2" in alerts and "spade-7" not in alerts

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
        assert "1. Seat 1: 4 pieces" in state and "Ended by the Priest" in state

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
