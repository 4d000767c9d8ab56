"""Reader latency: last frame byte on a pty / emulated tag on udp -> tap on the hub's queue (p50, p99)."""

from __future__ import annotations

import argparse
import os
import statistics
import time
import tty

from kikimimi.devices.config import parse_readers
from kikimimi.devices.frames import rdm6300_frame
from kikimimi.devices.hub import Hub
from kikimimi.devices.nfc_emulator import EmulatedTag, free_udp_port

TARGET_MS = {"serial": 5.0, "nfc-udp": 50.0}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--serial-samples", type=int, default=300)
    parser.add_argument("--nfc-samples", type=int, default=30, help="each one starts an emulator process")
    parser.add_argument("--only", choices=("serial", "nfc"), help="measure one kind only")


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


def _next_tap(hub: Hub) -> float:
    while True:
        event = hub.get(timeout=5)
        if event is None:
            raise RuntimeError(f"no tap within 5 s: {hub.health()}")
        if event.kind == "tap":
            return time.monotonic()


def _report(name: str, latencies: list[float]) -> bool:
    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    target = TARGET_MS[name]
    verdict = "ok" if p99 < target else "OVER TARGET"
    print(f"{name:8} n={len(ms):4}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  max {ms[-1]:7.2f} ms  "
          f"(target p99 < {target:g} ms: {verdict})")
    return p99 < target


def run(args: argparse.Namespace) -> int:
    ok = True
    if args.only in (None, "serial"):
        ok &= _report("serial", bench_serial(args.serial_samples))
    if args.only in (None, "nfc"):
        ok &= _report("nfc-udp", bench_nfc(args.nfc_samples))
    return 0 if ok else 1
