"""The hub: every configured reader on its own thread, merged into one queue of taps and removals.

    with Hub(parse_readers(config["readers"], "table.toml")) as hub:
        event = hub.get(timeout=0.5)          # ReaderEvent or None
        hub.health()["hand:1"].status         # "ok" | "reconnecting" | "failed"

A reader that fails to open or is lost is reopened with backoff on its own thread; the others carry
on. A reader that hangs while plugged in (its read never returns: nfcpy's RC-S380 has no timeout) is
caught by a watchdog: its driver beats every time round its read loop, and one that has not beaten
for `stall_after` seconds is reported `stalled`, closed from the watchdog's thread and reopened as a
fresh driver on a fresh thread (the stuck thread is abandoned: whatever it does if it ever wakes is
ignored). Health changes are not queue events: poll `health()` or pass `on_health(role, ReaderHealth)`,
which is called on the reader's thread each time a reader's status or detail changes.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from kikimimi.devices.config import READER_PROTOCOLS, ReaderSpec
from kikimimi.devices.debounce import Debouncer
from kikimimi.devices.driver import ChipSilent, Driver, NeedsService, ReaderUnusable, TagState
from kikimimi.devices.events import EventKind, ReaderEvent, ReaderHealth, Status
from kikimimi.devices.simulated import SimDriver, SimulatedReader

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.1
BACKOFF_MAX = 2.0  # a reader coming back is picked up within this
FAILED_RETRY = 5.0  # a failed reader is still tried this often: plugging it in later is enough
ATTEMPTS_BEFORE_FAILED = 4
JOIN_TIMEOUT = 2.0
STALL_AFTER = 3.0  # seconds without a heartbeat before a reader is stalled (a no-tag poll cycle is < 1 s)
REOPEN_AFTER_CLOSE = 1.0  # a reopened reader waits this long at most for the stuck one's close
_STOP = object()

HealthCallback = Callable[[str, ReaderHealth], None]
DriverFactory = Callable[[ReaderSpec, "SimulatedReader | None"], Driver]


def make_driver(spec: ReaderSpec, sim: SimulatedReader | None = None) -> Driver:
    """The driver of `spec`'s protocol (config.READER_PROTOCOLS); `sim` feeds a simulated reader."""
    protocol = READER_PROTOCOLS.get(spec.protocol)
    if protocol is None:
        raise ValueError(f"reader {spec.role}: unknown protocol {spec.protocol!r}")
    return protocol.driver_class().for_spec(spec, sim)


