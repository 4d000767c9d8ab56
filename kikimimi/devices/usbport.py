"""USB port paths: a name for an nfcpy USB reader that survives a re-plug.

nfcpy tells identical readers apart only by `usb:BUS:DEV`, and the device number changes every time a
reader is plugged in again. The USB port it sits in does not: Linux names it in sysfs as
`BUS-PORT[.PORT...]` (e.g. `1-1.2`: bus 1, port 2 of the hub on port 1). A reader configured as
`path = "usb-port:1-1.2"` is looked up there when it is opened and handed to nfcpy as `usb:BUS:DEV`.
"""

from __future__ import annotations

import re
from pathlib import Path

SYSFS_USB = Path("/sys/bus/usb/devices")
PREFIX = "usb-port:"
_PORT = re.compile(r"^[0-9]+-[0-9]+(\.[0-9]+)*$")


def is_port_path(path: str) -> bool:
    return path.startswith(PREFIX) and bool(_PORT.match(path[len(PREFIX):]))


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def port_of(bus: int, dev: int, sysfs: Path = SYSFS_USB) -> str | None:
    """The port (`1-1.2`) of the USB device at bus:dev, or None if sysfs does not list it."""
    try:
        entries = list(sysfs.iterdir())
    except OSError:
        return None
    for entry in entries:
        if not _PORT.match(entry.name):  # skips root hubs (usb1) and interfaces (1-1.2:1.0)
            continue
        if _read_int(entry / "busnum") == bus and _read_int(entry / "devnum") == dev:
            return entry.name
    return None


def port_from_numbers(bus: int, ports: list[int] | tuple[int, ...]) -> str | None:
    """The sysfs port name from libusb's bus number and port-number list (`1`, `[1, 2]` -> `1-1.2`)."""
    if not ports:
        return None
    return f"{bus}-{'.'.join(str(p) for p in ports)}"


def resolve_port(path: str, sysfs: Path = SYSFS_USB) -> str:
    """`usb-port:1-1.2` -> the nfcpy path `usb:BUS:DEV` of what is plugged in there now.

    Raises FileNotFoundError (errno 2) with a readable message when nothing is in that port.
    """
    port = path[len(PREFIX):]
    bus, dev = _read_int(sysfs / port / "busnum"), _read_int(sysfs / port / "devnum")
    if bus is None or dev is None:
        raise FileNotFoundError(2, f"nothing is plugged into USB port {port} ({path}); plug the reader back "
                                   "into the port it was bound to, or bind it again with "
                                   "`kikimimi bringup --assign`")
    return f"usb:{bus:03d}:{dev:03d}"
