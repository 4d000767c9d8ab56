"""Audio clips: mono float32 samples at a rate, read from and written to 16-bit WAV files."""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SILENCE = 1e-3  # below this amplitude a sample counts as silence (about -60 dBFS)


@dataclass(frozen=True)
class Clip:
    samples: np.ndarray  # float32, mono, -1..1
    rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate


def read_wav(path: Path) -> Clip:
    """A 8/16/32-bit PCM WAV file as a mono clip (channels are averaged)."""
    with wave.open(str(path), "rb") as w:
        width, channels, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
        raw = w.readframes(w.getnframes())
    if width == 1:
        data = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 2:
        data = np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0
    elif width == 4:
        data = np.frombuffer(raw, "<i4").astype(np.float32) / 2147483648.0
    else:
        raise ValueError(f"{path}: {8 * width}-bit WAV is not supported; save it as 16-bit PCM")
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    return Clip(np.ascontiguousarray(data, dtype=np.float32), rate)


def write_wav(path: Path, clip: Clip) -> None:
    """A clip as a 16-bit mono WAV, written to a temporary name first so a crash leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(clip.rate)
        w.writeframes(to_int16(clip.samples).tobytes())
    tmp.replace(path)


def to_int16(samples: np.ndarray) -> np.ndarray:
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2")


def trim(clip: Clip, pad: float = 0.02) -> Clip:
    """Without leading and trailing silence (keeping `pad` seconds), so speech starts at once."""
    loud = np.flatnonzero(np.abs(clip.samples) > SILENCE)
    if loud.size == 0:
        return Clip(clip.samples[:0], clip.rate)
    keep = int(pad * clip.rate)
    start = max(0, int(loud[0]) - keep)
    end = min(len(clip.samples), int(loud[-1]) + 1 + keep)
    return Clip(clip.samples[start:end], clip.rate)


def resample(clip: Clip, rate: int) -> Clip:
    """The clip at another rate (linear interpolation: speech at 22-48 kHz needs nothing finer)."""
    if clip.rate == rate or len(clip.samples) == 0:
        return Clip(clip.samples, rate)
    n = int(round(len(clip.samples) * rate / clip.rate))
    positions = np.arange(n, dtype=np.float64) * (clip.rate / rate)
    out = np.interp(positions, np.arange(len(clip.samples)), clip.samples).astype(np.float32)
    return Clip(out, rate)


def first_sound(samples: np.ndarray) -> int:
    """Index of the first non-silent sample (len(samples) if there is none)."""
    loud = np.flatnonzero(np.abs(samples) > SILENCE)
    return int(loud[0]) if loud.size else len(samples)
