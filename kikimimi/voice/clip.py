"""Audio clips: mono float32 samples at a rate; 16-bit WAV files, and the shaping of a clip for a voice pack
(a rate that suits speech, one loudness for every phrase and both voices)."""

from __future__ import annotations

import wave
from collections.abc import Sequence
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
    scaled: np.ndarray = np.clip(samples, -1.0, 1.0) * 32767.0
    return scaled.astype("<i2")


def trim(clip: Clip, pad: float = 0.02) -> Clip:
    """Without leading and trailing silence (keeping `pad` seconds), so speech starts at once."""
    loud = np.flatnonzero(np.abs(clip.samples) > SILENCE)
    if loud.size == 0:
        return Clip(clip.samples[:0], clip.rate)
    keep = int(pad * clip.rate)
    start = max(0, int(loud[0]) - keep)
    end = min(len(clip.samples), int(loud[-1]) + 1 + keep)
    return Clip(clip.samples[start:end], clip.rate)


# Tight joins: speech begins at its first 5 ms frame within TRIM_BELOW_PEAK_DB of the clip's loudest frame and
# ends after its last; quieter frames (an engine's padding, the breath of a sentence-final pause) are heard as
# silence. EDGE_MARGIN is kept on both sides so no mora's onset or release is cut (tests/voice/test_joins.py).
EDGE_FRAME_SECONDS = 0.005
TRIM_BELOW_PEAK_DB = 45.0
EDGE_MARGIN = 0.005


