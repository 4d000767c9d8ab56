"""Issue 31: a stored result that cannot be read (edited by hand) is left out of the ladder with a logged alert,
as `games()` leaves it out of the standings, instead of failing every history read and summary rebuild."""

from __future__ import annotations

import logging
import sqlite3

from kikimimi.records.results import PlayerResult
from kikimimi.records.store import GameItem, RecordStore


def test_a_result_edited_by_hand_is_left_out_of_the_ladder_and_named(tmp_path, caplog):
    with RecordStore(tmp_path / "r.sqlite") as store:
        meeting = store.meetings.start("half", ["Ann", "Bob", "Cid"], add_unknown=True)
        store.games.record_many(meeting, [GameItem(tuple(PlayerResult(n, p) for p, n in enumerate(order, start=1)))
                                    for order in (["Ann", "Bob", "Cid"],) * 5])
        store.meetings.finish(meeting)
        before = len(store.ladder.history("Ann")[0].games)
    with sqlite3.connect(tmp_path / "r.sqlite") as db:
        db.execute("UPDATE results SET place = 'y' WHERE rowid = (SELECT min(rowid) FROM results)")
    with RecordStore(tmp_path / "r.sqlite") as store, caplog.at_level(logging.WARNING):
        assert store.summaries.rebuild() == 3
        histories = [store.ladder.history(n) for n in ("Ann", "Bob", "Cid")]
        assert set(store.ladder.by_name()) == {"Ann", "Bob", "Cid"}
    assert sorted(len(h[0].games) for h in histories) == [before - 1, before, before]
    assert "cannot be read (has place 'y')" in caplog.text
