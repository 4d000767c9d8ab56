"""Reader latency (last frame byte on a pty / emulated tag on udp -> tap), re-plug recovery, stall detection.

    kikimimi bench readers                  # tap latency: serial, nfcpy udp, PC/SC (pcscd + vpcd), PN532 (pty)
    kikimimi bench readers --replug 100     # a reader unplugged and plugged back 100 times: time to read again
                                            # (also: pcscd restarted under a PC/SC reader, a PN532 re-plugged)
    kikimimi bench readers --stall 5        # a reader that hangs while plugged in: time to "stalled", reopened
                                            # (also: a PN532 chip gone silent, found again at 921600 baud)

PC/SC figures need the machine's pcscd to be the bench's own (root, no other pcscd running): they are
skipped, saying why, where it cannot be. PN532 figures need root too (the pty is linked into /dev). The
emulated readers are the repository's `testbed/` package: the bench runs from a checkout, not an install.
A tap that does not come is counted as timed out and reported, never a traceback.

The re-plug is real: an RDM6300 on a pseudo-terminal reached through a symlink (as /dev/serial/by-id is);
unplugging closes the pty and removes the link, plugging back makes a new pty behind the same link, as
the kernel and udev do. A tag lies on the reader whenever it is plugged in: the module sends its frame
every 65 ms from the moment it is powered (a new tag each time, so that its tap cannot be an old one).
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from kikimimi.benchclock import Stopwatch
from kikimimi.devices.config import ReaderSpec, parse_readers
from kikimimi.devices.driver import Driver, TagState
from kikimimi.devices.events import ReaderHealth
from kikimimi.devices.frames import rdm6300_frame
from kikimimi.devices.hub import BACKOFF_MAX, STALL_AFTER, Hub
from kikimimi.devices.serial_reader import UidLineDriver

if TYPE_CHECKING:  # the test bed is imported when a bench runs, from a checkout only
    from testbed.pn532_emulator import Pn532Emulator
    from testbed.vpcd import SharedPcscd, VirtualCard, VirtualReader

_T = TypeVar("_T")

TARGET_MS = {"serial": 5.0, "nfc-udp": 50.0,
             # pcscd polls a vpcd card's presence every 0.4 s (a real CCID reader reports by interrupt)
             "pcsc": 600.0, "pn532": 100.0,
             "pcscd restart back": 3000.0, "pcscd restart tap": 3000.0,
             "pn532 replug back": 3000.0, "pn532 replug tap": 3000.0,
             "pn532 silent found": 3000.0, "pn532 back ok": 3000.0, "pn532 back tap": 3000.0,
             # a reader back in its port is tried again within the hub's longest backoff
             "replug back": (BACKOFF_MAX + 0.5) * 1000, "replug tap": (BACKOFF_MAX + 0.5) * 1000,
             # the watchdog looks ten times a window: stalled within the window and a bit
             "stall found": (STALL_AFTER + 0.5) * 1000, "stall reopened": (STALL_AFTER + 1.5) * 1000}
VPCD_POLL = 0.4  # pcscd asks vpcd whether a card is there this often
FRAME_EVERY = 0.065  # an RDM6300 repeats a held tag's frame this often


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--serial-samples", type=int, default=300)
    parser.add_argument("--nfc-samples", type=int, default=30, help="each one starts an emulator process")
    parser.add_argument("--pcsc-samples", type=int, default=30, help="PC/SC: cards put on a vpcd reader")
    parser.add_argument("--pn532-samples", type=int, default=100, help="PN532: tags put on an emulated chip")
    parser.add_argument("--only", choices=("serial", "nfc", "pcsc", "pn532"), help="measure one kind only")
    parser.add_argument("--replug", type=int, default=0, metavar="N",
                        help="unplug a reader and plug it back N times: time from plugged back to 'ok' (when the "
                             "table says 'back') and to the first tap read (only this, with --stall, unless --only)")
    parser.add_argument("--unplugged", type=float, nargs=2, default=(0.5, 4.0), metavar=("MIN", "MAX"),
                        help="seconds each unplug lasts, drawn evenly between MIN and MAX (default 0.5 4)")
    parser.add_argument("--stall", type=int, default=0, metavar="N",
                        help=f"make a reader hang while plugged in N times: time to 'stalled' (the watchdog's "
                             f"window is {STALL_AFTER:g} s) and to reading again")
    parser.add_argument("--faults-of", nargs="+", choices=("serial", "pcsc", "pn532"),
                        default=["serial", "pcsc", "pn532"],
                        help="which readers --replug and --stall fault (default: all three kinds)")
    parser.add_argument("--seed", type=int, default=15, help="for the unplugged durations (default 15)")


def bench_serial(samples: int) -> list[float]:
    """RDM6300 frames on a pty: from writing the frame's last byte (ETX) to the tap on the queue."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    specs = parse_readers({"field": {"path": path, "protocol": "rdm6300", "removal_silence": 60}}, "bench")
    latencies = []
    try:
        with Hub(specs) as hub:
            _wait_ok(hub)
            for i in range(samples + 5):  # a different UID each time: no removal needed in between
                frame = rdm6300_frame(f"{i + 1:010x}")
                os.write(master, frame[:-1])
                time.sleep(0.001)
                t0 = time.monotonic()
                os.write(master, frame[-1:])
                event = _next_tap(hub)
                if i >= 5:  # warm-up
                    latencies.append(event - t0)
    finally:
        os.close(master)
        os.close(slave)
    return latencies


