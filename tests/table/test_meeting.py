"""A half trial played on the live (simulated) table: five competition games, each recorded as it ends."""

from __future__ import annotations

import threading

from waiting import wait_until

from kikimimi.games.trident.bots import BotTable
from kikimimi.records import RecordStore
from kikimimi.records.meeting import run_meeting
from kikimimi.records.ontable import report_phrases, table_games
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper
from kikimimi.table.live import open_table


def test_a_half_trial_on_the_table_records_every_game(sim_config, tmp_path):
    table = open_table(load_config(sim_config))
    report: dict = {}

    def meeting() -> None:  # the record store lives on the thread that made it (sqlite3's rule)
        store = RecordStore(tmp_path / "records.sqlite")
        report["meeting"] = run_meeting(store, "half", ["Ann", "Bea", "Cid"], table_games(table, timeout=60),
                                        add_unknown=True)
        report["games"] = store.games.in_meeting(report["meeting"].meeting_id)
        report["ann"] = store.ladder.status("Ann")

    runner = threading.Thread(target=meeting)
    runner.start()
    tapper = SimTapper(table.loop, table.hub)
    played: list[str] = []
    try:
        for seed in range(5):
            wait_until(lambda: not (table.loop.journaled_events or table.loop.state.rules != "competition")
                       or not runner.is_alive(), 10, "the next game to start")
            played.append(table.loop.status.game_id)
            bots = BotTable(seed)
            while (event := bots.next_event(table.loop.state)) is not None:
                tapper.perform(event)
        runner.join(timeout=30)
        for say in report_phrases(report["meeting"]):  # what `kikimimi meeting start` says at the end
            table.voice.say(say)
        table.voice.wait_idle(5)
        said = [(output, line) for output, line in table.voice.transcript.lines if line.key.startswith("meeting.")]
    finally:
        table.close()
    assert not runner.is_alive()
    assert len(report["games"]) == 5 and len(set(played)) == 5
    assert report["ann"].wins + report["ann"].crashes >= 0  # the player exists, with derived figures
    assert [g.journal_game_id for g in report["games"]] == played
    assert {output for output, _ in said} == {"speaker"}
    keys = [line.key for _, line in said]
    assert keys[0] == "meeting.over" and keys.count("meeting.standing") == 3
    assert keys.count("meeting.registered") == 3  # first official meeting: all three become Apprentices
    assert all("[" not in line.text for _, line in said)
    assert "Ann is registered as Apprentice." in [line.text for _, line in said]


def test_a_meeting_resumed_after_the_table_stopped_mid_game_plays_that_game_on(sim_config, tmp_path):
    """`kikimimi meeting resume` after a stop mid-game: the game the journal resumed is the meeting's
    next game, played on to its end, not abandoned for a new one (its events so far would be lost)."""
    from kikimimi.records.ontable import meeting_setup

    config = load_config(sim_config)
    table = open_table(config)
    try:
        count = table.loop.processed
        table.loop.new_game(meeting_setup("trident"))
        table.loop.wait_processed(count + 1)
        bots, tapper = BotTable(7), SimTapper(table.loop, table.hub)
        for _ in range(12):  # part of a game, then the table stops (power, crash, service restart)
            tapper.perform(bots.next_event(table.loop.state))
        under_way, played = table.loop.status.game_id, table.loop.journaled_events
    finally:
        table.close()
    assert played >= 12

    table = open_table(config)
    result: dict = {}
    try:
        assert table.loop.status.game_id == under_way and table.loop.status.resumed
        play_one_game = table_games(table, timeout=60, continue_under_way=True)
        runner = threading.Thread(target=lambda: result.update(played=play_one_game({1: "Ann", 2: "Bea", 3: "Cid"})))
        runner.start()
        tapper = SimTapper(table.loop, table.hub)
        while runner.is_alive() and (event := bots.next_event(table.loop.state)) is not None:
            tapper.perform(event)
        runner.join(timeout=30)
        total = table.loop.journaled_events
    finally:
        table.close()
    outcome, journal_game = result["played"]
    assert journal_game == under_way  # the resumed game, not a new one
    assert total > played and outcome.ranking
