"""A USB reader on an emulated USB bus, for nfcpy's real drivers and USB transport (libusb): a Sony RC-S380
(`rcs380`, the default) or an ACS ACR122U (`acr122u`).

Run under umockdev's preload (`umockdev-wrapper python usb_umockdev.py [rcs380|acr122u]`): umockdev gives
the process a /sys with the reader (at bus 1, device 2, its descriptors) and a /dev/bus/usb/001/002 whose
usbdevfs ioctls come to `UsbdevfsChip` below, which answers them as the kernel would (capabilities,
claiming the interface, URBs submitted, reaped and discarded) and hands the bulk transfers to the chip
emulator (testbed/rcs380_emulator.py, testbed/acr122_emulator.py). libusb,
python-libusb1, nfcpy's transport and driver and kikimimi's hub all run for real above it.

The process reads commands on stdin (`tag UID`, `lift`, `quit`) and prints one JSON line per reader
event and health change. umockdev's Python bindings are Debian's python3-gi (gir1.2-umockdev-1.0).
"""

from __future__ import annotations

import ctypes
import errno
import json
import struct
import sys
import threading
import time
from collections import deque

sys.path.append("/usr/lib/python3/dist-packages")  # Debian's python3-gi: not on PyPI as a wheel for this
import gi  # noqa: E402

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

from testbed.acr122_emulator import Acr122Chip  # noqa: E402
from testbed.rcs380_emulator import Rcs380Chip  # noqa: E402

# linux/usbdevice_fs.h (64-bit)
GET_CAPABILITIES, CLAIM, RELEASE, SUBMITURB = 0x8004551A, 0x8004550F, 0x80045510, 0x8038550A
REAPURB, REAPURBNDELAY, DISCARDURB = 0x4008550C, 0x4008550D, 0x0000550B
SETINTERFACE, SETCONFIGURATION, CLEAR_HALT, RESET, RESETEP = 0x80085504, 0x80045505, 0x80045515, 0x5514, 0x80045503
GETDRIVER, IOCTL, CONNECTINFO, GET_SPEED = 0x41045508, 0xC0105512, 0x40085511, 0x551F
URB_SIZE, URB_CONTROL = 56, 2
CAPS = 0x01 | 0x02 | 0x04 | 0x08  # zero packet, bulk continuation, no packet size limit, bulk scatter-gather

RCS380 = {
    "path": "usb:054c:06c1", "vid_pid": "54c/6c1/101", "vendor": "054c", "product": "06c1",
    "descriptors": bytes.fromhex(
        "12010002000000404c05c106010101020301"  # device: USB 2.0, 054c:06c1, strings 1-3, one configuration
        "0902200001010080fa"  # configuration: 32 bytes, one interface
        "0904000002ffffff00"  # interface 0: two endpoints, vendor class
        "07058102400000"  # endpoint 0x81 bulk IN, 64 bytes
        "07050202400000"),  # endpoint 0x02 bulk OUT, 64 bytes
    "strings": {1: "SONY", 2: "RC-S380/P", 3: "0123456"},
}
ACR122U = {
    "path": "usb:072f:2200", "vid_pid": "72f/2200/214", "vendor": "072f", "product": "2200",
    "descriptors": bytes.fromhex(
        "12011001000000082f070022140201020001"  # device: USB 1.1, 072f:2200, strings 1-2, no serial number
        "0902270001010080c8"  # configuration: 39 bytes, one interface
        "09040000030b000000"  # interface 0: three endpoints, smart card (CCID) class
        "07050202400000"  # endpoint 0x02 bulk OUT
        "07058202400000"  # endpoint 0x82 bulk IN
        "0705810308000a"),  # endpoint 0x81 interrupt IN (card events)
    "strings": {1: "ACS", 2: "ACR122U PICC Interface"},
}
DEVICES = {"rcs380": RCS380, "acr122u": ACR122U}

ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def raw(data) -> bytes:
    """The bytes an IoctlData holds. Its `data` field is a uint8 array that the bindings read as a C string
    (cut at the first zero byte), so it is read from the object's own struct instead: GObject (24 bytes),
    then `guint8* data` and `gint data_length1`, as umockdev 0.17 (Debian bookworm) lays it out."""
    struct_at = ctypes.pythonapi.PyCapsule_GetPointer(data.__gpointer__, None)
    pointer = ctypes.c_void_p.from_address(struct_at + 24).value
    length = ctypes.c_int.from_address(struct_at + 32).value
    return ctypes.string_at(pointer, length) if pointer else b""


def string_descriptor(index: int, strings: dict[int, str]) -> bytes:
    if index == 0:
        return bytes([4, 3, 0x09, 0x04])  # language: English (US)
    text = strings.get(index, "").encode("utf-16-le")
    return bytes([2 + len(text), 3]) + text