def bench_nfc(samples: int) -> list[float]:
    """A FeliCa tag emulated on udp: from the emulator offering it to the tap on the queue."""
    from testbed.nfc_emulator import EmulatedTag, free_udp_port

    port = free_udp_port()
    specs = parse_readers({"field": {"path": f"udp:localhost:{port}", "targets": ["212F"]}}, "bench")
    latencies = []
    with Hub(specs, debounce=0) as hub:
        _wait_ok(hub)
        for i in range(samples):
            with EmulatedTag(port, f"{0x0101000000000000 + i:016x}", 0.15) as tag:
                got = _next_tap(hub)
                assert tag.listening_at is not None
                latencies.append(got - tag.listening_at)
                tag.wait(5)
            while (ev := hub.get(2.0)) is not None and ev.kind != "removed":
                pass
    return latencies


def _wait_ok(hub: Hub) -> None:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if all(h.status == "ok" for h in hub.health().values()):
            return
        time.sleep(0.01)
    raise RuntimeError(f"reader did not open: {hub.health()}")


class TapTimeout(RuntimeError):
    """A tap that did not come in time: counted and reported by the bench, not a traceback."""


def _next_tap(hub: Hub) -> float:
    while True:
        event = hub.get(timeout=5)
        if event is None:
            raise TapTimeout(f"no tap within 5 s: {hub.health()}")
        if event.kind == "tap":
            return time.monotonic()


@dataclass
class Samples:
    """Latencies in seconds, and how many samples timed out (no tap in time)."""

    values: list[float] = field(default_factory=list)
    timeouts: int = 0
    note: str = ""

    def add(self, measure: Callable[[], float]) -> None:
        try:
            self.values.append(measure())
        except TapTimeout as exc:
            self.timeouts += 1
            self.note = str(exc)


def bench_pcsc(samples: int, seed: int = 15) -> Samples | str:
    """A card put on a vpcd reader of the machine's pcscd: from its TCP connect to the tap on the queue.
    A string says why it could not run."""
    from testbed.vpcd import PcscdUnavailable, SharedPcscd

    try:
        shared = SharedPcscd().acquire()
    except PcscdUnavailable as exc:
        return str(exc)
    out = Samples()
    try:
        with shared.in_use():
            reader = shared.lease()[0]
            specs = parse_readers({"field": {"path": reader.path}}, "bench")
            with Hub(specs, debounce=0) as hub:
                _wait_ok(hub)
                rng = random.Random(seed)
                for i in range(samples):
                    card = reader.card(f"04{i + 1:012x}")
                    # a hand puts a card down at any moment of pcscd's 0.4 s poll, not just after one
                    time.sleep(rng.uniform(0.0, VPCD_POLL))

                    def one(card: VirtualCard = card) -> float:
                        t0 = time.monotonic()
                        card.place()
                        try:
                            return _next_tap(hub) - t0
                        finally:
                            card.lift()
                            _drain_removal(hub)
                    out.add(one)
    finally:
        shared.release()
    return out


