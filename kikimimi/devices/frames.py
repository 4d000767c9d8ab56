"""Parsers of the byte streams serial readers send. Pure: bytes in, UIDs out, never raises.

- RDM6300 / EM4100 modules: STX, 10 ASCII hex (2 version + 8 card digits), 2 ASCII hex checksum
  (XOR of the 5 bytes the 10 digits spell), ETX. Repeated about every 65 ms while a tag is held.
- uid-line: one text line per event from a microcontroller bridge: `UID <hex>` when a tag arrives,
  `REMOVED` when it leaves; other lines (`READY ...`, `# ...`) are information. A UID is 4, 7 or
  10 bytes (ISO 14443-A single, double, triple size); any other length is a garbled line.

Anything else is dropped and counted in `dropped`; a frame is only believed if complete and valid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STX, ETX = 0x02, 0x03
_HEX = frozenset(b"0123456789abcdefABCDEF")
RDM6300_FRAME_LEN = 14  # STX + 10 data + 2 checksum + ETX


def rdm6300_frame(uid: str) -> bytes:
    """The frame an RDM6300 sends for a 10-hex-digit UID (used by tests, benchmarks and the docs)."""
    if len(uid) != 10 or not all(c in _HEX for c in uid.encode()):
        raise ValueError(f"an RDM6300 UID is 10 hex digits, not {uid!r}")
    checksum = 0
    for byte in bytes.fromhex(uid):
        checksum ^= byte
    return bytes([STX]) + uid.upper().encode() + f"{checksum:02X}".encode() + bytes([ETX])


class Rdm6300Parser:
    """Feed bytes as they arrive (split anywhere); returns the UIDs of the valid frames completed."""

    def __init__(self) -> None:
        self._frame = bytearray()
        self._in_frame = False
        self._in_noise = False
        self.dropped = 0  # bad frames and bursts of stray bytes thrown away

    def feed(self, data: bytes) -> list[str]:
        uids: list[str] = []
        for byte in data:
            if byte == STX:
                if self._in_frame:
                    self.dropped += 1  # truncated frame: resynchronise on this STX
                self._frame.clear()
                self._in_frame, self._in_noise = True, False
                continue
            if not self._in_frame:
                if not self._in_noise:  # noise between frames: one count per burst, however it is split
                    self._in_noise = True
                    self.dropped += 1
                continue
            if len(self._frame) < RDM6300_FRAME_LEN - 2:
                if byte in _HEX:
                    self._frame.append(byte)
                else:
                    self.dropped += 1
                    self._in_frame, self._in_noise = False, True
                continue
            # 12 hex digits collected: this byte must end the frame
            self._in_frame = False
            uid = self._check(byte)
            if uid is None:
                self.dropped += 1
                self._in_noise = True
            else:
                uids.append(uid)
        return uids

    def _check(self, end: int) -> str | None:
        if end != ETX:
            return None
        digits = self._frame.decode("ascii")
        checksum = 0
        for byte in bytes.fromhex(digits[:10]):
            checksum ^= byte
        if checksum != int(digits[10:], 16):
            return None
        return digits[:10].lower()


@dataclass(frozen=True)
class LineEvent:
    kind: str  # "uid", "removed" or "info"
    value: str = ""


_UID_LINE = re.compile(r"^UID[ :]+([0-9A-Fa-f:]{4,47})$")
UID_LINE_BYTES = (4, 7, 10)  # the sizes a real tag's UID has


class UidLineParser:
    """`UID 04A1B2C3` / `REMOVED` lines, `\\n` or `\\r\\n` ended; over-long or unknown lines are dropped."""

    MAX_LINE = 120

    def __init__(self) -> None:
        self._line = bytearray()
        self._overflow = False
        self.dropped = 0

    def feed(self, data: bytes) -> list[LineEvent]:
        events: list[LineEvent] = []
        for byte in data:
            if byte == 0x0A:  # \n
                if self._overflow:
                    self.dropped += 1
                else:
                    event = self._parse(self._line)
                    if event is not None:
                        events.append(event)
                self._line.clear()
                self._overflow = False
            elif not self._overflow:
                self._line.append(byte)
                if len(self._line) > self.MAX_LINE:
                    self._overflow = True
                    self._line.clear()
        return events

    def _parse(self, raw: bytes | bytearray) -> LineEvent | None:
        try:
            line = raw.decode("ascii").strip()
        except UnicodeDecodeError:
            self.dropped += 1
            return None
        if not line:
            return None
        if line == "REMOVED":
            return LineEvent("removed")
        match = _UID_LINE.match(line)
        if match:
            uid = match.group(1).replace(":", "").lower()
            if len(uid) in tuple(2 * n for n in UID_LINE_BYTES):
                return LineEvent("uid", uid)
            self.dropped += 1
            return None
        if line.startswith(("READY", "#", "INFO")):
            return LineEvent("info", line)
        self.dropped += 1
        return None
