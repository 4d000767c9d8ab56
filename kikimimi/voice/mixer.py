"""One persistent PortAudio output stream per physical device, mixing its outputs in the callback.

Each named output on a device is a `Lane`: its own channels, volume and queue of clips, played in
order. A lane writes only into its own channels, which is where privacy is enforced for audio: a
phrase queued on `hand:2`'s lane cannot reach another channel. Several lanes (three earphones and a
speaker on one 4-channel card) play at the same time.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

FirstFrameHook = Callable[[str, float, float], None]  # (output, say_time, frame_time), perf_counter seconds
STALL_SECONDS = 1.5  # an open stream whose callback has not run for this long has lost its device


def load_sounddevice() -> tuple[ModuleType | None, str | None]:
    """sounddevice, or why it cannot be used (no PortAudio library, for one)."""
    try:
        import sounddevice
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
    pos: int = 0
    reported: bool = False


@dataclass
class Lane:
    name: str
    channels: tuple[int, ...]  # 0-based channel indexes on the stream
    volume: float = 1.0
    muted: bool = False
    pending: collections.deque[Playing] = field(default_factory=collections.deque)
    current: Playing | None = None

    @property
    def busy(self) -> bool:
        return self.current is not None or bool(self.pending)

    def clear(self) -> int:
        dropped = len(self.pending) + (self.current is not None)
        self.pending.clear()
        self.current = None
        return dropped

    def mix(self, out: np.ndarray, frames: int, hook: FirstFrameHook | None) -> None:
        """Add this lane's next `frames` samples into its channels of `out` (runs in the audio callback)."""
        filled = 0
        gain = 0.0 if self.muted else self.volume
        while filled < frames:
            cur = self.current
            if cur is None:
                try:
                    cur = self.current = self.pending.popleft()
                except IndexError:
                    return
            n = min(frames - filled, len(cur.samples) - cur.pos)
            if gain:
                chunk = cur.samples[cur.pos : cur.pos + n] * gain
                for ch in self.channels:
                    out[filled : filled + n, ch] += chunk
            if not cur.reported and cur.first_sound < cur.pos + n:
                cur.reported = True
                if hook is not None:
                    hook(self.name, cur.say_time, time.perf_counter())
            cur.pos += n
            filled += n
            if cur.pos >= len(cur.samples):
                self.current = None


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
        self.underflows = 0
        self.callback_errors = 0
        self._lock = threading.Lock()

    @property
    def ok(self) -> bool:
        return self.stream is not None and self.error is None

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
                stream.start()
            except Exception as exc:  # PortAudioError and friends: busy, unplugged, unsupported rate
                self.error = f"device {self.label} could not be opened: {exc}"
                return self.error
            self.stream = stream
            self.error = None
            return None

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
        stream, self.stream = self.stream, None
        if stream is not None:
            try:
                stream.abort(ignore_errors=True)
                stream.close(ignore_errors=True)
            except Exception as exc:
                log.debug("closing %s: %s", self.label, exc)

    def _callback(self, outdata: np.ndarray, frames: int, _time: Any, status: Any) -> None:
        self.last_callback = time.monotonic()
        outdata.fill(0.0)
        if status.output_underflow:
            self.underflows += 1
        try:
            for lane in self.lanes:
                lane.mix(outdata, frames, self.on_first_frame)
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
