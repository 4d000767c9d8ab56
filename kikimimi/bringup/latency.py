"""Tap to speech, per reader: from the moment a reader saw a tag to the first audio frame of its answer.

Reader events carry `time.monotonic()`, the voice's first-frame hook `time.perf_counter()`; both are
converted to one clock through an offset measured once. A phrase is matched to its tap through the
output it was said on and the time it was queued (an output plays its phrases in order).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), interpolated linearly between the nearest ranks."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = (len(ordered) - 1) * min(100.0, max(0.0, q)) / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class _Pending:
    role: str
    tap_perf: float  # when the reader saw the tag, on the perf_counter clock
    queued: float  # when bring-up called Voice.say, perf_counter
    done: bool = False


@dataclass
class ReaderLatency:
    role: str
    seconds: list[float] = field(default_factory=list)  # tap -> first audio frame
    dispatch: list[float] = field(default_factory=list)  # tap -> Voice.say (hub and bring-up)
    unmeasured: int = 0  # taps whose answer had no audio frame (text only, fallback, wav)

    def summary(self) -> dict[str, float | int | None]:
        s = self.seconds
        return {
            "taps": len(s) + self.unmeasured,
            "measured": len(s),
            "p50_ms": round(percentile(s, 50) * 1000, 2) if s else None,
            "p99_ms": round(percentile(s, 99) * 1000, 2) if s else None,
            "max_ms": round(max(s) * 1000, 2) if s else None,
            "dispatch_p50_ms": round(percentile(self.dispatch, 50) * 1000, 2) if self.dispatch else None,
        }


class LatencyMeter:
    """Thread-safe: `said()` from bring-up's loop, `first_frame()` from the audio callback."""

    def __init__(self) -> None:
        self._offset = time.perf_counter() - time.monotonic()
        self._lock = threading.Lock()
        self._pending: dict[str, list[_Pending]] = {}
        self.readers: dict[str, ReaderLatency] = {}

    def to_perf(self, monotonic_t: float) -> float:
        return monotonic_t + self._offset

    def said(self, role: str, output: str, tap_monotonic: float, queued: float | None = None) -> None:
        """Bring-up queued the answer to a tap of `role` on `output` (call right before Voice.say)."""
        queued = time.perf_counter() if queued is None else queued
        tap = self.to_perf(tap_monotonic)
        with self._lock:
            stats = self.readers.setdefault(role, ReaderLatency(role))
            stats.dispatch.append(max(0.0, queued - tap))
            pending = self._pending.setdefault(output, [])
            pending.append(_Pending(role, tap, queued))
            del pending[:-64]  # answers that never sounded are forgotten, not matched later

    def first_frame(self, output: str, say_time: float, frame_time: float) -> None:
        """The voice's on_first_frame hook: the latest phrase queued on `output` no later than say_time."""
        with self._lock:
            match = None
            for p in self._pending.get(output, []):
                if p.queued <= say_time and not p.done:
                    match = p
            if match is None:
                return
            match.done = True
            self.readers.setdefault(match.role, ReaderLatency(match.role)).seconds.append(frame_time - match.tap_perf)

    def finish(self) -> dict[str, ReaderLatency]:
        """Count answers that never produced a frame; the per-reader results."""
        with self._lock:
            for pending in self._pending.values():
                for p in pending:
                    if not p.done:
                        self.readers.setdefault(p.role, ReaderLatency(p.role)).unmeasured += 1
                        p.done = True
            return dict(self.readers)

    def last_ms(self, role: str) -> float | None:
        with self._lock:
            r = self.readers.get(role)
            return r.seconds[-1] * 1000 if r and r.seconds else None
