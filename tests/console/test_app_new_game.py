"""The console's new-game dialog on a live simulated table: setup keys, a game the table cannot play, every
registered game; no hand's piece on the screen.
"""

from __future__ import annotations

from console_helpers import (
    deal_events,
    drive,
    screen_text,
    settle,
    shown,
    submit_all,
)

from kikimimi.table.journal import Journal


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
        assert "new game: The Trident (First player 2, Rules Competition)" in shown(app, "#said-speaker")

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
