"""The journal never sticks: a game that ended before the stop is finished on resume, sequence numbers
come from the journal, an event that cannot be saved is not applied, a feed with a bad set-up line is
refused whole, and the files are private."""

from __future__ import annotations

import json
import stat

import pytest
from table_helpers import SCRIPTS, write_config

from kikimimi.games.base import Referee, Scan
from kikimimi.table.config import load_config
from kikimimi.table.feed import FeedError, SimTapper, feed_script
from kikimimi.table.journal import Journal, event_from_json
from kikimimi.table.live import open_table
from kikimimi.table.replay import replay


def test_a_game_whose_last_event_ended_it_is_finished_on_resume(tmp_path):
    # As if killed between the last event and the "game ended" write: the events are all there, no end.
    config = load_config(write_config(tmp_path))
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    expected = replay(lines, lang="en").report()["result"]
    journal = Journal(config.journal)
    game_id = journal.begin_game("trident", {"first": 1, "rules": "standard"})
    for seq, line in enumerate(lines[1:], start=1):
        journal.append(game_id, seq, event_from_json(json.loads(line)))
    journal.close()
    table = open_table(config, transcript_only=True)
    try:
        assert not table.loop.status.resumed and table.loop.status.game_id != game_id  # a fresh game
    finally:
        table.close()
    finished = Journal(config.journal).game(game_id)
    assert finished.ended_at is not None and finished.outcome["ranking"] == expected["ranking"]


def test_the_next_sequence_number_comes_from_the_journal_not_a_count(tmp_path):
    config = load_config(write_config(tmp_path))
    journal = Journal(config.journal)
    game_id = journal.begin_game("trident", {"first": 1, "rules": "standard"})
    journal.append(game_id, 1, Referee("undo"))
    journal.append(game_id, 3, Referee("undo"))  # a gap, as a failed write of event 2 once left
    journal.close()
    table = open_table(config, transcript_only=True)
    try:
        assert table.loop.status.resumed and table.loop.journaled_events == 3
        table.loop.submit(Referee("undo"))
        assert table.loop.wait_processed(1)
    finally:
        table.close()
    assert Journal(config.journal).last_seq(game_id) == 4


def test_an_event_that_cannot_be_saved_is_not_applied_and_the_tap_is_answered(tmp_path, mocker):
    # A full disk cannot be made on demand here, so the write fails through a mock (a fault injection).
    table = open_table(load_config(write_config(tmp_path)), transcript_only=True)
    try:
        tapper = SimTapper(table.loop, table.hub)
        before = table.loop.report()
        mocker.patch.object(table.journal, "append", side_effect=OSError(28, "No space left on device"))
        with pytest.raises(FeedError, match="not saved"):  # a fed script stops there
            tapper.perform(Scan("hand:1", "heart-1"))
        table.voice.wait_idle(timeout=5)
        assert table.loop.report() == before and table.loop.journaled_events == 0
        said = [(out, line.key) for out, line in table.voice.transcript.lines]
        assert ("hand:1", "table.not_saved") in said
        assert any(alert.key == "journal.failed" for _, alert in table.loop.status.alerts)
        mocker.stopall()
        tapper.perform(Scan("hand:1", "heart-1"))  # the journal works again: the tap counts
        assert table.loop.journaled_events == 1 and "heart-1" in table.loop.report()["hands"]["1"]
    finally:
        table.close()


def test_a_feed_whose_set_up_line_is_bad_is_refused_whole(tmp_path):
    table = open_table(load_config(write_config(tmp_path)), transcript_only=True)
    try:
        with pytest.raises(FeedError, match="line 1: bad set-up"):
            feed_script(SimTapper(table.loop, table.hub), ['{"game": "trident", "first": 7}',
                                                           '{"scan": "hand:1", "piece": "heart-1"}'])
        assert table.loop.journaled_events == 0
    finally:
        table.close()


def test_the_journal_file_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    Journal(path).close()  # an older, world-readable journal is made private when opened
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_refused_referee_action_is_told_to_the_priest_not_said_on_the_speaker(tmp_path):
    table = open_table(load_config(write_config(tmp_path)), transcript_only=True)
    try:
        table.loop.submit(Referee("forgot"))  # refused in the deal
        assert table.loop.wait_processed(1)
        table.voice.wait_idle(timeout=5)
        assert not [line for out, line in table.voice.transcript.lines if line.key == "referee.refused"]
        assert any(alert.key == "referee.refused" for _, alert in table.loop.status.alerts)
    finally:
        table.close()


def test_a_fed_game_stops_at_an_unsaved_step_and_resumes_by_what_was_saved(tmp_path, mocker):
    # A full disk cannot be made on demand here, so the 5th event's writes fail through a mock (a fault
    # injection); the disk then has room again, as when the Priest frees some.
    config = load_config(write_config(tmp_path))
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    expected = replay(lines, lang="en").report()["result"]
    table = open_table(config, transcript_only=True)
    try:
        real_append = table.journal.append

        def full_once(game_id, seq, event):
            if seq == 5:
                raise OSError(28, "No space left on device")
            return real_append(game_id, seq, event)

        mocker.patch.object(table.journal, "append", side_effect=full_once)
        with pytest.raises(FeedError, match=r"^line 6: not saved .*resumes after the saved events"):
            feed_script(SimTapper(table.loop, table.hub), lines)
        assert table.loop.journaled_events == 4  # nothing after the unsaved step was played
    finally:
        table.close()
    # A clock's timeout lies in the journal and not in the script: resuming by a count would skip a line.
    journal = Journal(config.journal)
    game_id = journal.unfinished().id
    journal.append(game_id, 5, Referee("timeout", {"seat": 9}))
    journal.close()
    table = open_table(config, transcript_only=True)
    try:
        assert table.loop.status.resumed
        saved = list(table.journal.events(game_id))
        feed_script(SimTapper(table.loop, table.hub), lines, saved=saved)
        assert table.loop.report()["result"] == expected
    finally:
        table.close()


def test_a_feed_that_differs_from_the_resumed_game_is_refused(tmp_path):
    config = load_config(write_config(tmp_path))
    journal = Journal(config.journal)
    game_id = journal.begin_game("trident", {"first": 1, "rules": "standard"})
    journal.append(game_id, 1, Scan("hand:1", "spade-9"))
    journal.close()
    table = open_table(config, transcript_only=True)
    try:
        saved = list(table.journal.events(game_id))
        lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
        with pytest.raises(FeedError, match="line 2: the journal's game went another way here"):
            feed_script(SimTapper(table.loop, table.hub), lines, saved=saved)
        assert table.loop.journaled_events == 1
    finally:
        table.close()
