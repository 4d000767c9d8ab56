"""Reader paths that survive a re-plug, for what `--assign` writes into the table's config.

- A serial adapter: `/dev/serial/by-id/...` (its serial number), or `/dev/serial/by-path/...` (the USB
  port) when adapters are identical (CH340 clones share one serial number, so by-id cannot tell them
  apart). A path that is already a link someone chose (a udev SYMLINK) is kept.
- An nfcpy USB reader: `usb-port:BUS-PORT` (kikimimi/devices/usbport.py) instead of `usb:BUS:DEV`.
- A PN532 on a serial adapter (`tty:USB0:pn532`): nfcpy takes only a name in /dev, so the stable
  form is a udev SYMLINK (`tty:kikimimi-field:pn532`); the note says how.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from kikimimi.devices.listing import SerialPort
from kikimimi.devices.usbport import PREFIX, SYSFS_USB, is_port_path, port_of

SERIAL_DIR = Path("/dev/serial")
_BUS_DEV = re.compile(r"^usb:([0-9]{1,3}):([0-9]{1,3})$")


def _links_to(folder: Path, real: str) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if os.path.realpath(p) == real)
    except OSError:
        return []


def _identical(real: str, ports: Sequence[SerialPort] | None) -> bool:
    """Another adapter plugged in has the same VID:PID and serial number (or none): by-id is ambiguous."""
    if not ports:
        return False
    me = next((p for p in ports if os.path.realpath(p.device) == real), None)
    if me is None:
        return False
    if not me.serial_number:
        return True
    twins = [p for p in ports if (p.vid_pid, p.serial_number) == (me.vid_pid, me.serial_number)]
    return len(twins) > 1


def stable_serial_path(device: str, ports: Sequence[SerialPort] | None = None,
                       serial_dir: Path = SERIAL_DIR) -> tuple[str, str | None]:
    """(the path to write, a note when it is not stable)."""
    path = Path(device)
    if str(path).startswith(str(serial_dir) + os.sep):
        return device, None
    if path.is_symlink():
        return device, None  # a name given by a udev rule (or by hand): the owner chose it
    real = os.path.realpath(device)
    by_id = _links_to(serial_dir / "by-id", real)
    by_path = _links_to(serial_dir / "by-path", real)
    if by_id and not (by_path and _identical(real, ports)):
        return str(by_id[0]), None
    if by_path:
        return str(by_path[0]), None
    return device, (f"{device} has no /dev/serial/by-id or by-path name, so it may change when replugged; "
                    "give it a name with a udev SYMLINK rule (hardware_docs/bringup.md)")


def stable_nfc_path(path: str, sysfs: Path = SYSFS_USB) -> tuple[str, str | None]:
    """`usb:BUS:DEV` -> `usb-port:...`; other nfcpy paths as they are, with a note when they may move."""
    match = _BUS_DEV.match(path)
    if match:
        port = port_of(int(match.group(1)), int(match.group(2)), sysfs)
        if port:
            return f"{PREFIX}{port}", None
        return path, f"{path} changes when the reader is replugged, and its USB port is not known (no sysfs?)"
    if is_port_path(path) or path.startswith("udp"):
        return path, None
    if path.startswith(("tty:USB", "tty:ACM")):
        return path, (f"{path}: ttyUSB/ttyACM numbers follow plug-in order; add a udev SYMLINK rule for the "
                      "adapter and write tty:NAME:pn532 (hardware_docs/bringup.md)")
    return path, None
