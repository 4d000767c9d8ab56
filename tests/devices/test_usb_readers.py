"""USB readers through nfcpy's real drivers and USB transport: libusb and python-libusb1 talk to an
emulated USB device through umockdev's usbdevfs emulation (tests/devices/usb_umockdev.py), whose bulk
transfers go to an emulated chip: a Sony RC-S380 (NFC Port-100, `rcs380` driver) with a FeliCa tag, and an
ACS ACR122U (PN532 behind CCID, `acr122` driver) with an NFC-A tag. Everything above the kernel interface
is real: libusb, nfcpy, kikimimi's hub."""

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


@pytest.mark.parametrize(("device", "path", "uids"), [
    ("rcs380", "usb:054c:06c1", ("0101010203040506", "0101a1b2c3d4e5f6")),  # FeliCa IDm
    ("acr122u", "usb:072f:2200", ("04a1b2c3d4e5f6", "1a2b3c4d")),  # NFC-A UIDs, 7 and 4 bytes
])
def test_a_usb_reader_on_an_emulated_usb_bus_reads_taps_and_removals(device, path, uids):
    why = _missing()
    if why:
        pytest.skip(why)
    proc = subprocess.Popen(["umockdev-wrapper", sys.executable, str(HELPER), device], stdin=subprocess.PIPE,
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
        first = next_record()
        assert first["health"] == "ok" and first["detail"].startswith(f"reading {path}")
        events = []
        for uid in uids:
            send(f"tag {uid}")
            events.append(next_record())
            send("lift")
            events.append(next_record())
        send("quit")
        assert events == [{"event": kind, "uid": uid, "reader": "field"} for uid in uids
                          for kind in ("tap", "removed")]
        last = next_record()
        assert last["stopped"] and last["commands"] > 10  # the driver's commands went through the chip
    finally:
        proc.kill()
        proc.wait(10)