def bench_pn532(samples: int) -> Samples | str:
    """A tag put on an emulated PN532 (nfcpy's tty transport and pn532 driver): from the chip having it to
    the tap on the queue."""
    from testbed.pn532_emulator import Pn532Emulator

    if not os.access("/dev", os.W_OK):
        return "the PN532 is reached as tty:NAME:pn532, a link in /dev: needs root"
    out = Samples()
    with Pn532Emulator() as chip:
        specs = parse_readers({"field": {"path": chip.path, "profile": "pn532-uart"}}, "bench")
        with Hub(specs, debounce=0) as hub:
            _wait_ok(hub)
            for i in range(samples):
                def one(uid: str = f"08{i + 1:06x}") -> float:
                    t0 = time.monotonic()
                    chip.tag = uid
                    try:
                        return _next_tap(hub) - t0
                    finally:
                        chip.tag = None
                        _drain_removal(hub)
                out.add(one)
    return out


def _drain_removal(hub: Hub, limit: float = 2.0) -> None:
    while (ev := hub.get(limit)) is not None and ev.kind != "removed":
        pass


class _PluggedPty:
    """A serial reader's device at a fixed path (a symlink, as /dev/serial/by-id), which can be unplugged and
    plugged back: each plug is a new pty behind the same link. While plugged, a tag's frame is sent every
    65 ms, as an RDM6300 does while a tag lies on it."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self._master: int | None = None
        self._lock = threading.Lock()
        self._frame = b""
        self._stop = threading.Event()
        self._sender = threading.Thread(target=self._send, name="bench-rdm6300", daemon=True)
        self._sender.start()

    def plug(self, uid: str | None = None) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        target = os.ttyname(slave)
        os.close(slave)
        tmp = self.link.with_name(self.link.name + ".new")
        os.symlink(target, tmp)
        with self._lock:
            self._master, self._frame = master, rdm6300_frame(uid) if uid else b""
        os.replace(tmp, self.link)  # the device appears: from here the reader may open it

    def unplug(self) -> None:
        with self._lock:
            master, self._master = self._master, None
        self.link.unlink(missing_ok=True)
        if master is not None:
            os.close(master)  # the reader's next read fails: the device is gone

    def write(self, data: bytes) -> None:
        with self._lock:
            if self._master is not None:
                os.write(self._master, data)

    def _send(self) -> None:
        while not self._stop.wait(FRAME_EVERY):
            with self._lock:
                if self._master is not None and self._frame:
                    os.write(self._master, self._frame)

    def close(self) -> None:
        self._stop.set()
        self._sender.join(1)
        self.unplug()


@dataclass
class _Watch:
    """Each health change of the one reader, as (time, status), for the waits below."""

    seen: list[tuple[float, str]] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def __call__(self, role: str, health: ReaderHealth) -> None:
        with self.changed:
            self.seen.append((time.monotonic(), health.status))
            self.changed.notify_all()

    def wait(self, status: str, after: float, limit: float = 15.0) -> float:
        """When the reader was first `status` at or after `after`."""
        deadline = time.monotonic() + limit
        with self.changed:
            while True:
                hit = next((t for t, s in self.seen if s == status and t >= after), None)
                if hit is not None:
                    return hit
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TapTimeout(f"the reader was not {status!r} within {limit:g} s: {self.seen[-3:]}")
                self.changed.wait(left)


def _tap_of(hub: Hub, uid: str, limit: float = 15.0) -> float:
    """When the hub delivered the tap of `uid` (other events are skipped)."""
    deadline = time.monotonic() + limit
    while (left := deadline - time.monotonic()) > 0:
        event = hub.get(timeout=left)
        if event is not None and event.kind == "tap" and event.uid == uid:
            return time.monotonic()
    raise TapTimeout(f"no tap of {uid} within {limit:g} s: {hub.health()}")


@dataclass
class Replugs:
    back: list[float] = field(default_factory=list)  # plugged back -> the reader ok again
    first_tap: list[float] = field(default_factory=list)  # plugged back -> the tag on it read again
    unplugged: list[float] = field(default_factory=list)  # how long each unplug lasted
    timeouts: int = 0  # plugged back and not read in time


def bench_replug(count: int, unplugged: tuple[float, float] = (0.5, 4.0), seed: int = 15) -> Replugs:
    """Unplug an RDM6300 (a tag lying on it) and plug it back `count` times, as the table's hub runs it."""
    rng = random.Random(seed)
    out = Replugs()
    with tempfile.TemporaryDirectory(prefix="kikimimi-replug-") as folder:
        device = _PluggedPty(Path(folder) / "ttyREADER")
        device.plug("0100000000")
        watch = _Watch()
        specs = parse_readers({"hand:1": {"path": str(device.link), "protocol": "rdm6300"}}, "bench")
        try:
            with Hub(specs, on_health=watch) as hub:  # the table's debounce and backoff
                _tap_of(hub, "0100000000")
                for i in range(count):
                    down = rng.uniform(*unplugged)
                    gone = time.monotonic()
                    device.unplug()
                    watch.wait("reconnecting", gone)  # the hub saw it go
                    time.sleep(max(0.0, gone + down - time.monotonic()))
                    uid = f"{i + 2:010x}"  # a fresh tag each time: its tap cannot be an old one
                    plugged = time.monotonic()
                    device.plug(uid)
                    out.unplugged.append(plugged - gone)
                    try:
                        out.first_tap.append(_tap_of(hub, uid) - plugged)
                        out.back.append(watch.wait("ok", plugged) - plugged)
                    except TapTimeout:
                        out.timeouts += 1
        finally:
            device.close()
    return out


