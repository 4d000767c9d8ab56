"""Power cuts on a disk that forgets what was not synced (tests/powercut/lazyfs.py, FUSE): the disk itself,
the durable-write helper on it, and a live table with its venue client cut a few times (`kikimimi bench
powercut` makes hundreds of cuts)."""

from __future__ import annotations

import json
import os

import pytest
import rig

from kikimimi.console.web.access import access_path, evening
from kikimimi.durable import write_durably

pytestmark = pytest.mark.hardware_emulation


@pytest.fixture(scope="module")
def needs_fuse():
    reason = rig.missing()  # once for the module: it starts Debian's Python to look for pyfuse3
    if reason:
        pytest.skip(f"power-cut rig: {reason}")


def test_a_cut_keeps_what_was_synced_and_drops_the_rest(tmp_path, needs_fuse):
    image, mnt = tmp_path / "disk", tmp_path / "mnt"
    image.mkdir()
    (image / "old.json").write_text('{"kept": true}')
    mount = rig.LazyMount(image, mnt)
    try:
        write_durably(mnt / "durable.json", json.dumps({"written": "durably"}), mode=0o600)
        (mnt / "plain.json").write_text('{"written": "without a sync"}')  # a bare write, as before the fix
        (mnt / "old.json").write_text('{"kept": false}')  # overwritten in place, unsynced
        renamed = mnt / "renamed.json.part"
        renamed.write_text("{}")
        with open(renamed, "rb+") as handle:
            os.fsync(handle.fileno())
        renamed.replace(mnt / "renamed.json")  # the data synced, the rename not (no folder sync)
        assert "unsynced" in mount.cut()
        with pytest.raises(OSError):  # the disk is gone
            (mnt / "after.json").write_text("{}")
    finally:
        mount.stop()
    after = {p.name: p.read_bytes() for p in image.iterdir()}
    assert json.loads(after["durable.json"]) == {"written": "durably"}
    assert (image / "durable.json").stat().st_mode & 0o777 == 0o600
    assert "plain.json" not in after  # its name was never synced
    assert after["old.json"] == b'{"kept": true}'  # the overwrite was never synced
    assert "renamed.json" not in after and "after.json" not in after
    assert not [name for name in after if name.endswith(".tmp")]


def test_the_evenings_code_counts_as_saved_only_once_its_file_reads_back(tmp_path, needs_fuse):
    image, mnt = tmp_path / "disk", tmp_path / "mnt"
    image.mkdir()
    mount = rig.LazyMount(image, mnt)
    try:
        first = evening(mnt / "journal.sqlite")
        assert first.saved
        assert mount.cut()
        # The power goes as a new code is made: the disk fails the write, so the code is not shown as kept.
        unsaved = evening(mnt / "journal.sqlite", renew=True)
        assert not unsaved.saved and unsaved.code != first.code
    finally:
        mount.stop()
    kept = json.loads(access_path(image / "journal.sqlite").read_text())
    assert (kept["code"], kept["key"]) == (first.code, first.key)  # what was shown is what a reboot finds


def test_a_table_and_its_venue_client_survive_power_cuts(tmp_path, needs_fuse):
    figures = rig.run_cuts(cuts=2, per_cycle=2, seed=33, folder=tmp_path, say=lambda line: None, longest=0.5,
                           games=2)
    assert figures.cuts == 2 and sum(figures.acked) > 0, figures.to_json()
    assert not figures.failed, figures.problems + figures.reported_wrong
    assert figures.events_lost == 0 and figures.journal_unopened == 0 and figures.outbox_unopened == 0
    assert figures.records_lost == figures.records_doubled == figures.records_unopened == 0
    # A meeting that ends before its cut is followed by another (the rig's cycle), so one or two meetings.
    assert figures.codes_lost == 0 and figures.meetings >= 1 and figures.reported_once == figures.meetings
