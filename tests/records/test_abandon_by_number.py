"""`meeting abandon` finds the meeting's game on the table by the journal's numbers, never by the clock: a Pi
without a real-time clock may be set back (fake-hwclock after a power cut) or forward (the network) between
the meeting's opening and its game. The clock is injected (the journal's `time.time` shifted): a real clock
set would move this machine's."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest

from kikimimi.records.ontable import abandon_on_table, meeting_setup
from kikimimi.records.store import RecordStore
from kikimimi.table import journal as journal_module
from kikimimi.table.journal import Journal

DAY = 86400.0


def _begin(path, monkeypatch, shift: float, setup: dict) -> str:
    """A game begun on the table while its clock was `shift` seconds off."""
    real = time.time
    with monkeypatch.context() as patch:
        patch.setattr(journal_module.time, "time", lambda: real() + shift)
        book = Journal(path)
        try:
            return book.begin_game("trident", setup)
        finally:
            book.close()


@pytest.mark.parametrize(("held_shift", "game_shift"), [(0.0, -DAY), (365 * DAY, 0.0)],
                         ids=["clock set back a day after the meeting opened", "meeting opened a year ahead"])
def test_the_meetings_game_is_abandoned_whatever_the_clock(tmp_path, monkeypatch, held_shift, game_shift):
    journal = tmp_path / "journal.sqlite"
    with RecordStore(tmp_path / "records.sqlite", create=True) as store:
        held_at = (datetime.now() + timedelta(seconds=held_shift)).isoformat(timespec="seconds")
        meeting = store.meetings.start("half", ["Ann", "Bob", "Cid"], add_unknown=True, held_at=held_at)
        game = _begin(journal, monkeypatch, game_shift, meeting_setup("trident"))
        store.meetings.abandon(meeting)
        assert abandon_on_table(journal, store, meeting) == game
    book = Journal(journal)
    try:
        assert book.unfinished() is None  # a casual `play` starts afresh instead of resuming it
    finally:
        book.close()


def test_a_casual_game_is_left_alone(tmp_path, monkeypatch):
    journal = tmp_path / "journal.sqlite"
    with RecordStore(tmp_path / "records.sqlite", create=True) as store:
        meeting = store.meetings.start("half", ["Ann", "Bob", "Cid"], add_unknown=True)
        _begin(journal, monkeypatch, 0.0, {"game": "trident"})
        store.meetings.abandon(meeting)
        assert abandon_on_table(journal, store, meeting) is None
