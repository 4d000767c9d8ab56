"""Underruns (issue 15, item 12): PortAudio's output underflows per device stream, in the voice's health
and in bring-up's outputs table. A real underrun needs a busy sound card; an ALSA file device over
`null` never runs dry, so the callback is driven with PortAudio's status flag by a fake sounddevice."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from rich.console import Console
from voice_helpers import fake_sounddevice

from kikimimi.bringup.view import outputs_table
from kikimimi.voice import config as voice_config
from kikimimi.voice import outputs as outputs_module
from kikimimi.voice.catalog import Catalog
from kikimimi.voice.config import OutputSpec, VoiceSpec
from kikimimi.voice.router import OutputHealth, Voice

UNDERFLOW = SimpleNamespace(output_underflow=True)
OK = SimpleNamespace(output_underflow=False)


def test_underflows_are_counted_per_device_and_shown_in_health(
    catalog_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sd = fake_sounddevice(channels=4)
    monkeypatch.setattr(outputs_module, "load_sounddevice", lambda: (sd, None))
    outputs = [OutputSpec("hand:1", "card", (1,), 1.0, "audio"), OutputSpec("hand:2", "card", (2,), 1.0, "audio"),
               OutputSpec("speaker", None, (), 1.0, "transcript")]
    voice = Voice.open(VoiceSpec("en", "none", None, None, False, None), outputs,
                       phrases=Catalog.load("en", catalog_dir))
    try:
        assert [h.underruns for h in voice.health().values()] == [0, 0, 0]
        [stream] = sd.streams  # one stream for the card, both earphones on it
        out = np.zeros((64, 2), dtype=np.float32)
        for status in (UNDERFLOW, OK, UNDERFLOW, UNDERFLOW):
            stream.callback(out, 64, None, status)
        health = voice.health()
        assert health["hand:1"].underruns == health["hand:2"].underruns == 3
        assert health["speaker"].underruns == 0  # a transcript never runs dry
        assert health["hand:1"].status == "ok"  # underruns are a warning, not a lost device
    finally:
        voice.close()


def test_bringup_outputs_table_shows_underruns() -> None:
    text = io.StringIO()
    Console(file=text, width=120).print(outputs_table({"hand:1": OutputHealth("ok", "card channel 1", 7),
                                                       "hand:2": OutputHealth("ok", "card channel 2")}))
    rows = text.getvalue()
    assert "underruns" in rows
    assert any("hand:1" in line and " 7 " in line for line in rows.splitlines())
    assert any("hand:2" in line and " 0 " in line for line in rows.splitlines())


# -- the latency default: "high" on a Pi and on a PC (hardware_docs/audio.md) ---------------------------------


def test_latency_default_is_high(tmp_path: Path) -> None:
    spec, _ = voice_config.parse_voice({"backend": "none"}, {"speaker": {"channels": [1]}}, "en", "t.toml", tmp_path)
    assert spec.latency == "high"


def test_a_latency_set_in_the_config_wins(tmp_path: Path) -> None:
    for latency in ("low", 0.05):
        spec, _ = voice_config.parse_voice({"backend": "none", "latency": latency}, {"speaker": {"channels": [1]}},
                                           "en", "t.toml", tmp_path)
        assert spec.latency == latency
