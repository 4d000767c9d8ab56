"""nfcpy readers: Sony RC-S380, PN532 over UART, ACR122U, and nfcpy's virtual `udp` frontend.

One ContactlessFrontend per reader, driven by our own loop rather than `clf.connect()` so that there
is no beep, the stop flag is checked between every step, and a held tag is watched with
`tag.is_present`: sense → activate → tap → presence checks → removed.

The udp frontend waits a fixed 1 s for every answer. For it (and only it) the device's receive is
wrapped so that the wait is cut in 50 ms slices that check the stop flag, and a poll for a new tag
waits `sense_timeout` (the emulator answers in a millisecond on the same machine).
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from typing import Any

from kikimimi.devices.config import ReaderSpec
from kikimimi.devices.driver import ChipSilent, DeviceGone, Driver, ReaderUnusable, TagState
from kikimimi.devices.usbport import is_port_path, resolve_port

log = logging.getLogger(__name__)
SLICE = 0.05
GARBLED_IN_A_ROW = 5  # more garbled frames than this in a row: the line is bad, reopen the reader
UDP_MIN_WAIT = 0.05  # commands to an emulated tag: more than a real tag's 3.6 ms, the emulator is Python


class NfcDriver(Driver):
    def __init__(self, spec: ReaderSpec) -> None:
        super().__init__(spec)
        self._clf: Any = None  # nfcpy's ContactlessFrontend (nfcpy has no type hints)
        self._stop: threading.Event | None = None
        self._sensing = False

    def open(self) -> None:
        import nfc  # type: ignore[import-untyped]  # no type hints in nfcpy; imported here: nfcpy pulls in libusb, not needed by serial-only tables

        path = self.spec.path
        if is_port_path(path):
            path = resolve_port(path)  # the reader's usb:BUS:DEV now (it changes on re-plug)
        clf = nfc.ContactlessFrontend()
        try:
            found = clf.open(path)
        except OSError as exc:
            if not (exc.errno in (errno.ENODEV, errno.ETIMEDOUT) and self._uart_chip_restored(path)):
                raise OSError(exc.errno, f"cannot open {self.spec.path}: {exc.strerror or exc}") from exc
            try:
                found = clf.open(path)  # the chip is at 115200 again
            except OSError as again:
                raise OSError(again.errno, f"cannot open {self.spec.path}: {again.strerror or again}") from again
        if not found:
            raise FileNotFoundError(2, f"no nfcpy reader at {self.spec.path} (plugged in? `kikimimi devices "
                                       "list` shows what is there)")
        self._clf = clf
        if self.spec.path.startswith("udp"):
            self._wrap_udp(clf.device)

    def _uart_chip_restored(self, path: str) -> bool:
        """A PN532 on a UART that did not answer at 115200: found at a higher speed and moved back?"""
        if not (path.startswith("tty:") and path.endswith(":pn532")):
            return False
        from kikimimi.devices.pn532_uart import restore_115200, tty_devices

        return any(restore_115200(device) for device in tty_devices(path))

    def close(self) -> None:
        clf, self._clf = self._clf, None
        if clf is not None:
            try:
                clf.close()
            except Exception as exc:  # noqa: BLE001 - a vanished USB device may fail in any way on close
                log.debug("closing %s: %s", self.spec.path, exc)

    def run(self, state: TagState, stop: threading.Event) -> None:
        import nfc.clf  # type: ignore[import-untyped]  # nfcpy ships no type hints
        import nfc.tag  # type: ignore[import-untyped]  # nfcpy ships no type hints

        clf = self._clf
        assert clf is not None, "open() first"
        self._stop = stop
        targets = [nfc.clf.RemoteTarget(brty) for brty in self.spec.options["targets"]]
        every = self.spec.options["presence_interval"]
        garbled = 0
        while not stop.is_set():
            self.beat()  # a sensing cycle with no tag is short (udp: sense_timeout per target type)
            try:
                self._sensing = True
                target = clf.sense(*targets, iterations=1, interval=0)
                self._sensing = False
                garbled = 0  # the chip answered whole frames again
                if target is None or stop.is_set():
                    continue
                tag = nfc.tag.activate(clf, target)
                if tag is None:
                    continue
                state.seen(tag.identifier.hex())
                while not stop.wait(every) and tag.is_present:
                    self.beat()
                if not stop.is_set():
                    state.gone()
            except nfc.clf.CommunicationError as exc:
                log.debug("%s: %s", self.spec.path, exc)  # a tag moved away mid-exchange: poll again
                state.gone()
            except nfc.clf.UnsupportedTargetError as exc:
                raise ReaderUnusable(f"{self.spec.path}: {exc}; remove it from `targets`") from exc
            except OSError as exc:
                # nfcpy turns a bad frame and no frame at all into the same EIO: ask the chip to tell them apart
                if exc.errno in (errno.EIO, errno.ETIMEDOUT) and garbled < GARBLED_IN_A_ROW \
                        and _chip_answers(clf):
                    garbled += 1  # a frame whose checksum failed: dropped (never a tap); the held tag stays
                    self.dropped += 1
                    log.debug("%s: garbled frame dropped (%s)", self.spec.path, exc)
                    continue
                if exc.errno in (errno.EIO, errno.ETIMEDOUT) and self.spec.path.startswith("tty:"):
                    raise ChipSilent(f"{self.spec.path}: the chip stopped answering") from exc
                raise DeviceGone(f"{self.spec.path}: lost ({exc})") from exc
            finally:
                self._sensing = False

    def _wrap_udp(self, device: Any) -> None:  # nfcpy's udp Device (no type hints)
        """Make the udp frontend's blocking receive stoppable and its tag polls short (see module doc)."""
        import nfc.clf

        original = device._recv_data
        sense_timeout = self.spec.options["sense_timeout"]

        def recv(timeout: float | None, *brty_list: str) -> bytearray:
            wait = sense_timeout if self._sensing else max(timeout or 0.0, UDP_MIN_WAIT)
            deadline = time.monotonic() + wait
            while True:
                if self._stop is not None and self._stop.is_set():
                    raise nfc.clf.TimeoutError("reader stopping")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise nfc.clf.TimeoutError("no data received")
                try:
                    data: bytearray = original(min(left, SLICE), *brty_list)
                    return data
                except nfc.clf.TimeoutError:
                    continue

        device._recv_data = recv


def _chip_answers(clf: Any) -> bool:  # clf: nfcpy's ContactlessFrontend (no type hints)
    """Whether the reader's chip (a PN53x) answers a GetFirmwareVersion now."""
    chipset = getattr(clf.device, "chipset", None)
    if chipset is None or not hasattr(chipset, "get_firmware_version"):
        return False
    try:
        chipset.get_firmware_version()
    except Exception:  # noqa: BLE001 - any failure means it does not answer
        return False
    return True
