"""Emulated PC/SC readers for tests and benchmarks: pcscd with Debian's vpcd driver, and cards for it.

`vsmartcard-vpcd` is a virtual reader driver for pcscd: each `reader.conf.d` entry gives two readers,
each waiting for a card on a TCP port (the entry's port and the next). A card is a TCP client of that
port: connected = on the reader, closed = lifted. Messages are a 2-byte big-endian length then data; a
1-byte message is a control (0 power off, 1 on, 2 reset, 4 = send the ATR), anything longer is an APDU
to answer. `VirtualCard` is such a card with a UID (answering `FF CA 00 00 00`), or with none.

pcscd listens at /run/pcscd/pcscd.comm whatever its environment, so one pcscd serves the whole machine.
`SharedPcscd` starts it once for every process that needs it (test workers, a bench) and stops it when
the last one is done, with file locks in /tmp/kikimimi-pcscd:
- `start.lock`: held while pcscd is started, stopped or restarted;
- `users.lock`: each process holds it shared while it uses pcscd; the last one can take it exclusively;
- `slot-N.lock`: an entry (two readers) leased by one process at a time, for one test (`in_use()`);
- `use.lock`: shared while readers are in use, exclusive for a restart (which every user would notice);
- `restart.lock`: held by a test that restarts pcscd, for the whole test (one such test at a time).
Locks are always taken in one order (restart, use, start; use, then slots) and a slot is waited for a bounded
time, so that two test processes cannot wait on each other for ever.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

VPCD_DRIVER = Path("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")
PCSCD_SOCKET = Path("/run/pcscd/pcscd.comm")
PCSCD_PID = Path("/run/pcscd/pcscd.pid")
STATE_DIR = Path("/tmp/kikimimi-pcscd")
# A contactless storage card's ATR as PC/SC part 3 builds it (here a MIFARE Ultralight / NTAG).
CONTACTLESS_ATR = bytes.fromhex("3B8F8001804F0CA0000003060300030000000068")
CONTACT_ATR = bytes.fromhex("3B6800000073C84013009000")  # a contact smart card: it has no UID to give
# Reader names as pcscd shows them for the models a club buys (the serial number where the device has one).
ENTRIES = (
    "SONY FeliCa Port/PaSoRi 4.0 (0A1B2C01)",
    "SONY FeliCa Port/PaSoRi 4.0 (0A1B2C02)",
    "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] (1052A0003)",
    "ACS ACR122U PICC Interface",
)


class PcscdUnavailable(RuntimeError):
    """pcscd cannot be started here (not root, not installed, another pcscd runs); says which."""


class VirtualCard:
    """A card on a vpcd reader while `place()`d. `uid=None`: a card that answers FF CA with 6A 81."""

    def __init__(self, port: int, uid: str | None, atr: bytes = CONTACTLESS_ATR, host: str = "127.0.0.1") -> None:
        self.port, self.uid, self.atr, self.host = port, uid, atr, host
        self.silent = threading.Event()  # set: the card stops answering (a reader that hangs)
        self.apdus = 0
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def place(self, timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        while True:  # vpcd accepts a new card only after it saw the last one go
            try:
                self._sock = socket.create_connection((self.host, self.port), timeout=1.0)
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.02)
        self._sock.settimeout(None)
        self._thread = threading.Thread(target=self._serve, args=(self._sock,), daemon=True,
                                        name=f"vicc-{self.port}")
        self._thread.start()

    def lift(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        if self._thread is not None:
            self._thread.join(2.0)

    def __enter__(self) -> VirtualCard:
        self.place()
        return self

    def __exit__(self, *exc: object) -> None:
        self.lift()

    def _serve(self, sock: socket.socket) -> None:
        try:
            while True:
                head = _recv_exact(sock, 2)
                if head is None:
                    return
                message = _recv_exact(sock, struct.unpack(">H", head)[0])
                if message is None:
                    return
                if len(message) == 1:
                    if message == b"\x04":
                        sock.sendall(struct.pack(">H", len(self.atr)) + self.atr)
                    continue  # power off / on / reset: no answer
                self.apdus += 1
                if self.silent.is_set():
                    continue  # never answers: pcscd's reader waits
                sock.sendall(_frame(self.answer(message)))
        except OSError:
            return

    def answer(self, apdu: bytes) -> bytes:
        if apdu[:2] == b"\xff\xca":
            if self.uid is None:
                return b"\x6a\x81"  # function not supported: a contact card
            return bytes.fromhex(self.uid) + b"\x90\x00"
        return b"\x6d\x00"  # instruction not supported


def _frame(data: bytes) -> bytes:
    return struct.pack(">H", len(data)) + data


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


@dataclass(frozen=True)
class VirtualReader:
    name: str  # pcscd's full name
    port: int  # where a VirtualCard connects
    entry: int

    @property
    def path(self) -> str:
        return f"pcsc:{self.name}"

    def card(self, uid: str | None) -> VirtualCard:
        return VirtualCard(self.port, uid)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (our own child, killed) is not alive
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


def _free_base(count: int) -> int:
    """A base port with `count` free ports after it."""
    for _ in range(200):
        base = random.randrange(20000, 60000 - count)
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise PcscdUnavailable("no free range of TCP ports for vpcd's readers")


def _lock(path: Path, mode: int) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, mode)
    return fd


def _unlock(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _lock_within(fd: int, wait: float) -> bool:
    """An exclusive flock on `fd` within `wait` seconds (0: now or never)."""
    end = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= end:
                return False
            time.sleep(0.05)


_PROCESS_SHARE: list[SharedPcscd] = []  # this process's one share, however many fixtures or benches use it
LEASE_WAIT = 60.0  # seconds to wait for an entry other processes hold, before giving up


class SharedPcscd:
    """This process's share of the machine's test pcscd (see the module doc). `acquire()` returns the
    process's one share (counted: each acquire() wants a release()), and raises PcscdUnavailable saying
    why when pcscd cannot run here. A process never waits on a lock it holds itself: flock locks belong
    to an open file, so two shares in one process could."""

    def __init__(self, state_dir: Path = STATE_DIR) -> None:
        self.dir = state_dir
        self._users: int | None = None
        self._slots: dict[int, int] = {}
        self._scopes: list[set[int]] = []  # entries leased inside each open in_use()/leasing() block
        self._refs = 0

    # -- sharing -------------------------------------------------------------------------------------

    def acquire(self) -> SharedPcscd:
        if _PROCESS_SHARE:
            share = _PROCESS_SHARE[0]
            share._refs += 1
            return share
        why = self.cannot_run()
        if why:
            raise PcscdUnavailable(why)
        self.dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o777)
        start = _lock(self.dir / "start.lock", fcntl.LOCK_EX)
        try:
            self._users = _lock(self.dir / "users.lock", fcntl.LOCK_SH)
            if not self.running():
                other = self._foreign_pcscd()
                if other:
                    self._drop_user()
                    raise PcscdUnavailable(other)
                self._start(ENTRIES)
        finally:
            _unlock(start)
        self._refs = 1
        _PROCESS_SHARE.append(self)
        return self

    def release(self) -> None:
        self._refs -= 1
        if self._refs > 0:
            return
        if self in _PROCESS_SHARE:
            _PROCESS_SHARE.remove(self)
        for index in list(self._slots):
            self._free(index)
        if self._users is None:
            return
        start = _lock(self.dir / "start.lock", fcntl.LOCK_EX)
        try:
            fcntl.flock(self._users, fcntl.LOCK_UN)
            try:
                fcntl.flock(self._users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pass  # others still use it: the last one stops it
            else:
                self._stop()
            self._drop_user()
        finally:
            _unlock(start)

    def _drop_user(self) -> None:
        if self._users is not None:
            _unlock(self._users)
            self._users = None

    @staticmethod
    def cannot_run() -> str | None:
        if shutil.which("pcscd") is None and not Path("/usr/sbin/pcscd").exists():
            return "pcscd is not installed (Debian package pcscd)"
        if not VPCD_DRIVER.exists():
            return f"vpcd is not installed ({VPCD_DRIVER}; Debian package vsmartcard-vpcd)"
        if os.geteuid() != 0:
            return "pcscd listens at /run/pcscd/pcscd.comm, which only root may create: run the tests as root"
        return None

    def _foreign_pcscd(self) -> str | None:
        try:
            pid = int(PCSCD_PID.read_text().strip())
        except (OSError, ValueError):
            return None
        if _pid_alive(pid):
            return (f"a pcscd not started by the tests runs (pid {pid}) and owns {PCSCD_SOCKET}: stop it "
                    "(systemctl stop pcscd.socket pcscd) to test PC/SC readers")
        return None

    # -- pcscd -----------------------------------------------------------------------------------------

    def state(self) -> dict:
        try:
            return json.loads((self.dir / "state.json").read_text())
        except (OSError, ValueError):
            return {}

    def running(self) -> bool:
        pid = self.state().get("pid")
        return bool(pid) and _pid_alive(pid) and PCSCD_SOCKET.exists()

    def _conf(self, entries: dict[int, str], base: int) -> Path:
        conf = self.dir / "reader.conf.d"
        shutil.rmtree(conf, ignore_errors=True)
        conf.mkdir()
        for index, name in entries.items():
            port = base + 2 * index
            # vpcd keeps its readers in one table by slot, so a second entry loaded from the same library
            # takes over the first one's slots: each entry gets its own copy of the library (own globals).
            library = self.dir / f"libifdvpcd-{index}.so"
            if not library.exists():
                shutil.copyfile(VPCD_DRIVER, library)
            (conf / f"vpcd-{index}").write_text(
                f'FRIENDLYNAME "{name}"\nDEVICENAME /dev/null:0x{port:04X}\nLIBPATH {library}\n'
                f"CHANNELID 0x{port:04X}\n")
        return conf

    def _start(self, names: tuple[str, ...], base: int | None = None, without: tuple[int, ...] = ()) -> None:
        base = base or _free_base(2 * len(names))
        entries = {i: n for i, n in enumerate(names) if i not in without}
        conf = self._conf(entries, base)
        log = open(self.dir / "pcscd.log", "ab")  # noqa: SIM115 - pcscd outlives this call
        proc = subprocess.Popen(["pcscd", "--foreground", "-c", str(conf)], stdout=log, stderr=log,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        state = {"pid": proc.pid, "base": base, "names": list(names), "without": list(without)}
        (self.dir / "state.json").write_text(json.dumps(state))
        if not self._wait_readers(len(entries) * 2, 10.0):
            self._stop()
            tail = (self.dir / "pcscd.log").read_text(errors="replace")[-500:]
            raise PcscdUnavailable(f"pcscd did not come up with its virtual readers within 10 s: {tail}")

    def _wait_readers(self, count: int, limit: float) -> bool:
        from kikimimi.devices.pcsc_reader import pcsc_reader_names

        end = time.monotonic() + limit
        while time.monotonic() < end:
            if PCSCD_SOCKET.exists():
                names, _ = pcsc_reader_names()
                if len(names) >= count:
                    return True
            time.sleep(0.05)
        return False

    def _stop(self) -> None:
        pid = self.state().get("pid")
        if pid and _pid_alive(pid):
            os.kill(pid, signal.SIGTERM)
            end = time.monotonic() + 5
            while _pid_alive(pid) and time.monotonic() < end:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
                time.sleep(0.02)
            if _pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        with contextlib.suppress(FileNotFoundError):
            (self.dir / "state.json").unlink()

    # -- readers ---------------------------------------------------------------------------------------

    def lease(self, entry: int | None = None) -> list[VirtualReader]:
        """An entry's two readers, for this process alone: until the end of the in_use()/leasing() block
        it is taken in, else until release(). If none is named: one this process holds, else the first
        free one. Entries other processes hold are waited for (LEASE_WAIT s at most)."""
        order = [entry] if entry is not None else sorted(self._slots) + list(range(len(ENTRIES)))
        end = time.monotonic() + LEASE_WAIT
        while True:
            for index in order:
                if index not in self._slots:
                    fd = os.open(self.dir / f"slot-{index}.lock", os.O_RDWR | os.O_CREAT, 0o666)
                    if not _lock_within(fd, 0.0):
                        os.close(fd)
                        continue
                    self._slots[index] = fd
                    if self._scopes:
                        self._scopes[-1].add(index)
                return self.readers(index)
            if time.monotonic() >= end:
                break
            time.sleep(0.1)  # other tests give their entries back when they end
        if entry is not None:
            raise PcscdUnavailable(f"virtual PC/SC reader entry {entry} stayed in use by another process "
                                   f"for {LEASE_WAIT:g} s")
        raise PcscdUnavailable(f"every virtual PC/SC reader stayed in use by other test processes for "
                               f"{LEASE_WAIT:g} s")

    def _free(self, index: int) -> None:
        fd = self._slots.pop(index, None)
        if fd is not None:
            _unlock(fd)

    def readers(self, entry: int) -> list[VirtualReader]:
        from kikimimi.devices.pcsc_reader import pcsc_reader_names

        state = self.state()
        prefix = state["names"][entry]
        names = sorted(n for n in pcsc_reader_names()[0] if n.startswith(prefix + " "))
        port = state["base"] + 2 * entry
        return [VirtualReader(name, port + i, entry) for i, name in enumerate(names[:2])]

    def in_use(self, alone: bool = False) -> contextlib.AbstractContextManager[None]:
        """Readers are being read: a restart waits for this to end. `alone`: no other process puts
        cards on any reader meanwhile (a test that listens to every reader). Entries leased inside are
        given back at the end."""
        return self._holding("use.lock", fcntl.LOCK_EX if alone else fcntl.LOCK_SH)

    @contextlib.contextmanager
    def leasing(self):
        """Entries leased inside are given back at the end."""
        self._scopes.append(set())
        try:
            yield
        finally:
            for index in self._scopes.pop():
                self._free(index)

    def restarting(self) -> contextlib.AbstractContextManager[None]:
        """For a test that restarts pcscd itself (and so cannot hold in_use()): no other process restarts it
        meanwhile, and entries leased inside are given back at the end."""
        return self._holding("restart.lock", fcntl.LOCK_EX)

    @contextlib.contextmanager
    def _holding(self, lock: str, mode: int):
        """`lock` held in `mode` for the block, and the entries leased inside given back at its end."""
        fd = _lock(self.dir / lock, mode)
        try:
            with self.leasing():
                yield
        finally:
            _unlock(fd)

    @contextlib.contextmanager
    def stopped(self, without: tuple[int, ...] = ()):
        """pcscd stopped for the block, then started again with the same readers and ports (less the
        entries in `without`: their readers stay unplugged until the next restart). The caller holds no
        `in_use()`; this waits until no one else does."""
        use = _lock(self.dir / "use.lock", fcntl.LOCK_EX)
        start = _lock(self.dir / "start.lock", fcntl.LOCK_EX)
        try:
            state = self.state()
            self._stop()
            yield
            self._start(tuple(state["names"]), state["base"], without)
        finally:
            _unlock(start)
            _unlock(use)

    def restart(self, down_for: float = 0.5, without: tuple[int, ...] = ()) -> None:
        with self.stopped(without):
            time.sleep(down_for)
