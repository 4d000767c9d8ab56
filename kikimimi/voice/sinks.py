"""Sinks for outputs without a sound card: a WAV file per output, a text transcript, nothing."""

from __future__ import annotations

import logging
import threading
import wave
from pathlib import Path

import numpy as np

from kikimimi.voice.catalog import Line
from kikimimi.voice.clip import Clip, resample, to_int16

transcript_log = logging.getLogger("kikimimi.voice.transcript")

WAV_RATE = 48000
GAP_SECONDS = 0.15  # silence between two utterances on one output, so phrases do not run together


class WavSink:
    """Every utterance of one output appended to `<dir>/<output>.wav` (valid after each utterance)."""

    def __init__(self, folder: Path, output: str) -> None:
        self.path = folder / (output.replace(":", "-") + ".wav")
        self._wave: wave.Wave_write | None = None
        self._lock = threading.Lock()

    def open(self) -> str | None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            w = wave.open(str(self.path), "wb")  # noqa: SIM115 - open for the whole game
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(WAV_RATE)
        except OSError as exc:
            return f"cannot write {self.path} ({exc}); check [voice] wav_dir"
        self._wave = w
        return None

    def play(self, clip: Clip, gain: float) -> None:
        if self._wave is None:
            return
        samples = resample(clip, WAV_RATE).samples * gain
        gap = np.zeros(int(GAP_SECONDS * WAV_RATE), dtype=np.float32)
        with self._lock:
            # wave rewrites the header after each write, so the file is valid even if we stop here.
            self._wave.writeframes(to_int16(np.concatenate([samples, gap])).tobytes())

    def close(self) -> None:
        with self._lock:
            if self._wave is not None:
                self._wave.close()
                self._wave = None


class Transcript:
    """The text of what an output would have said, logged (and kept, for the console and tests)."""

    def __init__(self, keep: int = 1000) -> None:
        self.lines: list[tuple[str, Line]] = []
        self._keep = keep
        self._lock = threading.Lock()

    def write(self, output: str, line: Line) -> None:
        transcript_log.info("%s: %s", output, line.text)
        with self._lock:
            self.lines.append((output, line))
            del self.lines[: -self._keep]
