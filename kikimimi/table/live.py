"""Opening a live table from its configuration: readers (hub), voice, journal and the loop."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi.devices.hub import Hub
from kikimimi.games.base import SPEAKER, Say, seat_of
from kikimimi.table.config import TableConfig
from kikimimi.table.journal import Journal, JournalError, check_journal_file
from kikimimi.table.loop import TableLoop
from kikimimi.table.server import ControlServer, serve_control
from kikimimi.voice.catalog import Line, catalog
from kikimimi.voice.config import redirect_outputs
from kikimimi.voice.router import Voice

log = logging.getLogger(__name__)

LOST_HOLD_OFF = 3.0  # seconds a reader must stay down before the speaker says it is lost


@dataclass
class LiveTable:
    config: TableConfig
    loop: TableLoop
    hub: Hub
    voice: Voice
    journal: Journal | None
    ready_seconds: float = 0.0  # from open_table() to listening
    owner: TableLock | None = None
    announcer: _ReaderAnnouncer | None = None
    control: ControlServer | None = None  # the socket other consoles attach to (tables with a journal)

    def close(self) -> None:
        """Stop listening, finish speaking what is queued (briefly), release every device."""
        try:
            if self.control is not None:
                self.control.close()  # first: attached consoles let go before the loop stops
            if self.announcer is not None:
                self.announcer.close()
            self.loop.stop()
            self.voice.wait_idle(timeout=2.0)
            self.voice.close()
            if self.journal is not None:
                self.journal.close()
        finally:
            if self.owner is not None:
                self.owner.release()  # last: the next table may open the devices once this one let go


class TableRunning(JournalError, OSError):
    """Another process runs this table (holds the lock next to its journal). An OSError too, so that every
    command that opens the table and reports OSErrors in one line (`records meeting`) refuses cleanly.
    `holder` says who holds it ("pid 123, started at …"), `pid` its pid (None when unknown)."""

    def __init__(self, message: str, holder: str = "", pid: int | None = None) -> None:
        super().__init__(message)
        self.holder = holder
        self.pid = pid


class TableLock:
    """One table = one process. An exclusive `flock` on `<journal>.lock`, taken before any reader, sound
    card or the journal is opened. The kernel drops it when the process ends, however it ends (SIGKILL,
    power cut), so a dead table never leaves a stale lock; the pid and start time written in the file
    are only there to tell the person at the terminal who holds it."""

    def __init__(self, journal: Path, tool: str = "") -> None:
        self.journal = Path(journal)
        self.path = Path(f"{journal}.lock")
        self.tool = tool  # who holds it when it is not the table itself (`kikimimi bringup`)
        self._fd: int | None = None

    def acquire(self) -> None:
        check_journal_file(self.journal)  # a foreign file at the journal's path gets no lock beside it
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise JournalError(f"table lock {self.path}: {exc.strerror or exc}; check the path in the "
                               "table's `journal =` setting") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder, pid = _read_holder(fd)
            os.close(fd)
            raise TableRunning(f"the table is already running ({holder}); stop it first, or attach the Priest's "
                               "console to it with `kikimimi console`", holder, pid) from None
        except OSError as exc:
            os.close(fd)
            raise JournalError(f"table lock {self.path}: {exc.strerror or exc}") from exc
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
        by = f" by {self.tool}" if self.tool else ""
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {stamp}{by}\n".encode(), 0)
        except OSError as exc:  # a full disk: the journal beside it could not be written either
            os.close(fd)
            raise JournalError(f"table lock {self.path}: {exc.strerror or exc}; make room on that disk "
                               "(the journal is written there too), then start the table again") from None
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # the file stays (removing it would race with a starting table)
            os.close(fd)  # closing the descriptor drops the flock


def hold_table(journal: Path, tool: str) -> TableLock | None:
    """For a tool that opens the table's readers or sound cards (bring-up, `devices watch`): take the table's
    lock so that no table starts under it. TableRunning when a table runs; None when no lock can be made
    there (a read-only data folder, or none yet: no table runs there either; none is created here)."""
    if not Path(journal).parent.is_dir():
        return None
    lock = TableLock(journal, tool)
    try:
        lock.acquire()
    except TableRunning:
        raise  # a JournalError too, but not one to pass over
    except JournalError:
        return None
    return lock


def running_message(running: TableRunning) -> str:
    """Why a tool refuses while the table runs, and how to stop the table (one line)."""
    kill = f"`kill {running.pid}`" if running.pid else "`kill` with its pid"
    return (f"the table is running ({running.holder or 'pid unknown'}) and owns the readers and sound cards; "
            f"stop it first (Ctrl-C where it runs, {kill}, or `sudo systemctl stop kikimimi` for the boot "
            "service), then try again")


def _read_holder(fd: int) -> tuple[str, int | None]:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    pid, _, started = text.partition(" ")
    if not pid.isdigit():
        return "pid unknown, starting just now", None
    return (f"pid {pid}, started at {started}" if started else f"pid {pid}"), int(pid)


def open_table(
    config: TableConfig,
    *,
    journal: bool = True,
    record_dir: Path | None = None,
    transcript_only: bool = False,
    on_line: Callable[[str, Line], None] | None = None,
    on_first_frame: Callable[..., None] | None = None,
    on_reader_health: Callable[[str, Any], None] | None = None,
    start: bool = True,
) -> LiveTable:
    """Build and start the table. Devices that are missing fall back (readers retry, audio to text).

    record_dir: every output becomes a WAV file in that folder (the demo's --record).
    transcript_only: no audio at all (tests, headless runs).
    """
    started = time.perf_counter()
    owner = None
    if journal:
        owner = TableLock(Path(config.journal))
        owner.acquire()  # before any device: a second table must not touch the first one's readers
    try:
        table = _open(config, journal, record_dir, transcript_only, on_line, on_first_frame, on_reader_health)
    except BaseException:
        if owner is not None:
            owner.release()
        raise
    table.owner = owner
    if start:
        try:
            table.loop.start()  # a damaged journal may show only now (resuming writes the end of a game)
        except BaseException:
            table.close()
            raise
    if owner is not None:
        # The table is ours: consoles of other processes attach here, once its game is resumed or begun
        # (one attached earlier would start from the state before the resume, which no step corrects).
        table.control = serve_control(table)
    table.ready_seconds = time.perf_counter() - started
    return table


def _open(config: TableConfig, journal: bool, record_dir: Path | None, transcript_only: bool,
          on_line: Callable[[str, Line], None] | None, on_first_frame: Callable[..., None] | None,
          on_reader_health: Callable[[str, Any], None] | None) -> LiveTable:
    announce = _ReaderAnnouncer(on_reader_health)
    # The hub first: it refuses readers it cannot tell apart (ValueError) before any device is opened.
    hub = Hub(config.readers, debounce=config.debounce, on_health=announce)
    # The journal before the voice: a journal that cannot open is the one line said, before any warning
    # about sound cards or voice packs.
    book = Journal(config.journal) if journal else None
    voice_spec, outputs = redirect_outputs(config.voice, list(config.outputs), record_dir, transcript_only)
    try:
        voice = Voice.open(voice_spec, outputs, on_line=on_line, on_first_frame=on_first_frame,
                           phrases=catalog(config.language, config.info.catalog),
                           used=config.info.outputs(config.game_setup))
    except BaseException:
        if book is not None:
            book.close()
        raise
    loop = TableLoop(config, journal=book, voice=voice, hub=hub)
    voice.alerts_to(lambda alert: loop.status.alerts.append((time.time(), alert)))  # e.g. a pack short of the game
    announce.speak = loop.announce
    return LiveTable(config, loop, hub, voice, book, announcer=announce)


class _ReaderAnnouncer:
    """Says on the speaker when a reader that was working stops, and when it is back, so that players
    know why their taps are not answered. Reader threads call this; the phrases go to the table loop's
    queue (`speak` is `TableLoop.announce`), which alone speaks.

    A loss is said only once it has lasted `hold_off` seconds: a reader back within that (a brief USB
    error, a stalled reader reopened at once) is never announced as lost, nor as back."""

    def __init__(self, then: Callable[[str, Any], None] | None, hold_off: float = LOST_HOLD_OFF) -> None:
        self.speak: Callable[[list[Say]], None] = lambda says: None
        self.then = then
        self.hold_off = hold_off
        self.was_ok: set[str] = set()
        self.lost: set[str] = set()
        self._pending: dict[str, threading.Timer] = {}
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self, role: str, health: Any) -> None:
        with self._lock:
            if health.status == "ok":
                timer = self._pending.pop(role, None)
                if timer is not None:
                    timer.cancel()
                if role in self.lost:
                    self.lost.discard(role)
                    self._say(role, "back")
                self.was_ok.add(role)
            elif role in self.was_ok and role not in self.lost and role not in self._pending \
                    and not self._closed:
                timer = threading.Timer(self.hold_off, self._still_down, args=(role,))
                timer.daemon = True
                timer.name = f"lost-hold-off-{role}"
                self._pending[role] = timer
                timer.start()
        if self.then is not None:
            self.then(role, health)

    def _still_down(self, role: str) -> None:
        with self._lock:
            if self._pending.pop(role, None) is None or self._closed:
                return  # it came back just as the hold-off ended
            self.lost.add(role)
            self._say(role, "lost")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for timer in self._pending.values():
                timer.cancel()
            self._pending.clear()

    def _say(self, role: str, what: str) -> None:
        seat = seat_of(role)
        if seat is not None:
            self.speak([Say(SPEAKER, f"table.hand_reader_{what}", {"seat": seat})])
        elif role == "field":
            self.speak([Say(SPEAKER, f"table.field_reader_{what}")])
