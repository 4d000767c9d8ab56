"""Live speech through pyttsx3 + espeak-ng into the WAV sink; Open JTalk's absence is a clear message."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest
from voice_helpers import VIRTUAL_TABLE, make_catalog, needs_portaudio, read_raw

from kikimimi.games.base import Say
from kikimimi.voice.catalog import Catalog, catalog
from kikimimi.voice.config import OutputSpec, VoiceSpec
from kikimimi.voice.router import Voice
from kikimimi.voice.tts import BackendUnavailable, SpeechWorker, make_backend

CATALOG_JA = """
language = "ja"
[phrases]
"test.private" = { text = "{seat}番の席です。", kana = "{seat}ばんの せきです。" }
"""


def espeak_works() -> bool:
    return SpeechWorker("espeak", "en").start() is None


needs_espeak = pytest.mark.skipif(not espeak_works(), reason="needs pyttsx3 and the espeak-ng library")


def wav_samples(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32) / 32768.0


@needs_espeak
@pytest.mark.parametrize(("lang", "catalog_text"), [("en", None), ("ja", CATALOG_JA)])
def test_live_speech_into_wav_files_per_output(tmp_path: Path, lang: str, catalog_text: str | None) -> None:
    folder = make_catalog(tmp_path, catalog_text, f"test.{lang}.toml") if catalog_text else make_catalog(tmp_path)
    spec = VoiceSpec(lang, "espeak", None, None, False, tmp_path / "wav")
    outputs = [OutputSpec("hand:1", None, (1,), 1.0, "wav"), OutputSpec("hand:2", None, (1,), 1.0, "wav")]
    voice = Voice.open(spec, outputs, phrases=Catalog.load(lang, folder))
    try:
        voice.say(Say("hand:2", "test.private", {"seat": 2}))
        assert voice.wait_idle(timeout=30)
    finally:
        voice.close()
    spoken = wav_samples(tmp_path / "wav" / "hand-2.wav")
    assert len(spoken) > 0.5 * 48000 and np.max(np.abs(spoken)) > 0.1  # about a second of speech
    assert len(wav_samples(tmp_path / "wav" / "hand-1.wav")) == 0  # seat 1 was told nothing


@needs_espeak
def test_espeak_voice_is_chosen_by_language() -> None:
    assert make_backend("espeak", "ja").voice == "jpx/ja"  # type: ignore[attr-defined]
    assert make_backend("espeak", "en").voice.startswith("gmw/en")  # type: ignore[attr-defined]


def test_missing_open_jtalk_is_a_clear_message(mocker) -> None:
    """pyopenjtalk-plus is a dependency, so its absence is made with a mock: a None entry in sys.modules
    makes `import pyopenjtalk` fail as it does on a machine where the package cannot be installed."""
    mocker.patch.dict(sys.modules, {"pyopenjtalk": None})
    with pytest.raises(BackendUnavailable, match=r"pyopenjtalk-plus"):
        make_backend("jtalk", "ja")
    worker = SpeechWorker("jtalk", "ja")
    assert "pyopenjtalk-plus" in (worker.start() or "")
    assert worker.backend is None and worker.render(None).exception() is not None  # a fallback, not a crash


@needs_espeak
def test_japanese_falls_back_to_espeak_where_open_jtalk_cannot_run_said_once(mocker, tmp_path, caplog) -> None:
    """Open JTalk's absence is made with a mock (see above); espeak-ng then speaks, and the table says so once."""
    mocker.patch.dict(sys.modules, {"pyopenjtalk": None})
    spec = VoiceSpec("ja", "jtalk", None, None, False, tmp_path / "wav")
    with caplog.at_level("WARNING", logger="kikimimi.voice"):
        voice = Voice.open(spec, [OutputSpec("hand:1", None, (1,), 1.0, "wav")],
                           phrases=Catalog.load("ja", make_catalog(tmp_path, CATALOG_JA, "test.ja.toml")))
    try:
        voice.say(Say("hand:1", "test.private", {"seat": 1}))
        assert voice.wait_idle(timeout=30)
    finally:
        voice.close()
    said = [r.getMessage() for r in caplog.records if "speaking ja with espeak" in r.getMessage()]
    assert len(said) == 1 and "Open JTalk" in said[0]
    assert voice.spec.backend == "espeak" and voice.audio.backend == "espeak"
    assert len(wav_samples(tmp_path / "wav" / "hand-1.wav")) > 0.3 * 48000


@pytest.mark.skipif(importlib.util.find_spec("pyopenjtalk") is None, reason="pyopenjtalk-plus is not installed")
def test_open_jtalk_speaks_japanese_from_the_display_text() -> None:
    line = catalog("ja").render("turn.attacked", {"seat": 2, "count": 4})
    clip = make_backend("jtalk", "ja").synth(line)
    assert clip.rate > 0 and len(clip.samples) > clip.rate // 2  # more than half a second of speech
    assert float(abs(clip.samples).max()) > 0.05  # not silence


def test_open_jtalk_is_given_digits_one_by_one_and_the_catalogs_readings(tmp_path: Path) -> None:
    text = ('language = "ja"\n[params]\nnumber = "digits"\n[readings]\n"の位" = "のくらい"\n[phrases]\n'
            '"test.n" = { text = "{seat}番の位は{number}です。", kana = "{seat}ばんの くらいわ {number}です。" }\n')
    words = Catalog.load("ja", make_catalog(tmp_path, text, "test.ja.toml"))
    line = words.render("test.n", {"seat": 2, "number": "12"})
    assert line.text == "2番の位は12です。"
    assert line.natural == "2番のくらいはイチ、ニです。"  # not じゅうに, not イ


@needs_espeak
@needs_portaudio
@pytest.mark.hardware_emulation
def test_voices_say_command_on_a_virtual_dongle(tmp_path: Path) -> None:
    home, audio = tmp_path / "home", tmp_path / "audio"
    home.mkdir()
    audio.mkdir()
    (home / ".asoundrc").write_text(VIRTUAL_TABLE.read_text())
    config = tmp_path / "table.toml"
    config.write_text(
        'lang = "en"\n[voice]\nbackend = "espeak"\npack = "no-pack"\n'
        '[outputs."hand:3"]\ndevice = "kikimimi_dongle3"\nchannels = [2]\n'
    )
    env = {**os.environ, "HOME": str(home), "KIKIMIMI_AUDIO_DIR": str(audio)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kikimimi",
            "voices",
            "say",
            "bringup.this_is_seat",
            "seat=3",
            "--to",
            "hand:3",
            "--config",
            str(config),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "hand:3: This is the earphone of seat 3." in proc.stdout
    dongle = read_raw(audio / "dongle3.raw", 2)
    assert np.max(np.abs(dongle[:, 1])) > 0.1 and not dongle[:, 0].any()
