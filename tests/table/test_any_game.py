"""One table, any game: the live loop starts any registered game, plays it to its end through the
simulated readers with the game's own deck and phrases, refuses what the table cannot play, resumes it
after a stop, and keeps a game's turn clock."""

from __future__ import annotations

import threading
import time

import pytest
from table_helpers import write_config

from kikimimi.games.registry import DEFAULT_GAME, games
from kikimimi.table.clock import TurnClock
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper
from kikimimi.table.journal import Journal
from kikimimi.table.live import open_table

OTHER = [info for info in games() if info.id != DEFAULT_GAME and info.seat_count() <= 3]
BIG = [info for info in games() if info.seat_key is not None]


def _other():
    if not OTHER:
        pytest.skip("no registered game besides the default one fits a three-seat table")
    return OTHER[0]


def _play_to_the_end(table, seed: int = 3, limit: int = 3000) -> None:
    loop = table.loop
    bots = loop.info.new_bots(seed, loop.session.setup)
    tapper = SimTapper(loop, table.hub)
    for _ in range(limit):
        if loop.game.is_over(loop.state):
            return
        event = bots.next_event(loop.state)
        assert event is not None, "the bots stopped before the end"
        tapper.perform(event)
    pytest.fail(f"{loop.info.id}: no end after {limit} taps")


def test_the_priest_starts_another_game_and_the_table_plays_it_to_its_end(tmp_path):
    info = _other()
    config = load_config(write_config(tmp_path))
    table = open_table(config, transcript_only=True)
    lines: list[str] = []
    try:
        setup = table.loop.new_game({"game": info.id})
        assert setup["game"] == info.id
        assert table.loop.wait_processed(1)
        assert table.loop.info is info and table.loop.deck.game == info.id
        _play_to_the_end(table)
        table.voice.wait_idle(timeout=10)
        lines = [line.text for _, line in table.voice.transcript.lines]
    finally:
        table.close()
    records = Journal(config.journal).games()
    assert [r.game for r in records] == [DEFAULT_GAME, info.id]
    assert records[0].outcome is None and records[0].ended_at  # the first game was left, kept as abandoned
    assert records[1].outcome is not None and records[1].outcome["ranking"]
    assert not [text for text in lines if text.startswith("[")], "a phrase missing from the game's catalog"


def test_a_game_the_table_cannot_seat_is_refused_with_the_reason(tmp_path):
    if not BIG:
        pytest.skip("no registered game takes a seat count (e.g. 6 nimmt!'s players)")
    info = BIG[0]
    table = open_table(load_config(write_config(tmp_path)), transcript_only=True)
    try:
        with pytest.raises(ValueError, match=r"needs readers for \['hand:4'"):
            table.loop.new_game({"game": info.id, info.seat_key: 4})
        with pytest.raises(ValueError, match="unknown game"):
            table.loop.new_game({"game": "chess"})
        with pytest.raises(ValueError, match="no_such_key"):
            table.loop.new_game({"no_such_key": 1})
        assert table.loop.info.id == DEFAULT_GAME  # nothing changed
    finally:
        table.close()


def test_a_stopped_table_resumes_the_other_game_where_it_was(tmp_path):
    info = _other()
    config = load_config(write_config(tmp_path))
    table = open_table(config, transcript_only=True)
    try:
        table.loop.new_game({"game": info.id})
        table.loop.wait_processed(1)
        bots = info.new_bots(5, table.loop.session.setup)
        tapper = SimTapper(table.loop, table.hub)
        for _ in range(12):
            event = bots.next_event(table.loop.state)
            if event is None or table.loop.game.is_over(table.loop.state):
                break
            tapper.perform(event)
        before = table.loop.report()
    finally:
        table.close()
    again = open_table(config, transcript_only=True)
    try:
        assert again.loop.status.resumed and again.loop.info is info
        assert again.loop.report() == before
    finally:
        again.close()


def test_the_turn_clock_warns_then_times_out_and_restarts_when_the_seat_changes():
    heard: list[tuple[str, int, int]] = []
    done = threading.Event()

    def notify(kind: str, seat: int, token: int) -> None:
        heard.append((kind, seat, token))
        if kind == "timeout":
            done.set()

    clock = TurnClock(notify, warning_seconds=1)
    clock.follow((2, 1))  # no time for a warning: only the timeout
    clock.follow((2, 1))  # the same demand keeps the running timer
    assert done.wait(3)
    assert [k for k, _, _ in heard] == ["timeout"] and clock.current(heard[0][2])
    heard.clear()
    done.clear()
    clock.follow((1, 2))  # another seat: a new timer, with a warning 1 s before
    started = time.monotonic()
    assert done.wait(4)
    assert [(k, s) for k, s, _ in heard] == [("warning", 1), ("timeout", 1)]
    assert time.monotonic() - started >= 1.9
    stale = heard[-1][2]
    clock.follow(None)  # the game waits for nobody: stale callbacks are dropped by the loop
    assert not clock.current(stale)
    clock.stop()
