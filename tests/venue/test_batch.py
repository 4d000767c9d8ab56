"""The host's group commit: results that wait together are recorded in one transaction, each counted
once (a duplicate inside the batch and one of a game recorded before), a refused result refused alone
and every table told its own answer only after the commit; on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

from venue_helpers import TOKEN, bot_outcome, new_meeting, serve, wait_for

from kikimimi.records.repos.games import GameRepository
from kikimimi.records.store import RecordStore
from kikimimi.venue.client import HostLink, HostRefused
from kikimimi.venue.host import create_app


def test_results_waiting_together_are_one_batch_each_counted_once(records_url, monkeypatch):
    db = records_url
    meeting = new_meeting(db, tables=3, kind="full")
    batches: list[list[str | None]] = []
    hold = threading.Event()
    record_many = GameRepository.record_many

    def held_first(self: GameRepository, meeting_id: int, items: Any) -> Any:
        batches.append([item.journal_game_id for item in items])
        if len(batches) == 1:
            hold.wait(10)  # the writer is busy with the first result: the others gather behind it
        return record_many(self, meeting_id, items)

    monkeypatch.setattr(GameRepository, "record_many", held_first)
    # The meeting named: a table's link asks no store (SQLite's single store thread is held below).
    app = create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=meeting)
    answers: dict[str, Any] = {}

    def send(key: str, table: int, journal_id: str, seats: dict[int, str], seed: int) -> None:
        link = HostLink(url, table, token=TOKEN, meeting=meeting)
        try:
            answers[key] = link.report(journal_id, seats, bot_outcome(seed).to_json())
        except HostRefused as exc:
            answers[key] = exc
        finally:
            link.close()

    with serve(app) as url:
        seats = {}
        for table in (1, 2, 3):
            link = HostLink(url, table, token=TOKEN, meeting=meeting)
            seats[table] = dict(enumerate(link.join()["players"], start=1))
            link.close()
        first = threading.Thread(target=send, args=("first", 1, "t1-g1", seats[1], 1))
        first.start()
        wait_for(lambda: batches, 5, "the first result to reach the store")
        reports = [  # (key, table, journal id, seats, seed)
            ("t1-g1 again", 1, "t1-g1", seats[1], 1),  # recorded (not yet answered) before this batch
            ("t2-g1", 2, "t2-g1", seats[2], 2),
            ("t2-g1 twice", 2, "t2-g1", seats[2], 2),  # the same game twice in one batch
            ("strangers", 3, "t3-x", seats[2], 3),  # table 2's players reported by table 3: refused
            ("t3-g1", 3, "t3-g1", seats[3], 4),
            ("t1-g2", 1, "t1-g2", seats[1], 5),
        ]
        threads = [threading.Thread(target=send, args=r) for r in reports]
        for thread in threads:
            thread.start()
        feed = app.state.host.feeds[meeting]
        wait_for(lambda: len(feed.waiting) == len(reports), 5, "the reports to wait for the writer")
        assert len(answers) == 0  # nobody hears "recorded" before the commit
        hold.set()
        for thread in [first, *threads]:
            thread.join(timeout=10)
        played = dict(feed.played)  # the host's count of each table's games

    assert batches[0] == ["t1-g1"] and len(batches) == 2
    assert sorted(batches[1], key=str) == sorted(r[2] for r in reports)  # one transaction for all of them
    refused = answers.pop("strangers")
    assert isinstance(refused, HostRefused) and refused.status == 409 and "t3-x" in str(refused)
    assert answers["first"] == {"number": 1, "round": 1, "duplicate": False}
    assert answers["t1-g1 again"] == {"number": 1, "round": 1, "duplicate": True}
    pair = [answers["t2-g1"], answers["t2-g1 twice"]]
    assert {a["number"] for a in pair} == {answers["t2-g1"]["number"]} and sorted(a["duplicate"] for a in pair) == \
        [False, True]
    new = [a for a in answers.values() if not a["duplicate"]]
    assert sorted(a["number"] for a in new) == [1, 2, 3, 4]  # no number lost to the refused one
    assert answers["t1-g2"]["round"] == 2 and answers["t3-g1"]["round"] == 1 and pair[0]["round"] == 1
    with RecordStore(db) as store:
        games = store.games.in_meeting(meeting)
        tables = store.tables.all(meeting)
    assert sorted(g.journal_game_id or "" for g in games) == ["t1-g1", "t1-g2", "t2-g1", "t3-g1"]
    assert [g.number for g in games] == [1, 2, 3, 4]
    assert [t.games_played for t in tables] == [2, 1, 1] and played == {1: 2, 2: 1, 3: 1}
