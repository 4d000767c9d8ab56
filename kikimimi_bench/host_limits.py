"""The meeting host under oversized and slow requests: its memory, how soon it refuses, what it closes.

One `kikimimi venue host` process on a throwaway SQLite records file with one open meeting. With the
organiser's token (the worst case: past authentication) it is sent a huge result body without a
declared length (chunked: the host must count as it reads), a huge declared length, and `--slow`
connections that send half a request line and then nothing. Printed: the host's resident memory
before and at its peak (VmHWM), how much of the body it read before answering, when each slow
connection was closed, and the host's CPU time beside the wall time and the load average.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from kikimimi.benchclock import Stopwatch, load_average, process_cpu_seconds

TOKEN = "bench-organiser-token-0f-the-limits"  # strong enough for `venue host --token`


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mb", type=int, default=200, help="size of the huge body in MB (default 200)")
    parser.add_argument("--slow", type=int, default=20, help="connections that never finish their headers "
                                                             "(default 20)")
    parser.add_argument("--json", action="store_true")


def _memory_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return -1


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _huge(port: int, meeting: int, megabytes: int, chunked: bool) -> tuple[int, bytes, float]:
    """Send a `megabytes` result body (chunked, or with its length declared) until the host answers;
    (bytes sent before the answer, its first line, seconds until it)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {megabytes * 2**20}"
    sock.sendall(f"POST /api/meetings/{meeting}/tables/1/results HTTP/1.1\r\nHost: bench\r\n"
                 f"Authorization: Bearer {TOKEN}\r\n{framing}\r\n\r\n".encode())
    chunk = b"x" * 2**20
    frame = b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk
    total = megabytes * len(frame)
    sent = 0
    started = time.perf_counter()
    sock.setblocking(False)
    answer = b""
    with contextlib.suppress(OSError):  # the host closes once it has answered
        while sent < total:
            with contextlib.suppress(BlockingIOError):
                answer += sock.recv(4096)
            if answer:
                break
            try:
                sent += sock.send(frame[sent % len(frame):])
            except BlockingIOError:
                time.sleep(0.001)
        if chunked and not answer:
            sock.setblocking(True)
            sock.sendall(b"0\r\n\r\n")
    sock.settimeout(60)
    with contextlib.suppress(OSError):  # a timeout: no answer at all
        while b"\r\n" not in answer and (more := sock.recv(4096)):
            answer += more
    took = time.perf_counter() - started
    sock.close()
    return sent, answer.split(b"\r\n", 1)[0], took


def _slow_connections(port: int, count: int, limit: float = 30.0) -> list[float]:
    """Seconds until the host closed each of `count` connections that never finish their request line
    (inf: still open after `limit` seconds)."""
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=limit)
        sock.sendall(b"GET /api/meetings/current HT")
        socks.append((sock, time.perf_counter()))
    closed = []
    for sock, opened in socks:
        try:
            sock.recv(100)  # b"" when closed by the host
            closed.append(time.perf_counter() - opened)
        except OSError:
            closed.append(float("inf"))
        sock.close()
    return closed


def run(args: argparse.Namespace) -> int:
    from kikimimi.records.store import RecordStore

    with tempfile.TemporaryDirectory(prefix="kikimimi-limits-") as folder:
        db = Path(folder) / "records.sqlite"
        with RecordStore(db) as store:
            meeting = store.meetings.start("half", ["A1", "A2", "A3", "B1", "B2", "B3"], add_unknown=True, tables=2)
        port = _free_port()
        log = open(Path(folder) / "host.log", "wb")  # noqa: SIM115 - closed below
        host = subprocess.Popen([sys.executable, "-m", "kikimimi", "venue", "host", "--db", str(db), "--listen",
                                 f"127.0.0.1:{port}", "--token", TOKEN], stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/api/meetings/{meeting}", timeout=2).status_code == 200:
                        break
                if host.poll() is not None or time.monotonic() > deadline:
                    print((Path(folder) / "host.log").read_text(errors="replace"), file=sys.stderr)
                    return 1
                time.sleep(0.1)
            rss_before = _memory_kb(host.pid, "VmRSS")
            cpu_before = process_cpu_seconds(host.pid)
            with Stopwatch() as watch:
                declared_sent, declared_line, declared_took = _huge(port, meeting, args.mb, chunked=False)
                sent, first_line, took = _huge(port, meeting, args.mb, chunked=True)
                slow = _slow_connections(port, args.slow)
                alive = httpx.get(f"http://127.0.0.1:{port}/api/meetings/{meeting}", timeout=10).status_code
            figures: dict[str, Any] = {
                "host_rss_before_mb": round(rss_before / 1024, 1),
                "host_rss_peak_mb": round(_memory_kb(host.pid, "VmHWM") / 1024, 1),
                "body_mb": args.mb, "declared_answer": declared_line.decode(errors="replace"),
                "declared_sent_before_answer_mb": round(declared_sent / 2**20, 1),
                "declared_answer_s": round(declared_took, 3),
                "chunked_sent_before_answer_mb": round(sent / 2**20, 1),
                "chunked_answer": first_line.decode(errors="replace"), "chunked_answer_s": round(took, 3),
                "slow_connections": args.slow, "slow_closed_after_s_max": round(max(slow), 1) if slow else None,
                "slow_closed_after_s_min": round(min(slow), 1) if slow else None,
                "host_answers_after": alive,
                "host_cpu_s": round(process_cpu_seconds(host.pid) - cpu_before, 3),
                "wall_s": round(watch.wall, 3), "load": round(load_average(), 2),
            }
        finally:
            host.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                host.wait(timeout=10)
            if host.poll() is None:
                host.kill()
                host.wait()
            log.close()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"host memory: {figures['host_rss_before_mb']} MB before, {figures['host_rss_peak_mb']} MB at its peak")
    for kind in ("declared", "chunked"):
        print(f"{args.mb} MB body ({kind} length): answered {figures[kind + '_answer']!r} after "
              f"{figures[kind + '_sent_before_answer_mb']} MB had left this side ({figures[kind + '_answer_s']} s; "
              "socket buffers hold part of it)")
    print(f"{args.slow} connections with unfinished headers: closed by the host after "
          f"{figures['slow_closed_after_s_min']} to {figures['slow_closed_after_s_max']} s "
          "(inf: still open after 30 s)")
    print(f"the host still answers: {alive}; host cpu {figures['host_cpu_s']} s")
    print(watch.line())
    refused = declared_line.startswith(b"HTTP/1.1 413") and first_line.startswith(b"HTTP/1.1 413")
    return 0 if refused and alive == 200 else 1
