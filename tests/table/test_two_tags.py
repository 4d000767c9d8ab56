"""Two tags alternating on one reader (a piece left on it) raise one referee alert; normal tapping does not."""

from __future__ import annotations

from device_helpers import Pty, wait_for
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
    # A real serial reader (a bridge on a pseudo-terminal) under a pile: two tags take turns on it.
    port = Pty(tmp_path / "ttyFIELD")
    config = write_config(tmp_path, readers={"field": f'path = "{port.link}"\nprotocol = "uid-line"'})
    table = open_table(load_config(config), transcript_only=True)
    try:
        wait_for(lambda: table.hub.health()["field"].status == "ok", what="the serial reader to open")
        for piece in ("heart-1", "heart-2", "heart-1"):
            count = table.loop.processed
            port.write(f"UID {sim_uid(piece)}\nREMOVED\n".encode())
            assert table.loop.wait_processed(count + 1)
        alerts = [alert for _, alert in table.loop.status.alerts]
        assert [a.params for a in alerts if a.key == "reader.two_tags"] == [{"reader": "field"}]
    finally:
        table.close()
        port.close()


def test_bots_tapping_a_simulated_reader_fast_raise_no_alarm(tmp_path):
    # `demo --fast`: bots tap A, B, A on the simulated field reader within milliseconds, and mean it.
    table = open_table(load_config(write_config(tmp_path)), transcript_only=True)
    try:
        field = table.hub.simulated("field")
        for piece in ("heart-1", "heart-2", "heart-1"):
            field.tap_and_remove(sim_uid(piece))
        assert table.loop.wait_processed(3)
        assert not [alert for _, alert in table.loop.status.alerts if alert.key == "reader.two_tags"]
    finally:
        table.close()