class _HangingUidLine(UidLineDriver):
    """A uid-line reader whose read stops returning when the bridge sends HANG, as nfcpy's RC-S380 read with
    no timeout does. A read that never returns cannot be made on a pty (pyserial's reads time out), so the
    hang is in this driver's frame handling; the port, the hub, its watchdog and the reopening are real."""

    release = threading.Event()
    _tail = b""

    def handle(self, data: bytes, state: TagState) -> bool:
        self._tail = self._tail[-8:] + data  # the word may come in pieces
        if b"HANG" in self._tail:
            _HangingUidLine.release.wait()  # no heartbeat from here on
            return False
        return super().handle(data, state)


def _hanging_driver(spec: ReaderSpec, sim: object = None) -> Driver:
    return _HangingUidLine(spec)


@dataclass
class Stalls:
    found: list[float] = field(default_factory=list)  # the read hangs -> reported stalled
    reopened: list[float] = field(default_factory=list)  # the read hangs -> a fresh driver reads (ok)


def bench_stall(count: int) -> Stalls:
    """Make a plugged-in reader hang `count` times; the hub's watchdog (its real window) must find it."""
    out = Stalls()
    _HangingUidLine.release.clear()
    with tempfile.TemporaryDirectory(prefix="kikimimi-stall-") as folder:
        device = _PluggedPty(Path(folder) / "ttyBRIDGE")
        device.plug()
        watch = _Watch()
        specs = parse_readers({"hand:1": {"path": str(device.link), "protocol": "uid-line"}}, "bench")
        try:
            with Hub(specs, on_health=watch, driver_factory=_hanging_driver) as hub:
                watch.wait("ok", 0)
                for i in range(count):
                    uid = f"04{i + 1:06x}"
                    hung = time.monotonic()
                    device.write(b"HANG\r\n")
                    out.found.append(watch.wait("stalled", hung) - hung)
                    out.reopened.append(watch.wait("ok", hung) - hung)
                    device.write(f"UID {uid}\r\nREMOVED\r\n".encode())
                    _tap_of(hub, uid)  # the fresh driver reads
        finally:
            _HangingUidLine.release.set()  # the abandoned threads end
            device.close()
    return out


@dataclass
class Recovery:
    back: Samples = field(default_factory=Samples)  # the fault over -> the reader ok again
    tap: Samples = field(default_factory=Samples)  # the fault over -> a tag put on it read
    found: Samples = field(default_factory=Samples)  # the fault begins -> the hub reports it (stalls)


def bench_pcscd_restart(count: int) -> Recovery | str:
    """pcscd stopped and started again under a running PC/SC reader: from pcscd being started again to the
    reader ok, and to the tap of a card put on it then (pcscd's own start, with its readers, included)."""
    from testbed.vpcd import PcscdUnavailable, SharedPcscd

    try:
        shared = SharedPcscd().acquire()
    except PcscdUnavailable as exc:
        return str(exc)
    out = Recovery()
    try:
        with shared.restarting():
            _restarts(shared, shared.lease()[0], count, out)
    finally:
        shared.release()
    return out


