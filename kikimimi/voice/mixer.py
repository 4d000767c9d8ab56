"""One persistent PortAudio output stream per physical device, mixing its outputs in the callback.

Each named output on a device is a `Lane`: its own channels, volume and queue of clips, played in
order. A lane writes only into its own channels, which is where privacy is enforced for audio: a
phrase queued on `hand:2`'s lane cannot reach another channel. Several lanes (three earphones and a
speaker on one 4-channel card) play at the same time.

The audio callback waits on nothing: each lane keeps a ring of samples ready to play, filled by the
threads that queue clips and by the device's feeder thread, and the callback only copies slices of the
rings into its block (two integers say what is written and what is played; each has one writer). Hooks
(a phrase's first frame) run on the feeder thread, with the time the callback took. Python still needs
the interpreter lock to run the callback: the lock is handed over more often while a stream plays
(SWITCH_SECONDS), and a table asks for real-time scheduling (hardware_docs: the boot unit).
"""

from __future__ import annotations

import collections
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

FirstFrameHook = Callable[[str, float, float], None]  # (output, say_time, frame_time), perf_counter seconds
STALL_SECONDS = 1.5  # an open stream whose callback has not run for this long has lost its device
RING_SECONDS = 12.0  # audio a lane holds ready: a whole long phrase (a round summary) goes in at once
FEED_SECONDS = 0.01  # how often the feeder tops the rings up and runs the hooks
# How long a Python thread may hold the interpreter lock while another wants it (CPython's default is 5 ms):
# the audio callback waits at most about this long for it, well inside one block of the card.
SWITCH_SECONDS = 0.001
# The callback's thread asks for this real-time (SCHED_FIFO) priority when the process may have it (root, or the
# boot unit's LimitRTPRIO): above the table's other threads (the unit's CPUSchedulingPriority), so neither they
# nor another busy process keep it from the card.
AUDIO_RT_PRIORITY = 25


def load_sounddevice() -> tuple[ModuleType | None, str | None]:
    """sounddevice, or why it cannot be used (no PortAudio library, for one)."""
    try:
        import sounddevice  # type: ignore[import-untyped]
    except OSError as exc:
        return None, (
            f"PortAudio is not installed ({exc}); install the Debian package libportaudio2 "
            f"(speech goes to the transcript until then)"
        )
    except ImportError as exc:
        return None, f"sounddevice is not installed ({exc}); `pip install sounddevice`"
    return sounddevice, None


@dataclass
class Playing:
    """A clip queued on a lane, at the device's rate; `first_sound` is its first non-silent sample."""

    samples: np.ndarray
    say_time: float
    first_sound: int
    pos: int = 0  # how much of it is in the lane's ring


