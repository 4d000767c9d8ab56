"""Serial readers through pyserial on a real pty (the path is a symlink, as /dev/serial/by-id is)."""

import time

import pytest
from device_helpers import events_until_quiet, make_hub, summary, wait_for

from kikimimi.devices.frames import rdm6300_frame

A, B = "0102030405", "0a0b0c0d0e"
pytestmark = pytest.mark.hardware_emulation


def rdm_hub(port, **options):
    return make_hub({"hand:1": {"path": str(port.link), "protocol": "rdm6300", **options}})


def ok(hub, role="hand:1"):
    return wait_for(lambda: hub.health()[role].status == "ok", what=f"{role} ok")


def test_rdm6300_noise_split_frames_bad_checksums_and_truncation(pty_port):
    bad = bytearray(rdm6300_frame(B))
    bad[12] ^= 0x01  # checksum digit off by one
    with rdm_hub(pty_port) as hub:
        ok(hub)
        pty_port.write(b"\x00\xffnoise" + bytes(bad) + rdm6300_frame(B)[:9])  # nothing valid yet
        frame = rdm6300_frame(A)
        pty_port.write(frame[:5])
        time.sleep(0.02)
        pty_port.write(frame[5:] + b"\r\n")  # split across writes, noise after
        events = events_until_quiet(hub)
        health = hub.health()["hand:1"]
    assert summary(events) == [("hand:1", "tap", A), ("hand:1", "removed", A)]
    assert health.dropped >= 3 and health.taps == 1 and health.last_uid == A


def test_rdm6300_held_tag_is_one_tap_and_a_retap_after_silence_is_another(pty_port):
    with rdm_hub(pty_port, removal_silence=0.2) as hub:
        ok(hub)
        for _ in range(10):  # held: the module repeats the frame every ~65 ms
            pty_port.write(rdm6300_frame(A))
            time.sleep(0.065)
        held = events_until_quiet(hub, quiet=0.8)
        pty_port.write(rdm6300_frame(A))  # tapped again, well after the debounce window
        again = events_until_quiet(hub, quiet=0.8)
    assert summary(held) == [("hand:1", "tap", A), ("hand:1", "removed", A)]
    assert summary(again) == [("hand:1", "tap", A), ("hand:1", "removed", A)]
    # removal is reported after the configured silence, not before
    assert held[1].t - held[0].t >= 9 * 0.065 + 0.2 - 0.05


def test_rdm6300_retap_within_debounce_counts_once(pty_port):
    with rdm_hub(pty_port, removal_silence=0.05) as hub:
        ok(hub)
        pty_port.write(rdm6300_frame(A))
        time.sleep(0.12)  # lifted: silence > 0.05 s reports removal to the hub ...
        pty_port.write(rdm6300_frame(A))  # ... and back well within the 0.3 s window
        events = events_until_quiet(hub)
        assert hub.health()["hand:1"].taps == 2  # the reader did see two taps: the hub merged them
    assert summary(events) == [("hand:1", "tap", A), ("hand:1", "removed", A)]


def test_port_vanishing_and_coming_back_at_the_same_path(pty_port):
    with rdm_hub(pty_port) as hub:
        ok(hub)
        pty_port.write(rdm6300_frame(A))
        assert summary([hub.get(2)]) == [("hand:1", "tap", A)]
        pty_port.unplug()  # USB unplug: the port disappears
        wait_for(lambda: hub.health()["hand:1"].status == "reconnecting", what="reconnecting")
        gone = hub.get(2)
        pty_port.plug()  # plugged back: a new tty behind the same path
        ok(hub)
        pty_port.write(rdm6300_frame(B))
        events = events_until_quiet(hub)
        health = hub.health()["hand:1"]
    assert summary([gone]) == [("hand:1", "removed", A)]  # a tag on a lost reader is not held any more
    assert summary(events) == [("hand:1", "tap", B), ("hand:1", "removed", B)]
    assert health.errors >= 1 and health.status == "ok"


def test_uid_line_bridge(pty_port):
    with make_hub({"hand:2": {"path": str(pty_port.link), "profile": "arduino-mfrc522"}}) as hub:
        ok(hub, "hand:2")
        pty_port.write(b"READY kikimimi-bridge 1\r\nUID 04A1B2C3D4E5F6\r\n")
        pty_port.write(b"UID 04A1B2C3D4E5F6\r\n")  # a repeat while held is not a new tap
        pty_port.write(b"garbage\r\nUID 0A0B0C0D\r\nREMOVED\r\n")
        events = events_until_quiet(hub)
        health = hub.health()["hand:2"]
    assert summary(events) == [
        ("hand:2", "tap", "04a1b2c3d4e5f6"), ("hand:2", "removed", "04a1b2c3d4e5f6"),
        ("hand:2", "tap", "0a0b0c0d"), ("hand:2", "removed", "0a0b0c0d")]
    assert health.dropped == 1
