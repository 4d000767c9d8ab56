"""Helpers for the voice tests: a temporary catalog, tone recordings, the ALSA virtual table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from kikimimi.paths import data_dir
from kikimimi.voice.clip import Clip, write_wav

HERE = Path(__file__).resolve().parent
VIRTUAL_TABLE = data_dir("devices") / "alsa" / "virtual-table.asoundrc"
FILE_RATE = 16000  # what the virtual table's files hold

CATALOG_EN = """
language = "en"
[values.suit]
heart = "heart"
spade = "spade"
[phrases]
"test.hello" = "Hello table."
"test.private" = "Seat {seat}, this is for you alone."
"test.card" = "The {suit} {count}."
"""


def make_catalog(tmp_path: Path, text: str = CATALOG_EN, name: str = "test.en.toml") -> Path:
    folder = tmp_path / "catalog"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def tone(freq: float, seconds: float, rate: int = 22050, amp: float = 0.5) -> Clip:
    t = np.arange(int(seconds * rate)) / rate
    return Clip((amp * np.sin(2 * np.pi * freq * t)).astype(np.float32), rate)


def record(folder: Path, entry: str, clip: Clip) -> None:
    """A recorded-pack WAV, as the table's owner would record it."""
    write_wav(folder / f"{entry}.wav", clip)


def player_job(tmp_path: Path, catalog_dir: Path, outputs: dict, says: list, recordings: dict[str, Clip],
               **extra) -> dict:
    """A job for the player subprocess: recorded clips (entry -> tone) instead of speech, no TTS backend."""
    rec = tmp_path / "recorded"
    for entry, clip in recordings.items():
        record(rec, entry, clip)
    return {
        "lang": "en",
        "catalog_dir": str(catalog_dir),
        "outputs": outputs,
        "says": says,
        "voice": {"backend": "none", "recorded": str(rec)},
        **extra,
    }


def portaudio_available() -> bool:
    code = "import sounddevice"
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


needs_portaudio = pytest.mark.skipif(
    not portaudio_available(), reason="needs libportaudio2 (PortAudio) for sounddevice"
)


def run_player(tmp_path: Path, job: dict, asoundrc: Path = VIRTUAL_TABLE) -> dict:
    """Play a job in a subprocess against the ALSA virtual table; audio files land in tmp_path/audio."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".asoundrc").write_text(asoundrc.read_text())
    audio = tmp_path / "audio"
    audio.mkdir(exist_ok=True)
    job = {"base_dir": str(tmp_path), **job}
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(job))
    env = {**os.environ, "HOME": str(home), "KIKIMIMI_AUDIO_DIR": str(audio)}
    env.pop("ALSA_CONFIG_PATH", None)
    proc = subprocess.run(
        [sys.executable, str(HERE / "player.py"), str(job_file)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def read_raw(path: Path, channels: int) -> np.ndarray:
    """A virtual-table file as float samples, one column per channel."""
    data = np.fromfile(path, dtype="<i2").astype(np.float32) / 32768.0
    return data[: len(data) // channels * channels].reshape(-1, channels)


def loud_seconds(samples: np.ndarray, threshold: float = 0.02) -> float:
    """How long the signal is audible, in 10 ms windows (a sine's zero crossings do not count as gaps)."""
    window = FILE_RATE // 100
    usable = len(samples) // window * window
    rms = np.sqrt((samples[:usable].reshape(-1, window) ** 2).mean(axis=1))
    return float(np.count_nonzero(rms > threshold)) * window / FILE_RATE


def dominant_freq(samples: np.ndarray) -> float:
    loud = samples[np.abs(samples) > 1e-3]
    spectrum = np.abs(np.fft.rfft(loud))
    return float(np.argmax(spectrum)) * FILE_RATE / len(loud)


class FakeStream:
    """A PortAudio output stream the test drives itself: its callback is called by hand, and its device
    can be pulled out. Only for what a real ALSA file device cannot do (vanish, run dry)."""

    def __init__(self, callback, **kwargs) -> None:  # noqa: ANN001
        self.callback, self.kwargs, self.active, self.latency = callback, kwargs, False, 0.01

    def start(self) -> None:
        self.active = True

    def abort(self, ignore_errors: bool = True) -> None:
        self.active = False

    def close(self, ignore_errors: bool = True) -> None:
        self.active = False


def fake_sounddevice(present: dict | None = None, channels: int = 2) -> SimpleNamespace:
    """A sounddevice module with one card, "card", of `channels` outputs; `present["card"] = False`
    unplugs it. The streams it opened are in `.streams`."""
    streams: list[FakeStream] = []

    def query_devices(device=None, kind=None):  # noqa: ANN001, ANN202
        if present is not None and not present["card"]:
            raise ValueError("No output device matching 'card'")
        return {"index": 0, "name": "card", "max_output_channels": channels, "default_samplerate": 48000.0}

    def output_stream(callback, **kwargs):  # noqa: ANN001, ANN202
        streams.append(FakeStream(callback, **kwargs))
        return streams[-1]

    return SimpleNamespace(query_devices=query_devices, OutputStream=output_stream, streams=streams,
                           _terminate=lambda: None, _initialize=lambda: None)
