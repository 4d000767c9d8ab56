"""Two tags alternating on one reader (a piece left on it) raise one referee alert; normal tapping does not."""

from __future__ import annotations

from table_helpers import write_config

from kikimimi.devices.simdeck import sim_uid
from kikimimi.table.alternation import AlternationWatch
from kikimimi.table.config import load_config
from kikimimi.table.live import open_table


def test_the_watch_sees_a_b_a_within_the_window_once_per_quiet_period():
    watch = AlternationWatch(window=1.5, quiet=10)
    assert [watch.tap("field", uid, t) for uid, t in (("a", 0.0), ("b", 0.3), ("a", 0.6))] == [False, False, True]
    assert not watch.tap("field", "b", 0.9)  # the same pile again: no second alert in the quiet period
    assert not any(watch.tap("hand:1", uid, t) for uid, t in (("a", 0), ("b", 1), ("c", 2), ("a", 3)))
    slow = AlternationWatch(window=1.5)
    assert not any(slow.tap("field", uid, t) for uid, t in (("a", 0.0), ("b", 1.0), ("a", 2.0)))  # a person


def test_a_piece_lying_on_the_field_reader_is_reported_to_the_priest(tmp_path):
    table = open_table(load_config(write_config(tmp_path)), transcript_only=True)
    try:
        field = table.hub.simulated("field")
        for piece in ("heart-1", "heart-2", "heart-1"):
            field.tap_and_remove(sim_uid(piece))
        assert table.loop.wait_processed(3)
        alerts = [alert for _, alert in table.loop.status.alerts]
        assert [a.params for a in alerts if a.key == "reader.two_tags"] == [{"reader": "field"}]
    finally:
        table.close()
