"""A PN532 in HSU (UART) mode, emulated on a pseudo-terminal, for tests and benchmarks.

nfcpy's real `tty` transport and `pn532` driver talk to it: the reader path is `tty:NAME:pn532` with
/dev/NAME a symlink to the pty's slave (creating it needs root). It answers what nfcpy sends at open
(GetFirmwareVersion, SAMConfiguration, Diagnose line test, SetParameters, RFConfiguration, the move to
921600 baud with SetSerialBaudrate), when sensing 106A tags (InListPassiveTarget, the CIU registers),
activating a Type 2 tag and checking its presence (InCommunicateThru READ), and at close (the move back
to 115200, PowerDown).

Frames: `00 00 FF LEN LCS D4 CMD DATA... DCS 00` (extended: `00 00 FF FF FF LENM LENL LCS ...`), the
chip answers an ACK `00 00 FF 00 FF 00` then `... D5 CMD+1 DATA... DCS 00`.

The chip's own UART speed is modelled: bytes the host sends at another speed are noise to it and get no
answer. nfcpy moves the chip to 921600 baud after open and back only in close(), so a host that dies in
between leaves the chip at 921600 (the trap the driver's reopening must get out of).
"""

from __future__ import annotations

import contextlib
import os
import select
import termios
import threading
import time
import tty
import uuid
from pathlib import Path

from kikimimi.devices.pn532_uart import ACK, frame

SYNTAX_ERROR = bytes.fromhex("0000FF01FF7F8100")
SPEEDS = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
_TERMIOS_SPEED = {getattr(termios, f"B{s}"): s for s in SPEEDS if hasattr(termios, f"B{s}")}
CIU_FIFO_DATA = 0x6309
NO_TAG_DELAY = 0.01  # a real chip's InListPassiveTarget without a tag takes a few ms of RF timeout


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte ^= (byte << 4) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, crc >> 8])


def cascade(uid: bytes) -> bytes:
    """The UID as nfcpy's sense_tta sends it back in InListPassiveTarget (cascade tags 88 inserted)."""
    if len(uid) > 4:
        uid = b"\x88" + uid
    if len(uid) > 8:
        uid = uid[0:4] + b"\x88" + uid[4:]
    return uid


class Pn532Core:
    """What a PN532 answers to each command (`answer(code, data)`), whatever carries the frames: a UART
    here, USB CCID in an ACR122U (testbed/acr122_emulator.py).

    tag: the UID (hex) of the Type 2 tag on the reader, or None.
    """

    def __init__(self) -> None:
        self.tag: str | None = None
        self.commands = 0  # commands the chip understood
        self.speed = 115200  # the chip's UART speed: power-on default
        self._pending_speed: int | None = None
        self._registers: dict[int, int] = {}
        self._selected: str | None = None

    def answer(self, command: int, data: bytes) -> bytes | None:
        """The data after D5 CMD+1 for a command (None: a command the chip does not know)."""
        self.commands += 1
        return self._answer(command, data)

    def _answer(self, command: int, data: bytes) -> bytes | None:
        if command == 0x00:  # Diagnose: the line test echoes its data
            return data if data[:1] == b"\x00" else b"\x00"
        if command == 0x02:  # GetFirmwareVersion: PN532 v1.6, supports ISO 14443A/B and ISO 18092
            return bytes([0x32, 0x01, 0x06, 0x07])
        if command == 0x04:  # GetGeneralStatus
            return bytes([0x00, 0x00, 0x00])
        if command == 0x06:  # ReadRegister
            addresses = [data[i] << 8 | data[i + 1] for i in range(0, len(data) - 1, 2)]
            return bytes(0x26 if a == CIU_FIFO_DATA else self._registers.get(a, 0) for a in addresses)
        if command == 0x08:  # WriteRegister
            for i in range(0, len(data) - 2, 3):
                self._registers[data[i] << 8 | data[i + 1]] = data[i + 2]
            return b""
        if command == 0x10:  # SetSerialBaudrate: effective once the host ACKs the answer
            self._pending_speed = SPEEDS[data[0]]
            return b""
        if command in (0x12, 0x14, 0x32):  # SetParameters, SAMConfiguration, RFConfiguration
            return b""
        if command == 0x16:  # PowerDown
            return b"\x00"
        if command == 0x4A:  # InListPassiveTarget
            return self._list_target(data[1], data[2:])
        if command == 0x42:  # InCommunicateThru: a Type 2 tag answers READ; other commands time out
            uid = self.tag
            if uid is not None and uid == self._selected and data[:1] == b"\x30":
                page = bytes.fromhex(uid)[:3] + bytes(13)
                return b"\x00" + page + crc_a(page)
            return b"\x01"
        if command in (0x40, 0x44, 0x52):  # InDataExchange, InDeselect, InRelease
            return b"\x01" if command == 0x40 else b"\x00"
        return None

    def _list_target(self, brty: int, initiator: bytes) -> bytes:
        uid_hex = self.tag
        if brty == 0 and uid_hex is not None:
            uid = bytes.fromhex(uid_hex)
            if not initiator or initiator == cascade(uid):
                self._selected = uid_hex  # a tag put in its place later is not selected: it does not answer
                sens_res = b"\x00\x44" if len(uid) == 7 else b"\x00\x04"
                return bytes([1, 1]) + sens_res + bytes([0x00, len(uid)]) + uid
        time.sleep(NO_TAG_DELAY)
        return b"\x00"