def _restarts(shared: SharedPcscd, reader: VirtualReader, count: int, out: Recovery) -> None:
    watch = _Watch()
    with Hub(parse_readers({"field": {"path": reader.path}}, "bench"), debounce=0, on_health=watch) as hub:
        watch.wait("ok", 0)
        for i in range(count):
            down = time.monotonic()
            with shared.stopped():
                watch.wait("reconnecting", down)
                up = time.monotonic()  # pcscd is started again as the block ends: its own start counts
            out.back.add(_waited(watch, "ok", up))
            card = reader.card(f"05{i + 1:012x}")

            def tap(card: VirtualCard = card, up: float = up) -> float:
                card.place()
                try:
                    return _next_tap(hub) - up
                finally:
                    card.lift()
                    _drain_removal(hub)
            out.tap.add(tap)




def bench_pn532_faults(replugs: int, silences: int) -> tuple[Recovery, Recovery] | str:
    """A PN532's USB-UART adapter unplugged and plugged back (the chip power-cycled with it), and its chip
    gone silent at 921600 baud and back (still at 921600: the driver must find it there)."""
    from testbed.pn532_emulator import Pn532Emulator

    if not os.access("/dev", os.W_OK):
        return "the PN532 is reached as tty:NAME:pn532, a link in /dev: needs root"
    replug, silent = Recovery(), Recovery()
    with Pn532Emulator() as chip:
        watch = _Watch()
        specs = parse_readers({"field": {"path": chip.path, "profile": "pn532-uart"}}, "bench")
        with Hub(specs, debounce=0, on_health=watch) as hub:
            watch.wait("ok", 0)
            for i in range(replugs):
                gone = time.monotonic()
                chip.unplug()
                watch.wait("reconnecting", gone)
                time.sleep(0.5)
                plugged = time.monotonic()
                chip.plug()
                replug.back.add(_waited(watch, "ok", plugged))
                replug.tap.add(_tapped(chip, hub, f"09{i + 1:06x}", plugged))
            for i in range(silences):
                hush = time.monotonic()
                chip.silent.set()
                silent.found.add(_waited(watch, "stalled", hush))
                time.sleep(0.5)
                back = time.monotonic()
                chip.silent.clear()
                silent.back.add(_waited(watch, "ok", back))
                silent.tap.add(_tapped(chip, hub, f"0a{i + 1:06x}", back))
    return replug, silent


def _waited(watch: _Watch, status: str, since: float) -> Callable[[], float]:
    """A sample: seconds from `since` until the reader's health is `status`."""
    return lambda: watch.wait(status, since) - since


def _tapped(chip: Pn532Emulator, hub: Hub, uid: str, since: float) -> Callable[[], float]:
    """A sample: seconds from `since` until `uid`, put on the chip now, is a tap on the hub's queue."""
    return lambda: _put(chip, hub, uid) - since


def _put(chip: Pn532Emulator, hub: Hub, uid: str) -> float:
    chip.tag = uid
    try:
        return _tap_of(hub, uid)
    finally:
        chip.tag = None
        _drain_removal(hub)


def _report(name: str, latencies: list[float] | Samples) -> bool:
    samples = latencies if isinstance(latencies, Samples) else Samples(list(latencies))
    target = TARGET_MS[name]
    timed_out = f"  {samples.timeouts} timed out" if samples.timeouts else ""
    if not samples.values:
        print(f"{name:18} n=   0  no sample read{timed_out} (target p99 < {target:g} ms: FAILED)")
        if samples.note:
            print(f"{'':18} last: {samples.note}")
        return False
    ms = sorted(x * 1000 for x in samples.values)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    good = p99 < target and not samples.timeouts
    verdict = "ok" if good else "OVER TARGET"
    print(f"{name:18} n={len(ms):4}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  max {ms[-1]:7.2f} ms{timed_out}  "
          f"(target p99 < {target:g} ms: {verdict})")
    if samples.timeouts and samples.note:
        print(f"{'':18} last timeout: {samples.note}")
    return good