class Hub:
    def __init__(self, specs: Sequence[ReaderSpec], debounce: float = 0.3, *,
                 on_health: HealthCallback | None = None, stall_after: float | None = STALL_AFTER,
                 driver_factory: DriverFactory | None = None) -> None:
        roles = [s.role for s in specs]
        dup = {r for r in roles if roles.count(r) > 1}
        if dup:
            raise ValueError(f"reader roles must be unique; given twice: {sorted(dup)}")
        self._specs = list(specs)
        self._debouncer = Debouncer(debounce)
        self._on_health = on_health
        self._raw: queue.SimpleQueue[ReaderEvent | object] = queue.SimpleQueue()  # events, then _STOP
        self._out: queue.SimpleQueue[ReaderEvent] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []  # the dispatcher and the watchdog
        self._readers: dict[str, threading.Thread] = {}  # each role's current reader thread
        self._stall_after = stall_after
        self._generation = {s.role: 0 for s in specs}  # bumped when a stalled reader's thread is abandoned
        self._tags: dict[str, TagState] = {}
        self._started = False
        self._sims = {s.role: SimulatedReader(s.role) for s in specs if s.protocol == "sim"}
        # A benchmark passes its own (a reader that hangs on cue); a stalled reader's fresh driver comes from it too.
        self._make_driver = driver_factory or make_driver
        self._drivers = {s.role: self._make_driver(s, self._sims.get(s.role)) for s in specs}
        now = time.monotonic()
        self._health = {s.role: ReaderHealth(s.role, s.path, s.protocol, "reconnecting", "not started",
                                             since=now) for s in specs}
        _warn_paths(self._specs)
        for name in dict.fromkeys(s.protocol for s in specs):  # each protocol's own check, in config order
            if (protocol := READER_PROTOCOLS.get(name)) is not None:
                protocol.driver_class().check_specs([s for s in self._specs if s.protocol == name])

    # -- public ------------------------------------------------------------------------------------

    def start(self) -> None:
        if self._started:
            return
        self._started = True
        dispatcher = threading.Thread(target=self._dispatch, name="hub-dispatch", daemon=True)
        dispatcher.start()
        self._threads.append(dispatcher)
        for spec in self._specs:
            self._start_reader(spec, self._drivers[spec.role], 0)
        if self._stall_after and any(not isinstance(d, SimDriver) for d in self._drivers.values()):
            watchdog = threading.Thread(target=self._watch, name="hub-watchdog", daemon=True)
            watchdog.start()
            self._threads.append(watchdog)

    def get(self, timeout: float | None = None) -> ReaderEvent | None:
        try:
            return self._out.get(timeout=timeout)
        except queue.Empty:
            return None

    def health(self) -> dict[str, ReaderHealth]:
        with self._lock:
            return {role: replace(h, dropped=self._drivers[role].dropped) for role, h in self._health.items()}

    def held(self, role: str) -> str | None:
        """The UID of the tag the reader of `role` has on it now, as its driver last saw (before debounce)."""
        state = self._tags.get(role)
        return state.held if state is not None else None

    def simulated(self, role: str) -> SimulatedReader:
        try:
            return self._sims[role]
        except KeyError:
            raise KeyError(f"reader {role!r} is not simulated (simulated: {sorted(self._sims)})") from None

    def stop(self) -> None:
        """Stop every reader and release its device; removals still held back are delivered."""
        if self._stop.is_set():
            return
        self._stop.set()
        for driver in self._drivers.values():
            driver.interrupt()
        self._raw.put(_STOP)
        with self._lock:
            threads = self._threads + list(self._readers.values())
        for thread in threads:
            thread.join(JOIN_TIMEOUT)
            if thread.is_alive():
                log.warning("%s did not stop within %.1f s", thread.name, JOIN_TIMEOUT)

    def __enter__(self) -> Hub:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- reader threads ----------------------------------------------------------------------------

    def _emit(self, role: str, kind: EventKind, uid: str, detail: str = "") -> None:
        event = ReaderEvent(kind, role, uid, time.monotonic(), detail)
        with self._lock:
            h = self._health[role]
            self._health[role] = replace(h, taps=h.taps + (kind == "tap"), last_uid=uid)
        self._raw.put(event)

    def _set(self, role: str, status: Status | None = None, detail: str | None = None,
             error: bool = False, generation: int | None = None) -> None:
        with self._lock:
            if generation is not None and generation != self._generation[role]:
                return  # an abandoned (stalled) reader thread woke up: the new one reports now
            old = self._health[role]
            new = replace(old, status=status or old.status, detail=old.detail if detail is None else detail,
                          errors=old.errors + error)
            changed = (new.status, new.detail) != (old.status, old.detail)
            if changed:
                new = replace(new, since=time.monotonic())
            self._health[role] = new
        if changed:  # a reader not working is a warning: --quiet shows it
            log.log(logging.INFO if new.status == "ok" else logging.WARNING,
                    "reader %s: %s (%s)", role, new.status, new.detail)
            if self._on_health is not None:
                try:
                    self._on_health(role, new)
                except Exception:  # a console bug must not kill a reader thread
                    log.exception("on_health callback failed")

    def _start_reader(self, spec: ReaderSpec, driver: Driver, generation: int,
                      after: threading.Thread | None = None) -> None:
        thread = threading.Thread(target=self._supervise, args=(spec, driver, generation, after),
                                  name=f"reader-{spec.role}" + (f"-{generation}" if generation else ""),
                                  daemon=True)
        with self._lock:
            self._readers[spec.role] = thread
        thread.start()

    def _current(self, role: str, generation: int) -> bool:
        return self._generation[role] == generation and not self._stop.is_set()

    def _supervise(self, spec: ReaderSpec, driver: Driver, generation: int = 0,
                   after: threading.Thread | None = None) -> None:
        role = spec.role

        def emit(kind: EventKind, uid: str, detail: str = "") -> None:
            if self._generation[role] == generation:  # an abandoned thread's late reads are not taps
                self._emit(role, kind, uid, detail)

        state = TagState(emit)
        self._tags[role] = state
        backoff, attempts, ever_open = BACKOFF_FIRST, 0, generation > 0
        if after is not None:
            after.join(REOPEN_AFTER_CLOSE)  # the stalled driver's close, so that the device is free again
        while self._current(role, generation):
            try:
                driver.open()
            except Exception as exc:  # noqa: BLE001 - any driver failure becomes health, never a crash
                attempts += 1
                status, detail = _classify(exc, spec, attempts, ever_open)
                self._set(role, status, detail, error=True, generation=generation)
                driver.close()
                self._stop.wait(FAILED_RETRY if status == "failed" else backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            ever_open, attempts, backoff = True, 0, BACKOFF_FIRST
            warning = spec.options.get("warning")
            driver.beat()  # watched from here: run() beats from now on
            self._set(role, "ok", f"reading {spec.path}" + (f"; warning: {warning}" if warning else ""),
                      generation=generation)
            try:
                driver.run(state, self._stop)
            except ReaderUnusable as exc:
                driver.last_beat = None
                self._set(role, "failed", str(exc), error=True, generation=generation)
                self._stop.wait(FAILED_RETRY)
            except Exception as exc:  # noqa: BLE001
                log.debug("reader %s lost", role, exc_info=True)
                status = "stalled" if isinstance(exc, ChipSilent) else "reconnecting"
                self._set(role, status, f"{exc}; reopening", error=True, generation=generation)
            finally:
                driver.last_beat = None  # not running: nothing to watch
                if self._current(role, generation):
                    state.gone()  # a tag on a reader that went away is no longer known to be there
                driver.close()

    def _watch(self) -> None:
        """The watchdog: a reader whose run() has not beaten for `stall_after` s is stalled; reopen it."""
        limit = float(self._stall_after or 0)
        while not self._stop.wait(min(0.25, limit / 10)):
            now = time.monotonic()
            for spec in self._specs:
                driver = self._drivers[spec.role]
                beat = driver.last_beat
                if beat is not None and now - beat > limit and not isinstance(driver, SimDriver):
                    self._reopen_stalled(spec, driver, now - beat)

    def _reopen_stalled(self, spec: ReaderSpec, stuck: Driver, silent: float) -> None:
        role = spec.role
        stuck.last_beat = None
        fresh = self._make_driver(spec, None)
        with self._lock:
            self._generation[role] += 1
            generation = self._generation[role]
            self._drivers[role] = fresh
        log.warning("reader %s: no answer for %.1f s while plugged in; reopening it", role, silent)
        self._set(role, "stalled", f"no answer for {silent:.1f} s; reopening", error=True)
        state = self._tags.get(role)
        if state is not None and state.held is not None:  # the stuck thread no longer speaks for the reader
            held, state.held = state.held, None
            self._emit(role, "removed", held)
        closer = threading.Thread(target=_release, args=(stuck,), name=f"close-stalled-{role}", daemon=True)
        closer.start()  # on its own thread: closing a hung device may hang too
        self._start_reader(spec, fresh, generation, after=closer)

    def _dispatch(self) -> None:
        debouncer = self._debouncer
        while True:
            deadline = debouncer.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                item = self._raw.get(timeout=timeout)
            except queue.Empty:
                for event in debouncer.expire(time.monotonic()):
                    self._out.put(event)
                continue
            if not isinstance(item, ReaderEvent):  # _STOP, the only other thing put
                for event in debouncer.flush():
                    self._out.put(event)
                return
            for event in debouncer.push(item):
                self._out.put(event)


def _warn_paths(specs: Sequence[ReaderSpec]) -> None:
    """Warn, before any reader opens, of a device path that does not exist and of one device under two
    names (/dev/ttyUSB0 and its /dev/serial/by-id/ link): the second role would never read."""
    seen: dict[str, str] = {}
    for spec in specs:
        if not spec.path.startswith("/"):
            continue  # sim and nfcpy paths (usb:..., tty:...) are not files
        if not os.path.exists(spec.path):
            log.warning("reader %s: %s does not exist; is it plugged in and the path right? (retrying)",
                        spec.role, spec.path)
            continue
        real = os.path.realpath(spec.path)
        if real in seen:
            log.warning("readers %s and %s are one device (%s); each physical reader serves one role: "
                        "give each role its own reader", seen[real], spec.role, real)
        else:
            seen[real] = spec.role


def _release(driver: Driver) -> None:
    """Close a stalled driver from outside its thread: a blocked read usually fails once its device is
    closed, and the device is free for the fresh driver."""
    try:
        driver.interrupt()
        driver.close()
    except Exception:  # noqa: BLE001 - best effort on a device that already misbehaves
        log.debug("closing a stalled %s", driver.spec.path, exc_info=True)


def _classify(exc: Exception, spec: ReaderSpec, attempts: int, ever_open: bool) -> tuple[Status, str]:
    """Whether a failed open will likely fix itself (reconnecting) or needs a human (failed), and why."""
    code = getattr(exc, "errno", None)
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    if isinstance(exc, NeedsService):  # pcscd not running: a human starts it (the text says how)
        return ("reconnecting" if ever_open else "failed"), f"{text}; retrying"
    if isinstance(exc, PermissionError) or code in (errno.EACCES, errno.EPERM):
        return "failed", (f"{text}: permission denied; install devices/udev/99-kikimimi.rules and add the "
                          "user to the dialout and plugdev groups (hardware_docs/readers.md), then replug")
    if code == errno.EBUSY or "lock" in text.lower():
        return "failed", (f"{text}: busy, another program holds it (another kikimimi, ModemManager, or the "
                          "kernel's port100/pn533 driver: see devices/udev/blacklist-nfc.conf)")
    if "libusb" in text:
        return "failed", f"{text}: nfcpy needs libusb for USB readers: sudo apt-get install libusb-1.0-0"
    if ever_open or attempts < ATTEMPTS_BEFORE_FAILED:
        return "reconnecting", f"{text}; retrying"
    return "failed", f"{text}; is it plugged in and the path right? still retrying every {FAILED_RETRY:g} s"