class Pn532Emulator(Pn532Core):
    """One PN532 on a pty, reachable as `self.path` (tty:NAME:pn532) while plugged in.

    tag: the UID (hex) of the Type 2 tag on the reader, or None. silent: the chip stops answering.
    garble: how many of the next answers about tags (InListPassiveTarget, InCommunicateThru) to corrupt
    (a flipped data byte: the checksum fails).
    """

    def __init__(self, name: str | None = None, dev: Path = Path("/dev")) -> None:
        super().__init__()
        self.name = name or f"kikimimi-pn532-{uuid.uuid4().hex[:8]}"
        self.link = dev / self.name
        self.silent = threading.Event()
        self.garble = 0
        self.noise = 0  # bytes it could not understand (sent at another speed)
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    @property
    def path(self) -> str:
        return f"tty:{self.name}:pn532"

    # -- the adapter ---------------------------------------------------------------------------------

    def plug(self, power_cycle: bool = True) -> None:
        """Plug the USB-UART adapter in (a fresh pty); `power_cycle`: the chip restarts at 115200."""
        if power_cycle:
            self.speed, self._pending_speed, self._registers = 115200, None, {}
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        target = os.ttyname(self._slave)
        tmp = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.symlink(target, tmp)
        os.replace(tmp, self.link)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(self._master, self._slave, self._stop),
                                        name=f"pn532-{self.name}", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def close(self) -> None:
        self.unplug()

    def __enter__(self) -> Pn532Emulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the chip ------------------------------------------------------------------------------------

    def _host_speed(self, slave: int) -> int:
        try:
            return _TERMIOS_SPEED.get(termios.tcgetattr(slave)[4], 0)
        except termios.error:
            return 0

    def _serve(self, master: int, slave: int, stop: threading.Event) -> None:
        buffer = b""
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            buffer = self._frames(buffer, master, slave)

    def _frames(self, buffer: bytes, master: int, slave: int) -> bytes:
        """Handle every whole frame in `buffer`; return what is left (a frame still arriving)."""
        while True:
            start = buffer.find(b"\x00\xff")
            if start < 0:
                return buffer[-1:]
            body = buffer[start + 2:]
            if len(body) < 2:
                return buffer[start:]
            if body[0] == 0x00 and body[1] == 0xFF:  # ACK from the host
                buffer = body[3:] if len(body) >= 3 else b""
                if self._pending_speed is not None:
                    self.speed, self._pending_speed = self._pending_speed, None  # effective after the ACK
                continue
            if body[0] == 0xFF and body[1] == 0xFF:  # extended frame
                if len(body) < 5:
                    return buffer[start:]
                length, offset = body[2] << 8 | body[3], 5
            else:
                length, offset = body[0], 2
            if len(body) < offset + length + 2:
                return buffer[start:]
            data = body[offset:offset + length]
            buffer = body[offset + length + 2:]
            host = self._host_speed(slave)
            if self._pending_speed is not None and host == self._pending_speed:
                # The host's ACK was sent, but nfcpy's reopen flushes the port's output and a pty drops
                # bytes its other end has not read yet (a UART adapter would have sent them): the ACK
                # happened, as the host now talks at the new speed.
                self.speed, self._pending_speed = self._pending_speed, None
            if host != self.speed:
                self.noise += length  # sent at another speed: garbage to the chip, no answer
                continue
            if sum(data) & 0xFF != (256 - body[offset + length]) & 0xFF or not data or data[0] != 0xD4:
                continue  # a frame the chip cannot read: it stays silent
            if self.silent.is_set():
                continue
            answer = self.answer(data[1], data[2:])
            try:
                os.write(master, ACK)
                if answer is None:
                    os.write(master, SYNTAX_ERROR)
                    continue
                reply = frame(bytes([0xD5, data[1] + 1]) + answer)
                if self.garble > 0 and data[1] in (0x4A, 0x42):
                    self.garble -= 1
                    reply = bytearray(reply)
                    reply[-3] ^= 0x5A  # a data byte flipped on the wire: the checksum no longer adds up
                    reply = bytes(reply)
                os.write(master, reply)
            except OSError:
                return b""