class Lane:
    """One output's channels on a device stream, and its clips: a backlog (whole clips, for the writers) and a
    ring (samples ready, for the callback). Writers hold `_write_lock`; the callback never takes a lock."""

    def __init__(self, name: str, channels: tuple[int, ...], volume: float = 1.0, muted: bool = False,
                 capacity: int = 48000) -> None:
        self.name = name
        self.channels = channels  # 0-based channel indexes on the stream
        self.volume = volume
        self.muted = muted
        self.backlog: collections.deque[Playing] = collections.deque()  # not yet wholly in the ring
        self.ring = np.zeros(capacity, np.float32)
        self.written = 0  # samples ever put in the ring (only writers change it)
        self.played = 0  # samples ever taken from it (only the callback changes it)
        self.starved = 0  # callbacks that found the ring empty with a clip still waiting to be written
        self.marks: collections.deque[tuple[int, float]] = collections.deque()  # (ring position, say_time)
        self._write_lock = threading.Lock()

    def resize(self, capacity: int) -> None:
        """A ring of `capacity` samples (the stream's rate times RING_SECONDS); only while nothing plays."""
        with self._write_lock:
            if capacity != len(self.ring):
                self.ring = np.zeros(capacity, np.float32)
                self.written = self.played = 0

    @property
    def busy(self) -> bool:
        return bool(self.backlog) or self.written > self.played

    def seconds_queued(self, rate: int) -> float:
        """Audio not yet played: what the ring holds and the clips still to write into it."""
        waiting = sum(len(p.samples) - p.pos for p in list(self.backlog))
        return (self.written - self.played + waiting) / rate

    def queue(self, playing: Playing) -> None:
        """Play `playing` after what is queued; what fits goes into the ring at once, the feeder writes the rest."""
        with self._write_lock:
            waiting = bool(self.backlog)
            self._fill(playing)  # before it shows in the backlog: the callback counts a waiting clip as starved
            if waiting or playing.pos < len(playing.samples):
                self.backlog.append(playing)
                self._fill()

    def feed(self) -> None:
        """Top the ring up from the backlog (the device's feeder thread)."""
        if self.backlog:
            with self._write_lock:
                self._fill()

    def _fill(self, new: Playing | None = None) -> None:
        """Write the backlog into the ring as room allows; or only `new`, when nothing waits before it."""
        ring, capacity = self.ring, len(self.ring)
        if new is not None and self.backlog:
            return
        while (cur := new or (self.backlog[0] if self.backlog else None)) is not None:
            room = capacity - (self.written - self.played)
            if room <= 0:
                return
            if cur.pos == 0:
                self.marks.append((self.written + cur.first_sound, cur.say_time))
            n = min(room, len(cur.samples) - cur.pos)
            start = self.written % capacity
            first = min(n, capacity - start)
            ring[start:start + first] = cur.samples[cur.pos:cur.pos + first]
            ring[: n - first] = cur.samples[cur.pos + first:cur.pos + n]
            cur.pos += n
            self.written += n  # published after the samples are in place
            if cur.pos < len(cur.samples):
                continue
            if new is not None:
                return
            self.backlog.popleft()

    def clear(self) -> int:
        """Drop everything queued (the stream is closed: nothing plays meanwhile); how many clips."""
        with self._write_lock:
            dropped = len(self.marks) + sum(1 for p in self.backlog if p.pos == 0)  # not begun
            self.backlog.clear()
            self.marks.clear()
            self.written = self.played
            return dropped

    def pull(self, out: np.ndarray, frames: int, fired: collections.deque[tuple[str, float, float]]) -> None:
        """Add this lane's next `frames` samples into its channels of `out` (the audio callback: slices only)."""
        played, capacity = self.played, len(self.ring)
        n = min(frames, self.written - played)
        if n < frames and self.backlog:
            self.starved += 1
        if n <= 0:
            return
        gain = 0.0 if self.muted else self.volume
        if gain:
            start = played % capacity
            first = min(n, capacity - start)
            head, tail = self.ring[start:start + first], self.ring[: n - first]
            for ch in self.channels:
                out[:first, ch] += head * gain
                if n > first:
                    out[first:n, ch] += tail * gain
        end = played + n
        self.played = end
        marks = self.marks
        while marks and marks[0][0] < end:
            _pos, say_time = marks.popleft()
            fired.append((self.name, say_time, time.perf_counter()))


