"""Bring-up on the simulated table and on a pty-backed RDM6300 reader, headless (transcript outputs)."""

import threading

import pytest
from bringup_helpers import Pty, rdm6300_frame, table_toml, wait_for

from kikimimi.bringup.announce import output_for
from kikimimi.bringup.session import Bringup
from kikimimi.devices.simdeck import sim_uid
from kikimimi.table.config import load_config


class Lines:
    """Every line the voice spoke, as (output, phrase key)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.items = []

    def __call__(self, output, line):
        with self.lock:
            self.items.append((output, line.key))

    def take(self):
        with self.lock:
            items, self.items = self.items, []
        return items


def next_heard(session, limit=5.0):
    return wait_for(lambda: session.poll(timeout=0.05), limit, "a tap")


@pytest.fixture
def sim_session():
    lines = Lines()
    session = Bringup.open(load_config(), transcript_only=True, on_line=lines)
    session.lines = lines
    yield session
    session.close()


@pytest.mark.parametrize("role", ["field", "hand:1", "hand:2", "hand:3"])
def test_a_tap_is_spoken_on_that_readers_own_output_and_nowhere_else(sim_session, role):
    sim_session.hub.simulated(role).tap_and_remove(sim_uid("diamond-2", 0))
    heard = next_heard(sim_session)
    assert (heard.role, heard.tag_id) == (role, "diamond-2")
    sim_session.voice.wait_idle(timeout=5)
    assert sim_session.lines.take() == [(output_for(role), "piece.diamond")]


def test_taps_on_every_reader_keep_to_their_outputs(sim_session):
    """A tap on each reader in a burst: each output hears exactly its own reader's taps."""
    uids = {"field": sim_uid("spade-1", 0), "hand:1": sim_uid("unknown-change-spade", 0),
            "hand:2": sim_uid("heart-4", 0), "hand:3": "00c0ffee"}
    for role, uid in uids.items():
        sim_session.hub.simulated(role).tap_and_remove(uid)
    heard = [next_heard(sim_session) for _ in uids]
    sim_session.voice.wait_idle(timeout=5)
    assert sorted(h.role for h in heard) == sorted(uids)
    spoken = dict(sim_session.lines.take())
    assert spoken == {"speaker": "piece.spade", "hand:1": "piece.unknown", "hand:2": "piece.heart",
                      "hand:3": "bringup.unknown_tag"}


def test_rows_show_each_readers_last_uid_piece_and_taps(sim_session):
    sim = sim_session.hub.simulated("hand:2")
    sim.tap_and_remove(sim_uid("clover-1", 0))
    next_heard(sim_session)
    sim.tap_and_remove("0badcafe")
    next_heard(sim_session)
    rows = {r.role: r for r in sim_session.rows()}
    assert rows["hand:2"].taps == 2 and rows["hand:2"].last_uid == "0badcafe" and rows["hand:2"].last_tag is None
    assert rows["field"].taps == 0 and rows["field"].last_uid is None
    assert all(r.status == "ok" for r in rows.values())
    assert sim_session.all_ok()


@pytest.fixture
def pty_table(tmp_path):
    port = Pty(tmp_path / "ttyHAND1")
    readers = {"field": {"path": "sim"}, "hand:1": {"path": str(port.link), "protocol": "rdm6300"},
               "hand:2": {"path": "sim"}, "hand:3": {"path": "sim"}}
    cfg = tmp_path / "table.toml"
    cfg.write_text(table_toml(readers))
    yield load_config(cfg), port
    port.close()


def test_an_rdm6300_reader_on_a_pty_is_spoken_on_its_seat_only_and_survives_an_unplug(pty_table):
    config, port = pty_table
    lines = Lines()
    session = Bringup.open(config, on_line=lines)
    try:
        wait_for(lambda: {r.role: r.status for r in session.rows()}["hand:1"] == "ok", what="reader open")
        port.write(rdm6300_frame("0A0B0C0D0E") * 3)
        heard = next_heard(session)
        assert (heard.role, heard.uid, heard.tag_id) == ("hand:1", "0a0b0c0d0e", None)
        session.voice.wait_idle(timeout=5)
        assert lines.take() == [("hand:1", "bringup.unknown_tag")]

        port.unplug()
        wait_for(lambda: {r.role: r.status for r in session.rows()}["hand:1"] != "ok", what="reader lost")
        assert not session.all_ok()
        port.plug()
        wait_for(lambda: {r.role: r.status for r in session.rows()}["hand:1"] == "ok", what="reader back")
        port.write(rdm6300_frame("0102030405") * 3)
        heard = next_heard(session)
        assert heard.uid == "0102030405"
        row = {r.role: r for r in session.rows()}["hand:1"]
        assert row.taps == 2 and row.errors >= 1
    finally:
        session.close()
