"""One owner of the hardware (issue 15, item 7): the console attaches to the table another process runs.

A real `kikimimi play` process on the simulated table, and the Priest's console attached to it through
its control socket (`<journal>.sock`): the console's actions land in that table's journal, the console
shows what the table does (a second console's actions included), a second `play` refuses, and
`kikimimi console` picks the running table over opening its own.
"""

from __future__ import annotations

import asyncio
import subprocess

from console_helpers import SIZE, TableProcess, kikimimi, shown, until

from kikimimi.app import cli
from kikimimi.console import link as link_module
from kikimimi.console.app import ConsoleApp
from kikimimi.console.link import RemoteLink
from kikimimi.games.base import Scan
from kikimimi.table.live import LiveTable, hold_table


def test_an_attached_console_acts_on_the_running_table_and_sees_what_it_does(tmp_path):
    table = TableProcess(tmp_path / "t").wait_ready()
    try:
        # A second `play` on the same journal, while the console works (checked below): it must refuse.
        second = subprocess.Popen(kikimimi("play", "--config", str(table.config), "--text-only"), env=table.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        link = RemoteLink.attach(table.socket)
        other = RemoteLink.attach(table.socket)  # a second console, at the same time
        app = ConsoleApp(link)

        async def script(app, pilot):
            assert app.sim_readers == ["field", "hand:1", "hand:2", "hand:3"]  # the table's, not a config's
            # The console's virtual table taps the table's own simulated reader: hub, deck, loop, journal.
            await pilot.press("v")
            typed = app.query_one("#vt-piece")
            typed.value = "1 heart-1"
            await pilot.press("enter")
            await until(pilot, lambda: table.events() == [{"scan": "hand:1", "piece": "heart-1"}],
                        "the tap in the table's journal")
            await until(pilot, lambda: app.view.events == 1, "the step back on the console")
            # What another console does reaches this one too.
            other.submit(Scan("hand:2", "diamond-1"))
            await until(pilot, lambda: app.view.events == 2, "the other console's tap")
            await until(pilot, lambda: "  2 (private line)" in shown(app, "#said-hand-2"), "the line it said")
            assert "diamond-1" not in shown(app, "#state")  # hands stay hidden on an attached console too
            app.screen.set_focus(None)
            await pilot.press("h")  # shown only once the Priest confirms (the players may see the screen)
            assert "Show every hand" in shown(app.screen, "#question")
            await pilot.press("y")
            await until(pilot, lambda: "diamond-1" in shown(app, "#state"), "the hands shown")
            await pilot.press("h")
            await until(pilot, lambda: "diamond-1" not in shown(app, "#state"), "the hands hidden again")
            # A referee action with its confirmation: undo, journaled by the table.
            await pilot.press("u")
            assert "Undo the last event: a piece on hand 2?" in shown(app.screen, "#question")
            await pilot.press("y")
            await until(pilot, lambda: table.events()[-1] == {"referee": "undo", "at": 2}, "the undo in the journal")
            await until(pilot, lambda: app.view.events == 1, "the undone state on the console")
            _, refused = second.communicate(timeout=30)
            assert second.returncode == 2 and "Traceback" not in refused
            assert f"the table is already running (pid {table.pid}, started at " in refused
            assert table.events()[-1] == {"referee": "undo", "at": 2}  # it took nothing over
            # The table stops: the console says so and ends; the journal keeps the game.
            assert table.stop() == 0
            await until(pilot, lambda: not app.is_running, "the console to end with the table")

        async def main() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await script(app, pilot)

        asyncio.run(main())
        assert app.return_code == 1
        assert other.view().events == 1  # the other console followed every step, then lost the table too
        other.close()
    finally:
        table.stop()
    assert table.events() == [{"scan": "hand:1", "piece": "heart-1"}, {"scan": "hand:2", "piece": "diamond-1"},
                              {"referee": "undo", "at": 2}]
    assert "Traceback" not in table.stderr()


def test_kikimimi_console_attaches_when_a_table_runs_else_runs_its_own(tmp_path, monkeypatch):
    """Which table `kikimimi console` takes; the screen itself is the test above's (run_console is replaced
    here by a recorder: a terminal UI cannot run in a test's subprocess)."""
    import kikimimi.console.app as console_app

    table = TableProcess(tmp_path / "t").wait_ready()
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    given = []

    def record(target, **options):
        given.append((type(target), target.facts.pid if isinstance(target, RemoteLink) else None,
                      target.loop.status.game_id if isinstance(target, LiveTable) else None))
        return 0

    monkeypatch.setattr(console_app, "run_console", record)
    try:
        assert cli.main(["console", "--config", str(table.config)]) == 0
        assert given == [(RemoteLink, table.pid, None)]  # attached to the running table
    finally:
        assert table.stop() == 0
    assert cli.main(["console", "--config", str(table.config)]) == 0
    assert given[1][0] is LiveTable and given[1][2] is not None  # none runs: the console runs the table itself

    # The lock held by a tool that serves no console (bring-up): said in one line, no waiting for ever.
    monkeypatch.setattr(link_module, "ATTACH_WITHIN", 0.2)
    lock = hold_table(table.journal, "kikimimi bringup")
    try:
        assert cli.main(["console", "--config", str(table.config)]) == 2
    finally:
        lock.release()
