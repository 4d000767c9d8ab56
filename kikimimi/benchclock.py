"""The clocks every benchmark reads: wall time beside CPU time, and the machine's load while it ran.

A shared, noisy machine stretches wall time but not CPU time, so a bench reports both and the load
average, and a reader can tell a slow program from a busy machine.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path


def process_cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system) of this process, or of another by pid (from /proc), in seconds."""
    if pid is None or pid == os.getpid():
        return time.process_time()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def children_cpu_seconds() -> float:
    """CPU time (user + system) of this process's finished child processes (a process pool's workers, once
    the pool is shut down), in seconds: add the difference over a block to its own CPU time."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_average() -> float:
    """The one-minute load average (NaN where the system has none)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


@dataclass
class Stopwatch:
    """Wall and CPU time of a block: `with Stopwatch() as sw: ...; sw.wall, sw.cpu, sw.load`."""

    wall: float = 0.0
    cpu: float = 0.0
    load: float = field(default=float("nan"))
    _wall0: float = 0.0
    _cpu0: float = 0.0

    def __enter__(self) -> Stopwatch:
        self._wall0, self._cpu0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self._wall0
        self.cpu = time.process_time() - self._cpu0
        self.load = load_average()

    def rate(self, count: float) -> tuple[float, float]:
        """`count` per second of CPU time and per second of wall time."""
        return (count / self.cpu if self.cpu > 0 else float("inf"),
                count / self.wall if self.wall > 0 else float("inf"))

    def line(self) -> str:
        """`wall 1.23 s · cpu 1.10 s · load 0.84`: the line a bench prints under its figures."""
        return f"wall {self.wall:.3f} s · cpu {self.cpu:.3f} s · load {self.load:.2f}"