def frame_levels(samples: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """The RMS level (dBFS) of each EDGE_FRAME_SECONDS frame (the last one partial), and the frame length."""
    frame = max(1, int(EDGE_FRAME_SECONDS * rate))
    count = -(-len(samples) // frame)
    padded = np.zeros(count * frame, dtype=np.float64)
    padded[: len(samples)] = samples
    power = np.mean(padded.reshape(count, frame) ** 2, axis=1)
    return 10 * np.log10(power + 1e-20), frame


def speech_bounds(clip: Clip) -> tuple[int, int]:
    """Where the speech of a clip starts and ends (sample indexes; equal when there is none)."""
    if len(clip.samples) == 0:
        return 0, 0
    levels, frame = frame_levels(clip.samples, clip.rate)
    loud = np.flatnonzero(levels > max(float(levels.max()) - TRIM_BELOW_PEAK_DB, -100.0))
    if loud.size == 0:
        return 0, 0
    return int(loud[0]) * frame, min(len(clip.samples), (int(loud[-1]) + 1) * frame)


def tighten(clip: Clip) -> Clip:
    """The clip without the padding and pause before and after its speech (EDGE_MARGIN kept): what a join
    puts between two parts is then the join's own pause. The one trim for joined phrases, pack clips and
    `kikimimi bench voice --lag`'s lengths."""
    start, end = speech_bounds(clip)
    if end <= start:
        return Clip(clip.samples[:0], clip.rate)
    margin = int(EDGE_MARGIN * clip.rate)
    return Clip(clip.samples[max(0, start - margin): min(len(clip.samples), end + margin)], clip.rate)


def join_clips(clips: Sequence[Clip], pauses: float | Sequence[float]) -> Clip:
    """Clips of one rate said as one utterance: each tightened, `pauses` seconds of silence between them (one
    figure for every join, or one per join)."""
    if not clips:
        raise ValueError("nothing to join")
    rate = clips[0].rate
    gaps = [pauses] * (len(clips) - 1) if isinstance(pauses, int | float) else list(pauses)
    pieces: list[np.ndarray] = []
    for index, clip in enumerate(clips):
        if clip.rate != rate:
            raise ValueError(f"clips to join differ in rate ({clip.rate} Hz, not {rate} Hz)")
        if index:
            pieces.append(np.zeros(int(round(gaps[index - 1] * rate)), np.float32))
        pieces.append(tighten(clip).samples.astype(np.float32, copy=False))
    return Clip(np.concatenate(pieces), rate)


def join_seconds(part_seconds: Sequence[float], pauses: float | Sequence[float]) -> float:
    """How long a joined phrase lasts, from its tightened parts' lengths (what `join_clips` makes): one pause
    for every join, or one per join."""
    joins = max(0, len(part_seconds) - 1)
    return sum(part_seconds) + (pauses * joins if isinstance(pauses, int | float) else sum(list(pauses)[:joins]))


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


SPEECH_RATE = 24000  # Hz, a pack's highest rate: keeps speech up to 12 kHz (`kikimimi bench voice --pack-size`)
LOUDNESS_LUFS = -20.0  # EBU R128 integrated loudness of every pack clip
PEAK_CEILING = 0.89  # -1 dBFS: a clip that would peak above this at the target loudness is made quieter


def speech_rate(rate: int) -> int:
    """The rate a pack stores a clip at: its own, up to SPEECH_RATE (espeak-ng's 22050 Hz is kept)."""
    return min(rate, SPEECH_RATE)


def resample_for_pack(clip: Clip, rate: int) -> Clip:
    """The clip at a lower rate, filtered (polyphase) so nothing above the new Nyquist folds back."""
    from math import gcd

    from scipy.signal import resample_poly  # type: ignore[import-untyped]

    if clip.rate == rate or len(clip.samples) == 0:
        return clip
    g = gcd(rate, clip.rate)
    return Clip(resample_poly(clip.samples, rate // g, clip.rate // g).astype(np.float32), rate)


def loudness(clip: Clip) -> float:
    """Integrated loudness in LUFS (EBU R128 / ITU-R BS.1770); -inf for silence. A clip shorter than the
    standard 400 ms block is measured in one block of its own length."""
    import pyloudnorm  # type: ignore[import-untyped]

    if len(clip.samples) < 64:
        return float("-inf")
    meter = pyloudnorm.Meter(clip.rate, block_size=min(0.4, 0.9 * clip.seconds))  # it wants more than a block
    return float(meter.integrated_loudness(clip.samples.astype(np.float64)))


def normalise_loudness(clip: Clip, target: float = LOUDNESS_LUFS, ceiling: float = PEAK_CEILING) -> Clip:
    """The clip at `target` LUFS, or as near as its peak allows (never above `ceiling`)."""
    measured = loudness(clip)
    if not np.isfinite(measured):
        return clip
    gain = 10 ** ((target - measured) / 20)
    peak = float(np.max(np.abs(clip.samples))) * gain
    if peak > ceiling:
        gain *= ceiling / peak
    return Clip((clip.samples * gain).astype(np.float32), clip.rate)


def time_stretch(clip: Clip, speed: float) -> Clip:
    """The clip `speed` times faster at the same pitch (WSOLA: 30 ms Hann frames overlapped by half, each
    taken within 10 ms of its place where it best continues the one before, so voiced sounds stay whole)."""
    if speed == 1.0 or clip.seconds < 0.1:
        return clip
    x = clip.samples
    frame = int(0.03 * clip.rate) // 2 * 2
    hop = frame // 2
    tolerance = int(0.01 * clip.rate)
    window = np.hanning(frame).astype(np.float32)
    count = int((len(x) / speed - frame) // hop) + 1
    if count < 2:
        return clip
    out = np.zeros(count * hop + frame, dtype=np.float32)
    norm = np.zeros_like(out)
    padded = np.concatenate([x, np.zeros(frame + 2 * tolerance, dtype=np.float32)])
    previous = 0
    for k in range(count):
        ideal = int(k * hop * speed)
        if k == 0:
            start = 0
        else:
            natural = padded[previous + hop: previous + hop + frame]  # how the last frame went on
            lo = max(0, ideal - tolerance)
            region = padded[lo: lo + frame + 2 * tolerance]
            scores = np.correlate(region, natural, mode="valid")
            start = lo + int(np.argmax(scores))
        out[k * hop: k * hop + frame] += padded[start: start + frame] * window
        norm[k * hop: k * hop + frame] += window
        previous = start
    out /= np.maximum(norm, 1e-3)
    return Clip(out[: int(len(x) / speed)].astype(np.float32), clip.rate)
