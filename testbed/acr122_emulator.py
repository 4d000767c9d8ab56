"""An ACS ACR122U emulated at its USB bulk endpoints, for the tests of nfcpy's `acr122` driver.

The ACR122U is a PN532 behind a CCID microcontroller: the host sends PC_to_RDR_XfrBlock messages
(`6F LEN(4, LE) SLOT SEQ 00 00 00` + data) and gets RDR_to_PC_DataBlock answers (`80 LEN(4) SLOT SEQ
STATUS ERROR CHAIN` + data). The data are the reader's pseudo-APDUs: `FF 00 48 00 00` (its firmware
version), `FF 00 51 ...` (PICC parameters), `FF 00 40 ...` (LED and buzzer), and `FF 00 00 00 LEN D4 CMD
...`, a PN532 command, answered `D5 CMD+1 ... 90 00` by the same PN532 the UART tests use
(testbed/pn532_emulator.py). The USB side is the caller's (tests/devices/usb_umockdev.py).
"""

from __future__ import annotations

import struct
import threading
from collections import deque

from testbed.pn532_emulator import Pn532Core

FIRMWARE = b"ACR122U207"
OK = b"\x90\x00"


class Acr122Chip(Pn532Core):
    """tag: the UID (hex) of the Type 2 tag on the reader, or None."""

    def __init__(self) -> None:
        super().__init__()
        self._out: deque[bytes] = deque()
        self._lock = threading.Lock()

    def write(self, raw: bytes) -> None:
        if len(raw) < 10:
            return
        kind, length, slot, seq = raw[0], struct.unpack("<I", raw[1:5])[0], raw[5], raw[6]
        data = bytes(raw[10:10 + length])
        if kind == 0x62:  # PC_to_RDR_IccPowerOn: the answer to reset of the (virtual) card
            answer = bytes.fromhex("3B8F8001804F0CA0000003060300030000000068")
        elif kind == 0x6F:
            answer = self._apdu(data)
        else:
            return
        with self._lock:
            self._out.append(struct.pack("<BIBBBBB", 0x80, len(answer), slot, seq, 0, 0, 0) + answer)

    def read(self) -> bytes | None:
        with self._lock:
            return self._out.popleft() if self._out else None

    def _apdu(self, data: bytes) -> bytes:
        if data[:4] == b"\xff\x00\x48\x00":
            return FIRMWARE
        if data[:4] == b"\xff\x00\x00\x00" and len(data) > 6 and data[5] == 0xD4:
            answer = self.answer(data[6], data[7:])
            if answer is None:
                return b"\x63\x00"  # the PN532 did not take it
            return bytes([0xD5, data[6] + 1]) + answer + OK
        return OK  # PICC parameters, LED and buzzer, an ACK: done
