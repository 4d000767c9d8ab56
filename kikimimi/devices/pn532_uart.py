"""Getting a PN532 on a UART back from whatever speed it was left at.

nfcpy moves the PN532 to 921600 baud (or the fastest the port takes) at open and back to 115200 only in
`close()`. A chip that hung, or a table killed with SIGKILL, leaves it at the higher speed until it is
power-cycled, while nfcpy always opens at 115200: the chip hears noise, never answers, and the reader
would stay "reconnecting" for ever. Before reopening, `restore_115200` asks the chip at each higher
speed and, where it answers, moves it back to 115200 (SetSerialBaudrate, effective after our ACK).
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)
ACK = bytes.fromhex("0000FF00FF00")  # either side's acknowledgement of a frame
HIGHER_SPEEDS = (921600, 460800, 230400)


def frame(data: bytes) -> bytes:
    """A host-to-chip or chip-to-host information frame around TFI + data."""
    if len(data) < 255:
        head = bytes([0, 0, 0xFF, len(data), (256 - len(data)) & 0xFF])
    else:
        n = len(data)
        head = bytes([0, 0, 0xFF, 0xFF, 0xFF, n >> 8, n & 0xFF, (256 - (n >> 8) - (n & 0xFF)) & 0xFF])
    return head + data + bytes([(256 - sum(data)) & 0xFF, 0])


GET_FIRMWARE_VERSION = bytes(10) + frame(b"\xd4\x02")  # with the long preamble that wakes an HSU chip
TO_115200 = frame(b"\xd4\x10\x04")  # SetSerialBaudrate, index 4 = 115200


def tty_devices(path: str) -> list[str]:
    """The /dev files nfcpy would open for a `tty:NAME:DRIVER` path."""
    from nfc.clf.transport import TTY  # type: ignore[import-untyped]  # nfcpy ships no type hints

    found = TTY.find(path)
    return list(found[0]) if found else []


def restore_115200(device: str) -> int | None:
    """The speed the PN532 on `device` was found at (now moved back to 115200), or None if it did not
    answer at any higher speed (absent, silent, or already at 115200)."""
    import serial  # type: ignore[import-untyped]  # pyserial ships no type hints (stubs are a separate package)

    for speed in HIGHER_SPEEDS:
        try:
            with serial.Serial(device, speed, timeout=0.1) as port:
                port.reset_input_buffer()
                port.write(GET_FIRMWARE_VERSION)
                if port.read(len(ACK)) != ACK:
                    continue
                port.read(16)  # the firmware version frame
                port.reset_input_buffer()
                port.write(TO_115200)
                if port.read(len(ACK)) != ACK:
                    continue
                port.read(9)  # D5 11: the change is made once the chip gets our ACK
                port.write(ACK)
                port.flush()
                time.sleep(0.01)
        except (OSError, serial.SerialException) as exc:
            log.debug("%s at %d baud: %s", device, speed, exc)
            return None
        log.warning("%s: the PN532 was left at %d baud (a previous run did not close it); moved back to "
                    "115200", device, speed)
        return speed
    return None
