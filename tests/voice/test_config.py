"""parse_voice: the [voice] and [outputs] tables, and the privacy check on channels."""

from __future__ import annotations

from pathlib import Path

import pytest

from kikimimi.voice.config import VoiceConfigError, parse_voice

FOUR = {
    "speaker": {"device": "USB Audio Device", "channels": [1], "volume": 0.9},
    "hand:1": {"device": "USB Audio Device", "channels": [2]},
    "hand:2": {"device": "USB Audio Device", "channels": [3]},
    "hand:3": {"device": 3, "channels": [1, 2]},
}


def test_four_outputs_parse(tmp_path: Path) -> None:
    spec, outputs = parse_voice({"backend": "espeak", "recorded": "rec"}, FOUR, "ja", "table.toml", tmp_path)
    assert spec.recorded == tmp_path / "rec" and spec.pack is not None and spec.pack.name == "ja-espeak"
    by_name = {o.name: o for o in outputs}
    assert by_name["speaker"].volume == 0.9 and by_name["hand:1"].volume == 1.0
    assert by_name["hand:3"].device == 3 and by_name["hand:3"].channels == (1, 2)
    assert all(o.sink == "audio" for o in outputs)


def test_a_seat_sharing_the_speaker_channel_is_refused(tmp_path: Path) -> None:
    outputs = {**FOUR, "hand:2": {"device": "USB Audio Device", "channels": [1]}}
    with pytest.raises(VoiceConfigError) as err:
        parse_voice({}, outputs, "en", "table.toml", tmp_path)
    message = str(err.value)
    assert "table.toml" in message and '"speaker"' in message and '"hand:2"' in message and "channel 1" in message


def test_sharing_allowed_explicitly_for_a_demo(tmp_path: Path) -> None:
    outputs = {"speaker": {"device": "default"}, "hand:1": {"device": "default"}}
    spec, parsed = parse_voice({"allow_shared_channels": True}, outputs, "en", "demo.toml", tmp_path)
    assert spec.allow_shared_channels and [o.device for o in parsed] == [None, None]


@pytest.mark.parametrize(
    ("voice", "outputs", "expected"),
    [
        ({"backend": "festival"}, {}, "backend"),
        ({"volume": 1}, {}, "unknown key"),
        ({}, {"hand:one": {"device": 1}}, "unknown output name"),
        ({}, {"speaker": {"device": 1, "channels": [0]}}, "1-based"),
        ({}, {"speaker": {"device": 1, "volume": 2}}, "volume"),
        ({}, {"speaker": {"device": 1.5}}, "device"),
        ({}, {"speaker": {"device": 1, "sink": "wav"}}, "wav_dir"),
        ({}, {"speaker": {"device": 1, "sink": "mp3"}}, "sink"),
    ],
)
def test_bad_settings_say_where_and_how(tmp_path: Path, voice: dict, outputs: dict, expected: str) -> None:
    with pytest.raises(VoiceConfigError, match=expected) as err:
        parse_voice(voice, outputs, "en", "my-table.toml", tmp_path)
    assert "my-table.toml" in str(err.value)


def test_voice_packs_go_to_the_tables_writable_data_folder_not_the_package(tmp_path, monkeypatch):
    from kikimimi.paths import data_dir
    from kikimimi.voice.config import default_pack_dir

    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "var"))
    assert default_pack_dir("ja", "espeak") == tmp_path / "var" / "packs" / "ja-espeak"
    assert data_dir("voices") not in default_pack_dir("ja", "espeak").parents


def test_each_language_has_its_voice_by_default(tmp_path: Path) -> None:
    ja, _ = parse_voice({}, FOUR, "ja", "table.toml", tmp_path)
    en, _ = parse_voice({}, FOUR, "en", "table.toml", tmp_path)
    assert (ja.backend, ja.pack.name) == ("jtalk", "ja-jtalk")
    assert (en.backend, en.pack.name) == ("espeak", "en-espeak")
