"""What is plugged in: nfcpy USB readers (with bus:device) and serial ports (VID:PID, serial, location)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kikimimi.devices.usbport import PREFIX, port_from_numbers


@dataclass(frozen=True)
class UsbReader:
    path: str  # usb:BUS:DEV, tells identical readers apart (changes when replugged)
    vid_pid: str  # usb:VID:PID
    driver: str  # nfcpy driver module
    name: str
    port: str | None = None  # usb-port:1-1.2: the USB port it is plugged into, stable across replugs


@dataclass(frozen=True)
class SerialPort:
    device: str
    by_id: str | None  # /dev/serial/by-id/... link: stable across replugs, best in a config
    vid_pid: str | None
    serial_number: str | None
    location: str | None  # USB port path, e.g. 1-1.2:1.0
    description: str


LIBUSB_HINT = "nfcpy needs libusb: sudo apt-get install libusb-1.0-0"
_NAMES = {"rcs380": "Sony RC-S380", "rcs956": "Sony RC-S330/360/370", "acr122": "ACS ACR122U (unreliable)",
          "pn533": "PN533 reader", "pn531": "PN531 reader"}


def nfc_usb_readers() -> tuple[list[UsbReader], str | None]:
    """nfcpy-supported USB readers, and a note if USB could not be listed at all."""
    try:
        import usb1  # type: ignore[import-untyped]  # libusb1 ships no type hints
        from nfc.clf.device import usb_device_map  # type: ignore[import-untyped]  # nfcpy ships no type hints
    except ImportError as exc:
        return [], f"cannot list USB devices: {exc}"
    found: list[UsbReader] = []
    try:
        with usb1.USBContext() as ctx:
            for dev in ctx.getDeviceIterator(skip_on_error=True):
                vid, pid = dev.getVendorID(), dev.getProductID()
                driver = usb_device_map.get((vid, pid))
                if driver:
                    bus = dev.getBusNumber()
                    port = port_from_numbers(bus, dev.getPortNumberList())
                    found.append(UsbReader(f"usb:{bus:03d}:{dev.getDeviceAddress():03d}",
                                           f"usb:{vid:04x}:{pid:04x}", driver, _NAMES.get(driver, driver),
                                           f"{PREFIX}{port}" if port else None))
    except OSError as exc:  # libusb missing: FileNotFoundError from usb1's loader
        return found, f"cannot list USB devices: {exc.strerror or exc}; {LIBUSB_HINT}"
    except usb1.USBError as exc:
        return found, f"cannot list USB devices: {exc}"
    return found, None


def serial_ports() -> list[SerialPort]:
    from serial.tools import list_ports  # type: ignore[import-untyped]  # pyserial ships no type hints (stubs are a separate package)

    by_id = {}
    links = Path("/dev/serial/by-id")
    if links.is_dir():
        by_id = {os.path.realpath(p): str(p) for p in links.iterdir()}
    ports = []
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        vid_pid = f"{port.vid:04x}:{port.pid:04x}" if port.vid is not None else None
        ports.append(SerialPort(port.device, by_id.get(os.path.realpath(port.device)), vid_pid,
                                port.serial_number, port.location, port.description or ""))
    return ports
