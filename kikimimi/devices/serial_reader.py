"""Serial readers through pyserial: RDM6300 / EM4100 modules and the uid-line Arduino bridge."""

from __future__ import annotations

import contextlib
import os
import threading
import time

import serial  # type: ignore[import-untyped]  # pyserial ships no type hints (stubs are a separate package)

from kikimimi.devices.config import ReaderSpec
from kikimimi.devices.driver import DeviceGone, Driver, TagState
from kikimimi.devices.frames import Rdm6300Parser, UidLineParser

READ_SLICE = 0.05  # longest blocking read: bounds stop latency and the removal timer's precision


class SerialDriver(Driver):
    def __init__(self, spec: ReaderSpec) -> None:
        super().__init__(spec)
        self._port: serial.Serial | None = None

    def open(self) -> None:
        try:
            # exclusive: a second process (a stray `devices watch`) cannot steal bytes from the table
            self._port = serial.Serial(self.spec.path, baudrate=self.spec.options["baudrate"],
                                       timeout=READ_SLICE, exclusive=True)
        except serial.SerialException as exc:
            raise _as_os_error(exc, self.spec.path) from exc

    def close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError, serial.SerialException):  # already gone with the device
                port.close()

    def interrupt(self) -> None:
        port = self._port
        if port is not None:
            with contextlib.suppress(OSError, AttributeError, serial.SerialException):
                port.cancel_read()

    def run(self, state: TagState, stop: threading.Event) -> None:
        port = self._port
        assert port is not None, "open() first"
        silence = float(self.spec.options.get("removal_silence", 0.0))
        last_heard = time.monotonic()
        while not stop.is_set():
            self.beat()
            try:
                data = port.read(max(1, port.in_waiting))
            except (OSError, serial.SerialException) as exc:
                raise DeviceGone(f"{self.spec.path}: lost ({exc})") from exc
            now = time.monotonic()
            if data and self.handle(data, state):
                last_heard = now
            elif silence and state.held is not None and now - last_heard > silence:
                state.gone()

    def handle(self, data: bytes, state: TagState) -> bool:
        """Feed bytes; True if a tag was heard (keeps it held)."""
        raise NotImplementedError


class Rdm6300Driver(SerialDriver):
    """125 kHz modules: the tag's frame repeats while held; silence means it was lifted."""

    def __init__(self, spec: ReaderSpec) -> None:
        super().__init__(spec)
        self._parser = Rdm6300Parser()

    def open(self) -> None:
        self._parser = Rdm6300Parser()  # a fresh start after a reconnect: no half frame carried over
        super().open()

    def handle(self, data: bytes, state: TagState) -> bool:
        before = self._parser.dropped
        uids = self._parser.feed(data)
        self.dropped += self._parser.dropped - before
        for uid in uids:
            state.seen(uid)
        return bool(uids)


class UidLineDriver(SerialDriver):
    """The Arduino + MFRC522 bridge: `UID <hex>` when a tag arrives, `REMOVED` when it leaves."""

    def __init__(self, spec: ReaderSpec) -> None:
        super().__init__(spec)
        self._parser = UidLineParser()

    def open(self) -> None:
        self._parser = UidLineParser()
        super().open()

    def handle(self, data: bytes, state: TagState) -> bool:
        before = self._parser.dropped
        heard = False
        for event in self._parser.feed(data):
            if event.kind == "uid":
                state.seen(event.value)
                heard = True
            elif event.kind == "removed":
                state.gone()
        self.dropped += self._parser.dropped - before
        return heard


def _as_os_error(exc: serial.SerialException, path: str) -> OSError:
    """pyserial wraps the OS error; keep its errno so the hub can tell 'not there' from 'not allowed'."""
    code = getattr(exc, "errno", None)
    reason = os.strerror(code) if code else str(exc)
    return OSError(code, f"cannot open {path}: {reason}")
