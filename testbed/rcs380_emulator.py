"""A Sony RC-S380 (NFC Port-100 chip) with a FeliCa tag, emulated for the tests of nfcpy's `rcs380` driver.

The chip speaks in frames over its two bulk endpoints: the host sends
`00 00 FF FF FF LENL LENH LCS D6 CMD DATA... DCS 00`, the chip answers an ACK `00 00 FF 00 FF 00` and then
`00 00 FF FF FF LENL LENH LCS D7 CMD+1 DATA... DCS 00`. It answers what nfcpy's driver sends at open
(SetCommandType, GetFirmwareVersion, GetPDDataVersion, SwitchRF), when sensing (InSetRF, InSetProtocol,
InCommRF with a SENSF_REQ: the FeliCa polling) and checking a held tag's presence (the same polling), and
at close. A FeliCa tag answers polling with its IDm and PMm; any other command to the air times out, as
with no tag.

`Rcs380Chip.write(frame)` takes what the host sends on the OUT endpoint; `read()` gives what it reads on
the IN endpoint next (None: nothing yet). The USB side is the caller's: usbdevfs under umockdev in the
tests (tests/devices/usb_umockdev.py).
"""

from __future__ import annotations

import struct
import threading
from collections import deque

ACK = bytes.fromhex("0000FF00FF00")
RECEIVE_TIMEOUT = bytes([0x80, 0, 0, 0])  # InCommRF status: no answer from the air
PMM = bytes.fromhex("03FF220427674EFF")  # IC code FF: a plain Type 3 Tag to nfcpy


def frame(data: bytes) -> bytes:
    head = bytes([0, 0, 0xFF, 0xFF, 0xFF]) + struct.pack("<H", len(data))
    return head + bytes([(256 - sum(head[5:7])) % 256]) + data + bytes([(256 - sum(data)) % 256, 0])


def unframe(raw: bytes) -> bytes | None:
    """The data of a host frame (D6 CMD ...), None for an ACK or a frame that does not add up."""
    if raw[:5] != bytes([0, 0, 0xFF, 0xFF, 0xFF]) or len(raw) < 10:
        return None
    length = struct.unpack("<H", raw[5:7])[0]
    data = raw[8:8 + length]
    if len(data) != length or (sum(data) + raw[8 + length]) % 256 != 0:
        return None
    return data


class Rcs380Chip:
    """tag: the IDm (16 hex digits) of the FeliCa tag on the reader, or None."""

    def __init__(self) -> None:
        self.tag: str | None = None
        self.commands = 0
        self._out: deque[bytes] = deque()
        self._lock = threading.Lock()

    def write(self, raw: bytes) -> None:
        data = unframe(bytes(raw))
        if data is None or data[:1] != b"\xd6":
            return  # an ACK (the host's soft reset or cancel) or nothing it understands
        self.commands += 1
        answer = self._answer(data[1], data[2:])
        with self._lock:
            self._out.append(ACK)
            self._out.append(frame(bytes([0xD7, data[1] + 1]) + answer))

    def read(self) -> bytes | None:
        with self._lock:
            return self._out.popleft() if self._out else None

    def _answer(self, command: int, data: bytes) -> bytes:
        if command == 0x20:  # GetFirmwareVersion: 1.11
            return bytes([0x11, 0x01])
        if command == 0x22:  # GetPDDataVersion
            return bytes([0x00, 0x01])
        if command == 0x04:  # InCommRF: 2 bytes of timeout, then the frame for the air
            return self._air(data[2:])
        return b"\x00"  # SetCommandType, SwitchRF, InSetRF, InSetProtocol...: success

    def _air(self, sent: bytes) -> bytes:
        idm = self.tag
        # FeliCa polling: LEN 00 SC SC RC TSN; the tag answers LEN 01 IDm PMm (+ its system code for RC 1)
        if idm is not None and len(sent) >= 6 and sent[1] == 0x00:
            answer = b"\x01" + bytes.fromhex(idm) + PMM + (b"\x12\xfc" if sent[4] == 1 else b"")
            return bytes(4) + b"\x00" + bytes([len(answer) + 1]) + answer
        return RECEIVE_TIMEOUT + b"\x00"
