"""A meeting played game after game through a `play_one_game` callable, as the live table will."""

from __future__ import annotations

import itertools

import pytest

from kikimimi.games.base import Outcome
from kikimimi.games.trident.ladder import Rank
from kikimimi.records.meeting import run_meeting
from kikimimi.records.store import RecordError, RecordStore

PLAYERS = ["Ann", "Bob", "Cid"]
GAME_IDS = itertools.count(1)  # the journal's game ids are unique


class Table:
    """Stands in for the live table: plays each game by handing back the next scripted outcome."""

    def __init__(self, rankings, fail_at: int | None = None):
        self.rankings = list(rankings)
        self.fail_at = fail_at
        self.seen: list[dict[int, str]] = []

    def __call__(self, seat_players):
        self.seen.append(dict(seat_players))
        if self.fail_at is not None and len(self.seen) == self.fail_at:
            raise ConnectionError("field reader unplugged")
        ranking = self.rankings.pop(0)
        return Outcome(ranking=ranking, winners=ranking[:1]), f"journal-{next(GAME_IDS)}"


@pytest.fixture
def store(records_url):
    with RecordStore(records_url) as s:
        yield s


def test_a_full_trial_plays_ten_games_and_announces_the_end(store):
    said: list[str] = []
    table = Table([(1, 2, 3)] * 10)
    report = run_meeting(store, "full", PLAYERS, table, say=said.append, add_unknown=True)
    assert table.seen == [{1: "Ann", 2: "Bob", 3: "Cid"}] * 10
    assert [s.player for s in report.standings] == PLAYERS
    assert report.standings[0].wins == 10
    assert {s.name: s.rank for s in report.statuses}["Ann"] is Rank.BISHOP
    assert "Ann is promoted to Bishop (from Apprentice): 10 wins." in said
    assert "1. Ann: 10 wins, 0 points" in said
    ids = [g.journal_game_id for g in store.games.in_meeting(report.meeting_id)]
    assert len(set(ids)) == 10 and all(i.startswith("journal-") for i in ids)


def test_a_meeting_cut_short_resumes_at_its_next_game(store):
    with pytest.raises(ConnectionError):
        run_meeting(store, "half", PLAYERS, Table([(2, 1, 3)] * 5, fail_at=3), add_unknown=True)
    open_meeting = store.meetings.current()
    assert open_meeting.games_played == 2
    rest = Table([(2, 1, 3)] * 3)
    report = run_meeting(store, "ignored", [], rest, meeting_id=open_meeting.id)
    assert len(rest.seen) == 3
    assert report.standings[0].player == "Bob" and report.standings[0].wins == 5


def test_a_contest_needs_its_number_of_games(store):
    with pytest.raises(RecordError, match="--games"):
        run_meeting(store, "contest", PLAYERS, Table([]), add_unknown=True)
    report = run_meeting(store, "contest", PLAYERS, Table([(3, 1, 2)] * 2), games=2, add_unknown=True)
    assert store.meetings.get(report.meeting_id).winner == "Cid"
    assert {s.name: s.peerage for s in report.statuses}["Cid"] == 1


@pytest.mark.parametrize("number", [0, -1, 2**31, 2**63])
def test_a_meeting_id_beyond_the_databases_integers_is_no_meeting(records_url, number):
    """Issue 21.4: PostgreSQL failed on 2^31 (int4) and SQLite on 2^63 instead of saying "no meeting"."""
    with RecordStore(records_url) as store, pytest.raises(RecordError, match=f"no meeting {number}"):
        store.meetings.get(number)