def _skipped(name: str, why: str) -> None:
    print(f"{name:18} skipped: {why}")


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("testbed") is None:  # the emulated readers are the repository's, not the product's
        print("bench readers: it measures emulated readers from the repository's testbed/ package; "
              "run it from a checkout (./run bench readers)", file=sys.stderr)
        return 2
    # Every unplug and stall is a warning in the hub's log by design; here they are the point, not news.
    # The level is put back: a bench run in a process that goes on (a test) must not silence its hub.
    quiet = [logging.getLogger(name) for name in ("kikimimi.devices.hub", "kikimimi.devices.pn532_uart",
                                                   "nfc.clf.pn532", "nfc.clf")]
    levels = [log.level for log in quiet]
    for log in quiet:
        log.setLevel(logging.CRITICAL)
    try:
        return _run(args)
    finally:
        for log, level in zip(quiet, levels, strict=True):
            log.setLevel(level)


_CLOCK: list[Stopwatch] = []


def _timed(what: Callable[[], _T]) -> _T:
    """Run `what()` under a Stopwatch, kept for `_clock_line()` to print under its figures."""
    with Stopwatch() as clock:
        result = what()
    _CLOCK[:] = [clock]
    return result


def _clock_line() -> None:
    if _CLOCK:
        print(f"{'':18} {_CLOCK.pop().line()} (this process: readers, emulators, hub)")


def _run(args: argparse.Namespace) -> int:
    ok = True
    latency = args.only is not None or not (args.replug or args.stall)
    if latency and args.only in (None, "serial"):
        ok &= _report("serial", _timed(lambda: bench_serial(args.serial_samples)))
        _clock_line()
    if latency and args.only in (None, "nfc"):
        ok &= _report("nfc-udp", _timed(lambda: bench_nfc(args.nfc_samples)))
        _clock_line()
    if latency and args.only in (None, "pcsc"):
        print("pcsc: a card put on a vpcd reader of pcscd (presence polled every 0.4 s), to the tap:")
        got = _timed(lambda: bench_pcsc(args.pcsc_samples, args.seed))
        if isinstance(got, str):
            _skipped("pcsc", got)
        else:
            ok &= _report("pcsc", got)
        _clock_line()
    if latency and args.only in (None, "pn532"):
        print("pn532: a tag put on a PN532 emulated on a pty (nfcpy's tty transport and pn532 driver), to the tap:")
        got = _timed(lambda: bench_pn532(args.pn532_samples))
        if isinstance(got, str):
            _skipped("pn532", got)
        else:
            ok &= _report("pn532", got)
        _clock_line()
    faults = set(args.faults_of)
    if args.replug and "serial" in faults:
        low, high = sorted(args.unplugged)
        replugs = _timed(lambda: bench_replug(args.replug, (low, high), args.seed))
        print(f"re-plug: an RDM6300 on a pty, unplugged {low:g}-{high:g} s each time "
              f"(mean {statistics.mean(replugs.unplugged):.2f} s), plugged back into the same path:")
        ok &= _report("replug back", Samples(replugs.back, replugs.timeouts))  # the table says "back" here
        ok &= _report("replug tap", Samples(replugs.first_tap, replugs.timeouts))
        _clock_line()
    if args.replug and "pcsc" in faults:
        print("pcscd restarted under a PC/SC reader (from pcscd being started again):")
        restart = _timed(lambda: bench_pcscd_restart(args.replug))
        if isinstance(restart, str):
            _skipped("pcscd restart", restart)
        else:
            ok &= _report("pcscd restart back", restart.back)
            ok &= _report("pcscd restart tap", restart.tap)
        _clock_line()
    if (args.replug or args.stall) and "pn532" in faults:
        print("pn532: the adapter unplugged 0.5 s and back; the chip silent 0.5 s and back at 921600 baud:")
        pn532 = _timed(lambda: bench_pn532_faults(args.replug, args.stall))
        if isinstance(pn532, str):
            _skipped("pn532 faults", pn532)
        else:
            replug, silent = pn532
            if args.replug:
                ok &= _report("pn532 replug back", replug.back)
                ok &= _report("pn532 replug tap", replug.tap)
            if args.stall:
                ok &= _report("pn532 silent found", silent.found)
                ok &= _report("pn532 back ok", silent.back)
                ok &= _report("pn532 back tap", silent.tap)
        _clock_line()
    if args.stall and "serial" in faults:
        stalls = _timed(lambda: bench_stall(args.stall))
        print(f"stall: a uid-line reader whose read hangs while plugged in (watchdog window {STALL_AFTER:g} s):")
        ok &= _report("stall found", stalls.found)
        ok &= _report("stall reopened", stalls.reopened)
        _clock_line()
    return 0 if ok else 1
