"""PN532 over UART through nfcpy's real `tty` transport and `pn532` driver, against a PN532 emulated on a
pseudo-terminal (testbed/pn532_emulator.py) reached as tty:NAME:pn532."""

from __future__ import annotations

import errno
import os
import time

import nfc
import pytest
from device_helpers import events_until_quiet, summary, wait_for

from kikimimi.devices.config import parse_readers
from kikimimi.devices.hub import Hub

pytestmark = pytest.mark.hardware_emulation


def hub_of(chip, **kw) -> Hub:
    return Hub(parse_readers({"field": {"path": chip.path, "profile": "pn532-uart"}}, "test"), **kw)


def opened(hub: Hub) -> None:
    wait_for(lambda: hub.health()["field"].status == "ok", what="the PN532 to open")


def present(chip, uid: str, hold: float = 0.3) -> None:
    chip.tag = uid
    time.sleep(hold)
    chip.tag = None


def test_taps_and_removals_of_4_and_7_byte_uids_through_nfcpys_driver(pn532):
    chip = pn532()
    with hub_of(chip, debounce=0.05) as hub:
        opened(hub)
        assert chip.speed == 921600  # nfcpy moved the chip to its fastest speed at open, as on a real table
        present(chip, "04a1b2c3d4e5f6")
        present(chip, "1a2b3c4d")
        assert summary(events_until_quiet(hub, quiet=0.6)) == [
            ("field", "tap", "04a1b2c3d4e5f6"), ("field", "removed", "04a1b2c3d4e5f6"),
            ("field", "tap", "1a2b3c4d"), ("field", "removed", "1a2b3c4d")]
    assert chip.speed == 115200  # close() moved it back


def test_garbled_frames_are_dropped_and_counted_never_a_false_tap(pn532):
    chip = pn532()
    with hub_of(chip, debounce=0.05) as hub:
        opened(hub)
        chip.tag = "04a1b2c3d4e5f6"
        chip.garble = 3  # the next three answers (with the tag's UID in the first) have a flipped byte
        time.sleep(0.8)
        chip.tag = None
        events = events_until_quiet(hub, quiet=0.6)
        assert summary(events) == [("field", "tap", "04a1b2c3d4e5f6"), ("field", "removed", "04a1b2c3d4e5f6")]
        assert hub.health()["field"].dropped == 3 and hub.health()["field"].status == "ok"


def test_the_adapter_unplugged_and_back(pn532):
    chip = pn532()
    with hub_of(chip, debounce=0.05) as hub:
        opened(hub)
        chip.unplug()
        wait_for(lambda: hub.health()["field"].status != "ok", what="the loss to be seen")
        chip.plug()
        opened(hub)
        present(chip, "04aabbcc")
        assert [e.uid for e in events_until_quiet(hub, quiet=0.6) if e.kind == "tap"] == ["04aabbcc"]


def test_a_chip_gone_silent_is_stalled_then_reopened_at_the_speed_it_was_left_at(pn532):
    """The chip stops answering at 921600 and comes back still at 921600 (it was never moved back):
    nfcpy alone would reopen at 115200 for ever; the driver finds it and reads again."""
    chip = pn532()
    seen = []
    with hub_of(chip, debounce=0.05, on_health=lambda role, h: seen.append(h.status)) as hub:
        opened(hub)
        chip.silent.set()
        wait_for(lambda: hub.health()["field"].status == "stalled", what="the silence to be seen")
        time.sleep(0.5)
        assert chip.speed == 921600
        chip.silent.clear()
        opened(hub)
        present(chip, "08dd0102")
        assert [e.uid for e in events_until_quiet(hub, quiet=0.6) if e.kind == "tap"] == ["08dd0102"]
    assert seen[:2] == ["ok", "stalled"]


def test_a_chip_left_at_921600_by_a_killed_table_is_found_and_read(pn532):
    chip = pn532()
    clf = nfc.ContactlessFrontend(chip.path)  # a table that opened the reader ...
    os.close(clf.device.chipset.transport.tty.fd)  # ... and was killed: no close(), the chip stays fast
    clf.device.chipset.transport.tty.fd = None
    assert chip.speed == 921600
    with pytest.raises(OSError) as trap:
        nfc.ContactlessFrontend(chip.path)  # the trap: nfcpy reopens at 115200 only
    assert trap.value.errno in (errno.ENODEV, errno.ETIMEDOUT)
    with hub_of(chip, debounce=0.05) as hub:
        opened(hub)
        present(chip, "08ee0102")
        assert [e.uid for e in events_until_quiet(hub, quiet=0.6) if e.kind == "tap"] == ["08ee0102"]
        assert hub.health()["field"].errors == 0  # found on the first open