class DeviceStream:
    """The stream of one device and the lanes on it; reopened by `open()` after a fault."""

    def __init__(
        self,
        sd: ModuleType,
        device: str | int | None,
        lanes: Sequence[Lane],
        latency: str | float,
        on_first_frame: FirstFrameHook | None = None,
        on_fault: Callable[[DeviceStream, str], None] | None = None,
    ):
        self.sd = sd
        self.device = device
        self.lanes = list(lanes)
        self.latency = latency
        self.on_first_frame = on_first_frame
        self.on_fault = on_fault
        self.channels = max(ch for lane in self.lanes for ch in lane.channels) + 1
        self.rate = 48000
        self.index: int | None = None
        self.label = "default" if device is None else repr(device)
        self.stream: Any = None
        self.error: str | None = "not opened"
        self.last_callback = 0.0
        self.underflows = 0  # PortAudio's output underflows: the card ran dry
        self.callback_errors = 0
        self.fired: collections.deque[tuple[str, float, float]] = collections.deque()  # first frames, for hooks
        self._lock = threading.Lock()
        self._feeder: threading.Thread | None = None
        self._raised = True  # the callback's thread has asked for real-time scheduling (once a stream opens)
        self.realtime = False  # ... and has it
        self._feeding = threading.Event()

    @property
    def ok(self) -> bool:
        return self.stream is not None and self.error is None

    @property
    def starved(self) -> int:
        """Callbacks in which a lane had a clip waiting but no samples ready (its feeder was late): a gap."""
        return sum(lane.starved for lane in self.lanes)

    def open(self) -> str | None:
        """Open (or reopen) the stream; None when it runs, else why not, with how to fix it."""
        with self._lock:
            self._close_stream()
            try:
                info = resolve_device(self.sd, self.device)
            except ValueError as exc:
                self.error = str(exc)
                return self.error
            self.index = int(info["index"])
            self.label = f"{info['name']!r} (#{self.index})"
            if info["max_output_channels"] < self.channels:
                self.error = (
                    f"device {self.label} has {info['max_output_channels']} output channel(s), the "
                    f"outputs on it use channel {self.channels}; fix `channels` in [outputs]"
                )
                return self.error
            self.rate = int(info["default_samplerate"]) or 48000
            for lane in self.lanes:
                lane.resize(int(self.rate * RING_SECONDS))
            try:
                stream = self.sd.OutputStream(
                    device=self.index,
                    channels=self.channels,
                    samplerate=self.rate,
                    dtype="float32",
                    latency=self.latency,
                    callback=self._callback,
                    finished_callback=self._finished,
                )
                self.last_callback = time.monotonic()
                self._raised = False
                stream.start()
            except Exception as exc:  # PortAudioError and friends: busy, unplugged, unsupported rate
                self.error = f"device {self.label} could not be opened: {exc}"
                return self.error
            self.stream = stream
            self.error = None
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_SECONDS))
            self._start_feeder()
            return None

    def _start_feeder(self) -> None:
        if self._feeder is not None and self._feeder.is_alive():
            return
        self._feeding.set()
        self._feeder = threading.Thread(target=self._feed, name=f"audio-feed {self.label}", daemon=True)
        self._feeder.start()

    def _feed(self) -> None:
        """Keep the lanes' rings topped up and run the first-frame hooks, while the stream is open."""
        while self._feeding.is_set():
            for lane in self.lanes:
                lane.feed()
            self.run_hooks()
            time.sleep(FEED_SECONDS)
        self.run_hooks()

    def run_hooks(self) -> None:
        """The first frames the callback has played, to `on_first_frame` (outside the callback: a hook may lock)."""
        while self.fired:
            output, say_time, frame_time = self.fired.popleft()
            if self.on_first_frame is not None:
                try:
                    self.on_first_frame(output, say_time, frame_time)
                except Exception:
                    log.exception("first-frame hook failed for %s", output)

    def stalled(self) -> bool:
        """The stream stopped without being asked to (device unplugged) or its callback no longer runs."""
        if self.stream is None or self.error is not None:
            return False
        try:
            active = bool(self.stream.active)
        except Exception:
            active = False
        return not active or time.monotonic() - self.last_callback > STALL_SECONDS

    def fail(self, reason: str) -> int:
        """Mark the device lost: close the stream, drop what was queued; the number of clips dropped."""
        with self._lock:
            self.error = reason
            self._close_stream()
            return sum(lane.clear() for lane in self.lanes)

    def close(self) -> None:
        with self._lock:
            self.error = "closed"
            self._close_stream()

    def _close_stream(self) -> None:
        self._feeding.clear()
        stream, self.stream = self.stream, None
        if stream is not None:
            try:
                stream.abort(ignore_errors=True)
                stream.close(ignore_errors=True)
            except Exception as exc:
                log.debug("closing %s: %s", self.label, exc)
        feeder = self._feeder
        if feeder is not None and feeder is not threading.current_thread():
            feeder.join(timeout=1)

    def _callback(self, outdata: np.ndarray, frames: int, _time: Any, status: Any) -> None:
        self.last_callback = time.monotonic()
        if not self._raised:
            self._raised = True
            # PortAudio's own thread only (a test calling the callback must not make itself real-time).
            self.realtime = threading.current_thread() is not threading.main_thread() and raise_to_realtime()
        outdata.fill(0.0)
        if status.output_underflow:
            self.underflows += 1
        try:
            for lane in self.lanes:
                lane.pull(outdata, frames, self.fired)
            np.clip(outdata, -1.0, 1.0, out=outdata)
        except Exception as exc:  # never let an exception stop the device's stream
            self.callback_errors += 1
            outdata.fill(0.0)
            if self.callback_errors == 1:
                log.exception("audio callback on %s: %s", self.label, exc)

    def _finished(self) -> None:
        # PortAudio ends a stream on its own when the device goes away; the Voice's watchdog reopens it.
        if self.stream is not None and self.error is None and self.on_fault is not None:
            self.on_fault(self, f"device {self.label} stopped (unplugged?)")


def raise_to_realtime() -> bool:
    """Ask real-time scheduling for the calling thread (Linux: pid 0 is the thread); whether it has it."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(AUDIO_RT_PRIORITY))
    except (AttributeError, OSError):  # not Linux, or not allowed (no LimitRTPRIO): the default scheduling
        return False
    return True


def resolve_device(sd: ModuleType, device: str | int | None) -> dict[str, Any]:
    """The output device's info; ValueError naming the device and how to find the right one."""
    try:
        if device is None:
            info = sd.query_devices(kind="output")
        elif isinstance(device, int):
            info = sd.query_devices(device)
        else:
            info = sd.query_devices(device, kind="output")
    except Exception as exc:  # ValueError for no/ambiguous match, PortAudioError for a bad index
        raise ValueError(
            f"audio device {device if device is not None else 'default'!r} not found ({exc}); "
            f"see `kikimimi voices list-outputs`"
        ) from exc
    if not info or info.get("max_output_channels", 0) < 1:
        raise ValueError(
            f"audio device {device!r} has no output channels; see `kikimimi voices list-outputs`"
        )
    return dict(info)


def reinitialize_portaudio(sd: ModuleType) -> None:
    """PortAudio reads the device list once; re-reading it finds a re-plugged device (all streams closed)."""
    sd._terminate()
    sd._initialize()
