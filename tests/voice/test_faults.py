"""Faults: no device, no PortAudio, a device that vanishes mid-game, a phrase for an absent output."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from voice_helpers import fake_sounddevice, needs_portaudio, player_job, read_raw, record, run_player, tone
from waiting import wait_until

from kikimimi.games.base import Say
from kikimimi.voice import outputs as outputs_module
from kikimimi.voice.catalog import Catalog
from kikimimi.voice.config import OutputSpec, VoiceSpec
from kikimimi.voice.router import Voice


def job(tmp_path: Path, catalog_dir: Path, outputs: dict, says: list, **extra) -> dict:
    recordings = {"test.private": tone(880, 0.3), "test.hello": tone(440, 0.3)}
    return player_job(tmp_path, catalog_dir, outputs, says, recordings, **extra)


@needs_portaudio
@pytest.mark.hardware_emulation
def test_missing_device_falls_back_to_the_transcript_and_others_play(tmp_path: Path, catalog_dir: Path) -> None:
    outputs = {
        "hand:1": {"device": "kikimimi_no_such_card", "channels": [1]},
        "hand:2": {"device": "kikimimi_dongle2", "channels": [1]},
    }
    says = [["hand:1", "test.private", {"seat": 1}], ["hand:2", "test.private", {"seat": 2}]]
    result = run_player(tmp_path, job(tmp_path, catalog_dir, outputs, says))
    status, detail = result["health"]["hand:1"]
    assert status == "fallback" and "kikimimi_no_such_card" in detail and "list-outputs" in detail
    assert result["health"]["hand:2"][0] == "ok"
    assert ["hand:1", "Seat 1, this is for you alone."] in result["lines"]
    assert np.max(np.abs(read_raw(tmp_path / "audio" / "dongle2.raw", 2)[:, 0])) > 0.4


@needs_portaudio
@pytest.mark.hardware_emulation
def test_no_portaudio_library(tmp_path: Path, catalog_dir: Path) -> None:
    """The missing library is simulated: the player makes `import sounddevice` raise OSError."""
    outputs = {"speaker": {"device": "kikimimi_quad", "channels": [1]}}
    result = run_player(
        tmp_path, job(tmp_path, catalog_dir, outputs, [["speaker", "test.hello", {}]], no_portaudio=True)
    )
    status, detail = result["health"]["speaker"]
    assert status == "fallback" and "libportaudio2" in detail
    assert result["lines"] == [["speaker", "Hello table."]] and result["idle"]
    assert not (tmp_path / "audio" / "quad.raw").exists()


def test_device_vanishing_mid_game_falls_back_then_comes_back(
    tmp_path: Path, catalog_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unplugging is simulated with a fake sounddevice module: an ALSA file device cannot vanish."""
    present = {"card": True}
    sd = fake_sounddevice(present)
    monkeypatch.setattr(outputs_module, "load_sounddevice", lambda: (sd, None))
    monkeypatch.setattr(outputs_module, "RETRY_SECONDS", 0.1)
    monkeypatch.setattr(outputs_module, "WATCH_SECONDS", 0.02)
    monkeypatch.setattr(outputs_module, "sound_cards", lambda: "changed" if present["card"] else "gone")
    lines: list = []
    outputs = [OutputSpec("hand:1", "card", (1,), 1.0, "audio")]
    rec = tmp_path / "rec"
    record(rec, "test.hello", tone(440, 0.2))
    spec = VoiceSpec("en", "none", None, rec, False, None)
    voice = Voice.open(
        spec, outputs, on_line=lambda o, line: lines.append((o, line.text)), phrases=Catalog.load("en", catalog_dir)
    )
    try:
        assert voice.health()["hand:1"].status == "ok"
        present["card"] = False
        sd.streams[-1].active = False  # the device went away: PortAudio stops the stream
        wait_until(lambda: voice.health()["hand:1"].status == "fallback", 5, "hand:1 to fall back to text")
        assert voice.health()["hand:1"].status == "fallback"
        voice.say(Say("hand:1", "test.hello"))  # the game goes on: text to the transcript
        assert voice.wait_idle(timeout=5)
        assert voice.transcript.lines[-1][1].text == "Hello table."
        present["card"] = True  # plugged in again: the watchdog reopens it
        wait_until(lambda: voice.health()["hand:1"].status == "ok", 5, "hand:1 reopened")
        assert voice.health()["hand:1"].status == "ok" and len(sd.streams) >= 2
    finally:
        voice.close()
    assert lines == [("hand:1", "Hello table.")]


def test_phrase_for_an_output_not_configured_is_never_redirected(tmp_path: Path, catalog_dir: Path) -> None:
    spec = VoiceSpec("en", "none", None, None, False, tmp_path / "wav")
    outputs = [OutputSpec("speaker", None, (1,), 1.0, "wav")]
    voice = Voice.open(spec, outputs, phrases=Catalog.load("en", catalog_dir))
    voice.say(Say("hand:3", "test.private", {"seat": 3}))
    assert voice.wait_idle(timeout=5)
    voice.close()
    assert [(o, line.text) for o, line in voice.transcript.lines] == [("hand:3", "Seat 3, this is for you alone.")]
    assert not (tmp_path / "wav" / "speaker.wav").exists() or (tmp_path / "wav" / "speaker.wav").stat().st_size <= 44
