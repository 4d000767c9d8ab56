"""A Sony RC-S380 through nfcpy's real `rcs380` driver and USB transport: libusb and python-libusb1 talk
to an emulated USB device through umockdev's usbdevfs emulation (tests/devices/usb_umockdev.py), whose
bulk transfers go to an emulated NFC Port-100 chip with a FeliCa tag (kikimimi/devices/rcs380_emulator.py).
Everything above the kernel interface is real: libusb, nfcpy, kikimimi's hub."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.hardware_emulation
HELPER = Path(__file__).with_name("usb_umockdev.py")


def _missing() -> str | None:
    if shutil.which("umockdev-wrapper") is None:
        return "umockdev-wrapper is not installed (Debian package umockdev)"
    probe = subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('UMockdev', '1.0')"],
                           capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return f"umockdev's Python bindings are missing (python3-gi, gir1.2-umockdev-1.0): {probe.stderr[-200:]}"
    return None


def test_an_rc_s380_on_an_emulated_usb_bus_reads_felica_taps_and_removals():
    why = _missing()
    if why:
        pytest.skip(why)
    proc = subprocess.Popen(["umockdev-wrapper", sys.executable, str(HELPER)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def send(command: str) -> None:
        proc.stdin.write(command + "\n")
        proc.stdin.flush()

    def next_record(limit: float = 10.0) -> dict:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            line = proc.stdout.readline()
            if not line:
                break
            return json.loads(line)
        raise AssertionError(f"no output from the emulated RC-S380: {proc.stderr.read()[-2000:]}")

    try:
        assert next_record() == {"health": "ok", "detail": "reading usb:054c:06c1"}
        events = []
        for idm in ("0101010203040506", "0101a1b2c3d4e5f6"):
            send(f"tag {idm}")
            events.append(next_record())
            send("lift")
            events.append(next_record())
        send("quit")
        assert events == [
            {"event": "tap", "uid": "0101010203040506", "reader": "field"},
            {"event": "removed", "uid": "0101010203040506", "reader": "field"},
            {"event": "tap", "uid": "0101a1b2c3d4e5f6", "reader": "field"},
            {"event": "removed", "uid": "0101a1b2c3d4e5f6", "reader": "field"}]
        last = next_record()
        assert last["stopped"] and last["commands"] > 10  # the driver's commands went through the chip
    finally:
        proc.kill()
        proc.wait(10)
