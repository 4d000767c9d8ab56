"""PC/SC readers through pcscd and pyscard: Sony RC-S300, ACS ACR122U / ACR1252U (CCID readers).

A reader path is `pcsc:NAME`, NAME being pcscd's reader name or a part of it that matches exactly one
reader (pcscd puts the USB serial number in the name where the device has one, which tells identical
readers apart). The driver waits on pcscd's state changes (`SCardGetStatusChange`, in slices so that it
beats and sees the stop flag), and when a card arrives reads its UID with the pseudo-APDU `FF CA 00 00
00` (answer: UID + 90 00). A card that answers with an error or no UID (a contact smart card, a card
the reader cannot read) is reported once as `unreadable`, never as a tap.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from types import ModuleType

from kikimimi.devices.config import ReaderSpec
from kikimimi.devices.driver import DeviceGone, Driver, NeedsService, TagState

log = logging.getLogger(__name__)

PREFIX = "pcsc:"
GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
WAIT_SLICE_MS = 500  # one wait on pcscd: bounds the heartbeat and the stop latency (with SCardCancel)
PcscContext = int  # pyscard's SCARDCONTEXT: a handle pcscd gave, an integer
RETRY_MS = 600  # after a failed read: more than pcscd's 0.4 s presence poll, so a lifted card shows as gone
START_PCSCD = "start it: sudo systemctl enable --now pcscd (Debian package pcscd, with libccid)"


def reader_pattern(path: str) -> str:
    """The NAME of a `pcsc:NAME` path."""
    return path[len(PREFIX):] if path.startswith(PREFIX) else path


def match_reader(pattern: str, names: Sequence[str], path: str) -> str:
    """The one reader `pattern` names: an exact name, else the only name containing it.
    LookupError names the readers found when it matches none or several."""
    if pattern in names:
        return pattern
    hits = [n for n in names if pattern.lower() in n.lower()]
    if len(hits) == 1:
        return hits[0]
    found = ", ".join(repr(n) for n in names) or "none"
    if not hits:
        raise LookupError(f"{path}: no PC/SC reader matches {pattern!r}; readers found: {found}")
    raise LookupError(f"{path}: {pattern!r} matches {len(hits)} PC/SC readers ({', '.join(map(repr, hits))}); "
                      "give more of the name (the serial number in it tells identical readers apart)")


def _scard() -> ModuleType:
    try:
        from smartcard import scard  # type: ignore[import-untyped]  # pyscard ships no type hints
    except ImportError as exc:  # pyscard is a dependency; missing only in a broken install
        raise NeedsService(f"pyscard is not installed ({exc}): pip install pyscard") from exc
    module: ModuleType = scard
    return module


def _failed(scard: ModuleType, what: str, hr: int) -> str:
    return f"{what}: {scard.SCardGetErrorMessage(hr).strip()} (0x{hr & 0xFFFFFFFF:08X})"


def open_context() -> PcscContext:
    """A PC/SC context; NeedsService (saying how to start pcscd) when pcscd is not running."""
    scard = _scard()
    hr, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if hr in (scard.SCARD_E_NO_SERVICE, scard.SCARD_E_SERVICE_STOPPED):
        raise NeedsService(f"pcscd is not running; {START_PCSCD}")
    if hr != scard.SCARD_S_SUCCESS:
        raise OSError(_failed(scard, "cannot talk to pcscd", hr))
    handle: PcscContext = context
    return handle


def list_names(context: PcscContext) -> list[str]:
    scard = _scard()
    hr, names = scard.SCardListReaders(context, [])
    if hr == scard.SCARD_E_NO_READERS_AVAILABLE:
        return []
    if hr in (scard.SCARD_E_NO_SERVICE, scard.SCARD_E_SERVICE_STOPPED):
        raise NeedsService(f"pcscd is not running; {START_PCSCD}")
    if hr != scard.SCARD_S_SUCCESS:
        raise OSError(_failed(scard, "cannot list PC/SC readers", hr))
    return list(names)


def release_context(context: PcscContext) -> None:
    try:
        _scard().SCardReleaseContext(context)
    except Exception as exc:  # noqa: BLE001 - pcscd may be gone already
        log.debug("releasing a PC/SC context: %s", exc)


def pcsc_reader_names() -> tuple[list[str], str | None]:
    """The readers pcscd has now, and a note when it cannot be asked (not running, pyscard missing)."""
    try:
        context = open_context()
    except OSError as exc:
        return [], str(exc)
    try:
        return list_names(context), None
    except OSError as exc:
        return [], str(exc)
    finally:
        release_context(context)


def check_paths(specs: Sequence[ReaderSpec]) -> None:
    """Refuse, before a table starts, PC/SC paths that name no reader or several (ValueError with the
    names found). When pcscd is not running nothing is refused: the readers say how to start it."""
    paths = [s.path for s in specs if s.protocol == "pcsc"]
    if not paths:
        return
    names, note = pcsc_reader_names()
    if note is not None:
        return
    problems = []
    for path in paths:
        try:
            match_reader(reader_pattern(path), names, path)
        except LookupError as exc:
            problems.append(str(exc))
    if problems:
        raise ValueError("; ".join(problems))


class PcscDriver(Driver):
    def __init__(self, spec: ReaderSpec) -> None:
        super().__init__(spec)
        self._context: PcscContext | None = None
        self.reader: str | None = None  # pcscd's full name of the reader, once open

    @classmethod
    def check_specs(cls, specs: Sequence[ReaderSpec]) -> None:
        check_paths(specs)  # a name matching no PC/SC reader, or several, is refused here

    def open(self) -> None:
        context = open_context()
        try:
            names = list_names(context)
            try:
                self.reader = match_reader(reader_pattern(self.spec.path), names, self.spec.path)
            except LookupError as exc:
                raise FileNotFoundError(2, str(exc)) from None
        except BaseException:
            release_context(context)
            raise
        self._context = context

    def close(self) -> None:
        context, self._context = self._context, None
        if context is not None:
            release_context(context)

    def interrupt(self) -> None:
        context = self._context
        if context is not None:
            try:
                _scard().SCardCancel(context)  # wakes a SCardGetStatusChange at once
            except Exception as exc:  # noqa: BLE001
                log.debug("cancelling %s: %s", self.spec.path, exc)

    def run(self, state: TagState, stop: threading.Event) -> None:
        scard = _scard()
        context, reader = self._context, self.reader
        assert context is not None and reader is not None, "open() first"
        known = scard.SCARD_STATE_UNAWARE
        read_at = None  # pcscd's event count of the card presentation already read
        retry = False  # the last read failed: once more before calling the card unreadable
        gone = (scard.SCARD_E_NO_SERVICE, scard.SCARD_E_SERVICE_STOPPED, scard.SCARD_E_INVALID_HANDLE,
                scard.SCARD_E_UNKNOWN_READER, scard.SCARD_E_READER_UNAVAILABLE, scard.SCARD_E_NO_READERS_AVAILABLE)
        while not stop.is_set():
            self.beat()
            hr, states = scard.SCardGetStatusChange(context, RETRY_MS if retry else WAIT_SLICE_MS,
                                                    [(reader, known)])
            if hr == scard.SCARD_E_CANCELLED or (hr == scard.SCARD_E_TIMEOUT and not retry):
                continue
            if hr in gone:
                raise DeviceGone(_failed(scard, f"{self.spec.path}: lost", hr) +
                                 ("; pcscd stopped" if hr in gone[:2] else ""))
            if hr == scard.SCARD_E_TIMEOUT:
                event = known  # nothing changed since the failed read: the card is still there
            elif hr != scard.SCARD_S_SUCCESS:
                raise DeviceGone(_failed(scard, f"{self.spec.path}: waiting for a card", hr))
            else:
                event = states[0][1]
            if event & (scard.SCARD_STATE_UNKNOWN | scard.SCARD_STATE_UNAVAILABLE | scard.SCARD_STATE_IGNORE):
                raise DeviceGone(f"{self.spec.path}: the reader is gone (unplugged?)")
            known = event & ~scard.SCARD_STATE_CHANGED
            count = event >> 16  # pcscd counts card events: a card swapped between two waits changes it
            if event & scard.SCARD_STATE_PRESENT and not event & scard.SCARD_STATE_MUTE:
                if read_at != count:
                    problem = self._read(scard, context, reader, state)
                    if problem is None or retry:
                        read_at, retry = count, False
                        if problem is not None:
                            state.unreadable(problem)
                    else:
                        retry = True  # a card lifted during the read fails too: pcscd says so within a poll
            else:
                read_at, retry = None, False
                state.gone()

    def _read(self, scard: ModuleType, context: PcscContext, reader: str, state: TagState) -> str | None:
        """Read the UID of the card on the reader: a tap, or one `unreadable` report for a card that gave
        no UID. A failed exchange is returned (the caller tries once more: the card may have been lifted)."""
        hr, card, protocol = scard.SCardConnect(context, reader, scard.SCARD_SHARE_SHARED,
                                                scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
        if hr in (scard.SCARD_W_REMOVED_CARD, scard.SCARD_E_NO_SMARTCARD):
            return None  # lifted before it could be read: the next state change says so
        if hr != scard.SCARD_S_SUCCESS:
            return _failed(scard, "the card does not answer", hr)
        try:
            hr, answer = scard.SCardTransmit(card, protocol, GET_UID)
        finally:
            scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
        if hr in (scard.SCARD_W_REMOVED_CARD, scard.SCARD_E_NO_SMARTCARD):
            return None
        if hr != scard.SCARD_S_SUCCESS:
            return _failed(scard, "reading its UID (FF CA) failed", hr)
        answer = bytes(answer)
        if len(answer) < 3 or answer[-2:] != b"\x90\x00":
            status = answer[-2:].hex(" ").upper() if len(answer) >= 2 else answer.hex() or "nothing"
            state.unreadable(f"the card gave no UID (FF CA answered {status}): a contact card, or a tag "
                             "type this reader cannot read")
            return None
        state.seen(answer[:-2].hex())
        return None
