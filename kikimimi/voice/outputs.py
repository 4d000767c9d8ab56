"""The sound cards and WAV files behind a voice's outputs: opening them, each output's health, and a lost
device tried again (`Voice` speaks through them; this module keeps them working)."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from kikimimi.games.base import Say
from kikimimi.voice.catalog import Catalog
from kikimimi.voice.clip import Clip, resample
from kikimimi.voice.config import OutputSpec, VoiceConfigError, VoiceSpec, device_key
from kikimimi.voice.mixer import DeviceStream, FirstFrameHook, Lane, load_sounddevice, reinitialize_portaudio
from kikimimi.voice.sinks import GAP_SECONDS, WavSink

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
WATCH_SECONDS = 0.25


@dataclass(frozen=True)
class OutputHealth:
    status: str  # "ok" | "fallback" (speaking to the transcript, being retried) | "failed"
    detail: str
    underruns: int = 0  # PortAudio output underflows of the output's device stream since it started, and
    # blocks its lanes' rings ran dry with a clip waiting (the sound card ran dry: a click or gap; many of
    # them: raise [voice] latency, give the table real-time scheduling). Shared by the
    # outputs of one device; 0 for a wav, transcript or null sink.


def sound_cards() -> str:
    """The kernel's list of sound cards: when it changes, a device was plugged in or out."""
    try:
        return Path("/proc/asound/cards").read_text()
    except OSError:
        return str(time.monotonic() // 60)  # elsewhere: look again once a minute


class Output:
    """One named output: its queue and worker, and where its sound goes now."""

    def __init__(self, spec: OutputSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.volume = spec.volume
        self.muted = False
        self.jobs: queue.Queue[tuple[Say, float, Catalog] | None] = queue.Queue()
        self.working = False
        self.lane: Lane | None = None
        self.device: DeviceStream | None = None
        self.wav: WavSink | None = None
        self.status = "ok"
        self.detail = ""
        self.thread: threading.Thread | None = None
        self.dropped = 0  # phrases superseded while they waited
        self._resampled: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()

    def set_health(self, status: str, detail: str) -> None:
        """Quietly: the Voice says what changed, once per device (`OutputDevices.group_health`)."""
        self.status, self.detail = status, detail

    def samples_for(self, clip: Clip, audio_key: str, rate: int) -> np.ndarray:
        """The clip at the device rate with a gap after it; recent ones cached (phrases repeat a lot)."""
        key = (audio_key, rate)
        cached = self._resampled.get(key)
        if cached is not None:
            self._resampled.move_to_end(key)
            return cached
        at_rate = resample(clip, rate).samples
        samples = np.concatenate([at_rate, np.zeros(int(GAP_SECONDS * rate), dtype=np.float32)])
        if audio_key:
            self._resampled[key] = samples
        while len(self._resampled) > 128:
            self._resampled.popitem(last=False)
        return samples


class OutputDevices:
    """The devices of a voice's outputs: each sound card's stream (the outputs on one card share it) and WAV
    file opened, a fault said once per device, and a watchdog that reopens what was lost."""

    def __init__(self, spec: VoiceSpec, outputs: dict[str, Output], on_first_frame: FirstFrameHook | None,
                 closed: threading.Event) -> None:
        self.spec = spec
        self.outputs = outputs
        self.on_first_frame = on_first_frame
        self.devices: list[DeviceStream] = []
        self.sd: ModuleType | None = None
        self.used: set[str] | None = None  # outputs the game uses; None while opening (faults said at the end)
        self._closed = closed
        self._watchdog: threading.Thread | None = None
        self._reopen_lock = threading.Lock()
        self._cards = sound_cards()

    def start(self) -> None:
        """Open every WAV file and sound card (a missing one falls back to the transcript)."""
        self._start_wav_outputs()
        self._start_audio_outputs()

    def watch(self, used: set[str]) -> None:
        """Say the faults of the outputs in `used`, then keep the devices working."""
        self.used = used
        self.log_faults(list(self.outputs.values()))
        self._watchdog = threading.Thread(target=self._watch, name="voice-watchdog", daemon=True)
        self._watchdog.start()

    def close(self) -> None:
        for device in self.devices:
            device.close()
        if self._watchdog is not None:
            self._watchdog.join(timeout=2)

    def log_faults(self, outs: Sequence[Output]) -> None:
        """One line per distinct fault (outputs on one missing device share it), for the outputs in use."""
        faults: dict[tuple[str, str], list[str]] = {}
        for out in outs:
            if out.status != "ok" and self.used is not None and out.name in self.used:
                faults.setdefault((out.status, out.detail), []).append(out.name)
        for (status, detail), names in faults.items():
            log.warning("%s %s: %s: %s", "outputs" if len(names) > 1 else "output", ", ".join(names), status, detail)

    def group_health(self, outs: Sequence[Output], status: str, detail: str) -> None:
        """Set the health of the outputs of one device; say the change in one line (a fault, or a recovery)."""
        changed = [out for out in outs if (out.status, out.detail) != (status, detail)]
        for out in outs:
            out.set_health(status, detail)
        if self.used is None or not changed:
            return  # still opening: Voice.open says the faults at its end
        if status != "ok":
            self.log_faults(changed)
        elif names := [out.name for out in changed if out.name in self.used]:
            log.info("%s %s: ok %s", "outputs" if len(names) > 1 else "output", ", ".join(names), detail)

    def _start_wav_outputs(self) -> None:
        for out in self.outputs.values():
            if out.spec.sink != "wav":
                continue
            assert self.spec.wav_dir is not None  # parse_voice requires it
            out.wav = WavSink(self.spec.wav_dir, out.name)
            error = out.wav.open()
            if error:
                out.wav = None
                out.set_health("fallback", f"{error}; speaking to the transcript")
            else:
                out.set_health("ok", f"wav {out.wav.path}")

    def _start_audio_outputs(self) -> None:
        audio = [o for o in self.outputs.values() if o.spec.sink == "audio"]
        if not audio:
            return
        self.sd, error = load_sounddevice()
        if self.sd is None:
            for out in audio:
                out.set_health("fallback", f"{error}")
            return
        groups: dict[str, list[Output]] = {}
        for out in audio:
            groups.setdefault(self._physical_key(out.spec.device), []).append(out)
        self._check_resolved_channels(groups)
        for outs in groups.values():
            lanes = []
            for out in outs:
                out.lane = Lane(out.name, tuple(ch - 1 for ch in out.spec.channels), out.volume)
                lanes.append(out.lane)
            device = DeviceStream(
                self.sd,
                outs[0].spec.device,
                lanes,
                self.spec.latency,
                self.on_first_frame,
                self.device_fault,
            )
            self.devices.append(device)
            for out in outs:
                out.device = device
            self._open_device(device)

    def _physical_key(self, device: str | int | None) -> str:
        """Outputs naming one device differently (name and index) share one stream."""
        from kikimimi.voice.mixer import resolve_device

        if self.sd is None:
            return device_key(device)
        try:
            return f"#{resolve_device(self.sd, device)['index']}"
        except ValueError:
            return device_key(device)

    def _check_resolved_channels(self, groups: dict[str, list[Output]]) -> None:
        if self.spec.allow_shared_channels:
            return
        for outs in groups.values():
            owner: dict[int, str] = {}
            for out in outs:
                for ch in out.spec.channels:
                    if ch in owner:
                        raise VoiceConfigError(
                            f'outputs "{owner[ch]}" and "{out.name}" name the same device '
                            f"({outs[0].spec.device!r} / {out.spec.device!r}) and share channel {ch}, "
                            f"so a private phrase would reach the other; give each its own channel"
                        )
                    owner[ch] = out.name

    def _open_device(self, device: DeviceStream) -> bool:
        error = device.open()
        outs = [out for out in self.outputs.values() if out.device is device]
        if error:
            self.group_health(outs, "fallback", f"{error}; speaking to the transcript, retrying every "
                                                 f"{RETRY_SECONDS:.0f} s")
        else:
            for out in outs:
                chans = ",".join(str(c) for c in out.spec.channels)
                self.group_health([out], "ok", f"{device.label} channel {chans} at {device.rate} Hz")
        return error is None

    def device_fault(self, device: DeviceStream, reason: str) -> None:
        dropped = device.fail(reason)
        outs = [out for out in self.outputs.values() if out.device is device]
        self.group_health(outs, "fallback", f"{reason}; speaking to the transcript, retrying every "
                                             f"{RETRY_SECONDS:.0f} s")
        if dropped:
            log.warning("%s: %d queued phrase(s) not played (they are in the transcript)", device.label, dropped)

    def _watch(self) -> None:
        next_retry = time.monotonic() + RETRY_SECONDS
        while not self._closed.wait(WATCH_SECONDS):
            for device in self.devices:
                if device.stalled():
                    self.device_fault(device, f"device {device.label} stopped responding (unplugged?)")
            if time.monotonic() >= next_retry:
                next_retry = time.monotonic() + RETRY_SECONDS
                self.retry_devices()

    def retry_devices(self) -> None:
        """Try failed devices again; re-read PortAudio's device list when it is safe (no stream playing)."""
        failed = [d for d in self.devices if not d.ok]
        if not failed or self.sd is None or self._closed.is_set():
            return
        with self._reopen_lock:
            for device in failed:
                self._open_device(device)
            still = [d for d in self.devices if not d.ok]
            cards = sound_cards()
            if still and cards != self._cards and not any(lane.busy for d in self.devices for lane in d.lanes):
                self._cards = cards
                # PortAudio lists devices once per initialisation: to see a re-plugged one, start over.
                working = [d for d in self.devices if d.ok]
                for d in working:
                    d.close()
                try:
                    reinitialize_portaudio(self.sd)
                except Exception as exc:
                    log.warning("re-reading the audio device list failed: %s", exc)
                for d in self.devices:
                    self._open_device(d)
