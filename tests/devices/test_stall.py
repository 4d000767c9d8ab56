"""A reader that hangs while plugged in (issue 15, item 8): the hub's watchdog reports it `stalled` within its
window and reopens it; the speaker says a loss only once it outlasts the hold-off, and says "back" once.

How the hang is made: nfcpy's RC-S380 read can block for ever inside libusb, and no real device here can be made
to do that (a pty read under pyserial always returns within its timeout). So the reader is a real uid-line
driver on a real pty whose `handle()` blocks, as a read with no timeout would, when the bridge sends `HANG`:
a test double for the blocking call only; the port, the hub, its threads and the watchdog are the real ones.
"""

from __future__ import annotations

import threading
import time

import pytest
from device_helpers import Pty, summary, wait_for

from kikimimi.devices import hub as hub_module
from kikimimi.devices.config import parse_readers
from kikimimi.devices.hub import Hub
from kikimimi.devices.serial_reader import UidLineDriver
from kikimimi.games.base import Say
from kikimimi.table.live import _ReaderAnnouncer

STALL = 0.5
A, B = "04a1b2c3", "0a0b0c0d"


class HangingUidLine(UidLineDriver):
    """A uid-line reader whose read never returns once the bridge sends HANG (until the test ends)."""

    release = threading.Event()
    hung: list[HangingUidLine] = []

    def handle(self, data, state):
        self.heard = getattr(self, "heard", b"")[-8:] + data  # the word may come in pieces
        if b"HANG" in self.heard:
            HangingUidLine.hung.append(self)
            HangingUidLine.release.wait()  # like nfcpy's read with no timeout: no heartbeat from here
            return False
        return super().handle(data, state)


@pytest.fixture
def hanging(monkeypatch):
    real = hub_module.make_driver
    monkeypatch.setattr(hub_module, "make_driver",
                        lambda spec, sim=None: HangingUidLine(spec) if spec.protocol == "uid-line" else real(spec, sim))
    HangingUidLine.release.clear()
    HangingUidLine.hung.clear()
    yield
    HangingUidLine.release.set()  # let the abandoned thread end


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[float, str, str]] = []

    def __call__(self, role, health) -> None:
        self.seen.append((time.monotonic(), role, health.status))

    def statuses(self) -> list[str]:
        return [status for _, _, status in self.seen]


def uid_hub(port, on_health, stall_after=STALL) -> Hub:
    specs = parse_readers({"hand:1": {"path": str(port.link), "protocol": "uid-line"}}, "test")
    return Hub(specs, debounce=0.05, on_health=on_health, stall_after=stall_after)


def test_a_reader_that_hangs_is_reported_stalled_within_the_window_and_reopened(tmp_path, hanging):
    port, seen = Pty(tmp_path / "ttyBRIDGE"), Recorder()
    try:
        with uid_hub(port, seen) as hub:
            wait_for(lambda: hub.health()["hand:1"].status == "ok", what="hand:1 ok")
            port.write(f"UID {A}\r\n".encode())
            assert summary([hub.get(2)]) == [("hand:1", "tap", A)]
            hung_at = time.monotonic()
            port.write(b"HANG\r\n")
            wait_for(lambda: "stalled" in seen.statuses(), limit=STALL + 2, what="stalled")
            stalled_at = next(t for t, _, status in seen.seen if status == "stalled")
            assert STALL <= stalled_at - hung_at <= STALL + 0.5  # the watchdog looks 10 times a window
            assert summary([hub.get(2)]) == [("hand:1", "removed", A)]  # the held tag is no longer known
            wait_for(lambda: seen.statuses()[-1] == "ok", limit=3, what="reopened")
            port.write(f"UID {B}\r\n".encode())  # the fresh driver reads the same port
            assert summary([hub.get(2)]) == [("hand:1", "tap", B)]
            assert len(HangingUidLine.hung) == 1  # ... while the first one is still stuck in its read
            health = hub.health()["hand:1"]
        assert health.status == "ok" and health.errors >= 1
        assert seen.statuses()[-2:] == ["stalled", "ok"]
    finally:
        port.close()


def test_a_reader_that_keeps_reading_is_never_stalled(tmp_path, hanging):
    port, seen = Pty(tmp_path / "ttyBRIDGE"), Recorder()
    try:
        with uid_hub(port, seen, stall_after=0.2) as hub:
            wait_for(lambda: hub.health()["hand:1"].status == "ok", what="hand:1 ok")
            for _ in range(8):  # idle and reading, well past the window
                port.write(f"UID {A}\r\nREMOVED\r\n".encode())
                time.sleep(0.1)
        assert "stalled" not in seen.statuses()
    finally:
        port.close()


def spoken(announcer) -> list[str]:
    said: list[str] = []
    announcer.speak = lambda says: said.extend(s.key for s in says if isinstance(s, Say))
    return said


def test_a_stalled_reader_reopened_within_the_hold_off_is_not_announced(tmp_path, hanging):
    port = Pty(tmp_path / "ttyBRIDGE")
    announcer = _ReaderAnnouncer(None, hold_off=0.8)
    said = spoken(announcer)
    try:
        with uid_hub(port, announcer, stall_after=0.3) as hub:
            wait_for(lambda: hub.health()["hand:1"].status == "ok", what="hand:1 ok")
            statuses: list[str] = []
            announcer.then = lambda role, health: statuses.append(health.status)
            port.write(b"HANG\r\n")
            wait_for(lambda: statuses[-2:] == ["stalled", "ok"], limit=2, what="stalled, then reopened")
            time.sleep(1.0)  # past the hold-off
        assert said == []
    finally:
        announcer.close()
        port.close()


def test_a_loss_longer_than_the_hold_off_is_said_once_and_back_once(tmp_path):
    port = Pty(tmp_path / "ttyBRIDGE")
    announcer = _ReaderAnnouncer(None, hold_off=0.3)
    said = spoken(announcer)
    try:
        with uid_hub(port, announcer) as hub:
            wait_for(lambda: hub.health()["hand:1"].status == "ok", what="hand:1 ok")
            port.unplug()  # a brief USB error: back well within the hold-off
            wait_for(lambda: hub.health()["hand:1"].status != "ok", what="down")
            port.plug()
            wait_for(lambda: hub.health()["hand:1"].status == "ok", what="back")
            time.sleep(0.5)
            assert said == []  # never said lost, so not back either
            port.unplug()  # a real loss: retried again and again, well past the hold-off
            wait_for(lambda: said == ["table.hand_reader_lost"], limit=3, what="lost said")
            time.sleep(0.6)  # more failed reopens: still said once
            assert said == ["table.hand_reader_lost"]
            port.plug()
            wait_for(lambda: hub.health()["hand:1"].status == "ok", what="back again")
            time.sleep(0.4)
        assert said == ["table.hand_reader_lost", "table.hand_reader_back"]
    finally:
        announcer.close()
        port.close()
