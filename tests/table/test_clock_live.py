"""The turn clock on the live table (Numeron's `turn_seconds`): the table, not the rules, keeps the time;
a timeout is a journaled event, so a restarted table resumes the same game with the clock running for
the same seat; bots play a whole game with the clock on."""

from __future__ import annotations

import pytest
from table_helpers import write_config
from waiting import wait_until

from kikimimi.games.registry import game_ids
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper
from kikimimi.table.journal import Journal
from kikimimi.table.live import open_table

pytestmark = pytest.mark.skipif("numeron" not in game_ids(), reason="Numeron (the game with a turn clock) "
                                "is not registered")


def numeron_config(tmp_path, seconds: int = 1):
    return load_config(write_config(tmp_path), {"game": "numeron", "deck": "numeron-sim.toml",
                                                "turn_seconds": seconds})


def set_numbers(table) -> None:
    """Bots tap their numbers until the game is in play (no clock while numbers are set)."""
    bots = table.loop.info.new_bots(1, table.loop.session.setup)
    tapper = SimTapper(table.loop, table.hub)
    while table.loop.report()["phase"] == "set":
        tapper.perform(bots.next_event(table.loop.state))


def test_a_seat_that_does_not_move_loses_its_turn_and_the_timeout_is_journaled(tmp_path):
    config = numeron_config(tmp_path)
    table = open_table(config, transcript_only=True)
    try:
        assert table.loop.clock.remaining() is None  # setting numbers: the table waits for nobody in particular
        set_numbers(table)
        first = table.loop.report()["turn"]
        assert table.loop.clock.remaining()[0] == first
        wait_until(lambda: table.loop.report()["turn"] not in (None, first), 4, "the turn to move on", every=0.05)
        game_id = table.loop.status.game_id
    finally:
        table.close()
    events = [e for e in Journal(config.journal).events(game_id)]
    assert any(getattr(e, "action", None) == "timeout" for e in events)


def test_a_restarted_table_resumes_the_game_with_the_clock_on_the_same_seat(tmp_path):
    config = numeron_config(tmp_path, seconds=30)
    table = open_table(config, transcript_only=True)
    try:
        set_numbers(table)
        before = table.loop.report()
        awaited = table.loop.clock.remaining()[0]
    finally:
        table.close()
    again = open_table(config, transcript_only=True)
    try:
        assert again.loop.status.resumed and again.loop.report() == before
        seat, left = again.loop.clock.remaining()
        assert seat == awaited and 25 < left <= 30
    finally:
        again.close()


def test_two_bots_play_a_whole_game_with_the_clock_on(tmp_path):
    table = open_table(numeron_config(tmp_path, seconds=20), transcript_only=True)
    try:
        bots = table.loop.info.new_bots(4, table.loop.session.setup)
        tapper = SimTapper(table.loop, table.hub)
        for _ in range(400):
            if table.loop.game.is_over(table.loop.state):
                break
            tapper.perform(bots.next_event(table.loop.state))
        assert table.loop.report()["phase"] == "over"
        assert table.loop.clock.remaining() is None  # the game is over: the clock stopped
    finally:
        table.close()


def test_practice_the_table_draws_its_number_once_and_keeps_it_in_the_journal(tmp_path):
    config = load_config(write_config(tmp_path), {"game": "numeron", "deck": "numeron-sim.toml",
                                                  "practice": True, "turn_seconds": 0})
    table = open_table(config, transcript_only=True)
    try:
        secret = table.loop.session.setup.get("secret")
        assert isinstance(secret, str) and len(secret) == table.loop.session.setup["digits"]
        said = [line.text for _, line in table.voice.transcript.lines]
        assert not any(secret in text for text in said)  # never spoken before the end
    finally:
        table.close()
    (record,) = Journal(config.journal).games()
    assert record.setup["secret"] == secret  # replay and resume need no randomness
    again = open_table(config, transcript_only=True)
    try:
        assert again.loop.status.resumed and again.loop.session.setup["secret"] == secret
    finally:
        again.close()