class UsbdevfsChip(UMockdev.IoctlBase):
    def __init__(self, chip, device: dict) -> None:
        super().__init__()
        self.chip = chip
        self.device = device
        self.waiting_in: deque = deque()  # (urb, buffer) of bulk IN transfers waiting for the chip
        self.done: deque = deque()  # (urb, buffer, status, payload, offset): to be reaped
        self.lock = threading.Lock()

    def do_handle_ioctl(self, client) -> bool:
        request = client.get_request() & 0xFFFFFFFF
        arg = client.get_arg()
        if request == GET_CAPABILITIES:
            arg.resolve(0, 4).update(0, list(struct.pack("<I", CAPS)))
            client.complete(0, 0)
        elif request in (CLAIM, RELEASE, SETINTERFACE, SETCONFIGURATION, CLEAR_HALT, RESET, RESETEP):
            client.complete(0, 0)
        elif request in (GETDRIVER, IOCTL):
            client.complete(-1, errno.ENODATA)  # no kernel driver holds the interface
        elif request == GET_SPEED:
            client.complete(3, 0)  # USB_SPEED_HIGH
        elif request == SUBMITURB:
            self._submit(arg)
            client.complete(0, 0)
        elif request in (REAPURB, REAPURBNDELAY):
            self._reap(client, arg)
        elif request == DISCARDURB:
            address = int.from_bytes(raw(arg)[:8], "little")
            with self.lock:
                hit = next((w for w in self.waiting_in if w[0].client_addr == address), None)
                if hit is not None:
                    self.waiting_in.remove(hit)
                    self.done.append((hit[0], hit[1], -errno.ENOENT, b"", 0))
            client.complete(0, 0) if hit is not None else client.complete(-1, errno.EINVAL)
        else:
            client.complete(-1, errno.ENOTTY)
        return True

    def _submit(self, arg) -> None:
        urb = arg.resolve(0, URB_SIZE)
        head = raw(urb)
        kind, endpoint = head[0], head[1]
        length = struct.unpack("<i", head[24:28])[0]
        buffer = urb.resolve(16, length)
        with self.lock:
            if kind == URB_CONTROL:
                setup = raw(buffer)[:8]
                request_type, request, value, index, size = struct.unpack("<BBHHH", setup)
                answer = b""
                if request == 6 and value >> 8 == 3:  # GET_DESCRIPTOR, string
                    answer = string_descriptor(value & 0xFF, self.device["strings"])[:size]
                elif request == 6 and value >> 8 in (1, 2):
                    descriptors = self.device["descriptors"]
                    answer = descriptors[:18] if value >> 8 == 1 else descriptors[18:]
                    answer = answer[:size]
                self.done.append((urb, buffer, 0, answer, 8))
            elif endpoint & 0x80:
                self.waiting_in.append((urb, buffer))
            else:
                self.chip.write(raw(buffer)[:length])
                self.done.append((urb, buffer, 0, None, length))

    def _reap(self, client, arg) -> None:
        with self.lock:
            while self.waiting_in:  # a bulk IN transfer gets the chip's next frame, if it has one
                data = self.chip.read()
                if data is None:
                    break
                urb, buffer = self.waiting_in.popleft()
                self.done.append((urb, buffer, 0, data, 0))
            if not self.done:
                client.complete(-1, errno.EAGAIN)
                return
            urb, buffer, status, payload, offset = self.done.popleft()
        if payload is None:  # an OUT transfer: all of it went
            actual = offset
        else:
            if payload:
                buffer.update(offset, list(payload))
            actual = len(payload)
        urb.update(4, list(struct.pack("<i", status)))
        urb.update(28, list(struct.pack("<i", actual)))
        arg.resolve(0, 8).set_ptr(0, urb)
        client.complete(0, 0)


def testbed(chip, device: dict = RCS380):
    bed = UMockdev.Testbed.new()
    handler = UsbdevfsChip(chip, device)
    bed.attach_ioctl("/dev/bus/usb/001/002", handler)
    bed.add_from_string(
        "P: /devices/pci0000:00/usb1/1-1\nN: bus/usb/001/002\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\n"
        f"E: DEVNAME=/dev/bus/usb/001/002\nE: BUSNUM=001\nE: DEVNUM=002\nE: PRODUCT={device['vid_pid']}\n"
        "A: busnum=1\\n\nA: devnum=2\\n\nA: speed=480\\n\nA: bConfigurationValue=1\\n\n"
        f"A: idVendor={device['vendor']}\\n\nA: idProduct={device['product']}\\n\n"
        f"H: descriptors={device['descriptors'].hex()}\n")
    return bed, handler


def main() -> int:
    if "--debug" in sys.argv:
        import logging

        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
    from kikimimi.devices.config import parse_readers
    from kikimimi.devices.hub import Hub

    kind = next((a for a in sys.argv[1:] if a in DEVICES), "rcs380")
    device = DEVICES[kind]
    chip = Rcs380Chip() if kind == "rcs380" else Acr122Chip()
    bed, handler = testbed(chip, device)  # noqa: F841 - kept alive while the hub runs
    out_lock = threading.Lock()

    def say(record: dict) -> None:
        with out_lock:
            print(json.dumps(record), flush=True)

    entry = {"path": device["path"], "profile": "rcs380", "targets": ["212F"]} if kind == "rcs380" else \
        {"path": device["path"], "profile": "acr122u-nfcpy"}
    specs = parse_readers({"field": entry}, "umockdev")
    hub = Hub(specs, debounce=0.05, on_health=lambda role, h: say({"health": h.status, "detail": h.detail}))
    hub.start()

    def events() -> None:
        while True:
            event = hub.get(timeout=0.2)
            if event is not None:
                say({"event": event.kind, "uid": event.uid, "reader": event.reader})

    threading.Thread(target=events, daemon=True).start()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "tag":
            chip.tag = words[1]
        elif words[0] == "lift":
            chip.tag = None
        elif words[0] == "quit":
            break
    hub.stop()
    say({"stopped": True, "commands": chip.commands})
    time.sleep(0.1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
