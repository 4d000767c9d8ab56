"""Routing through the real PortAudio/ALSA path into the virtual table's files (no sound card)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from voice_helpers import dominant_freq, loud_seconds, needs_portaudio, player_job, read_raw, run_player, tone

pytestmark = [needs_portaudio, pytest.mark.hardware_emulation]

QUAD = {  # one 4-channel card: speaker on 1, seats on 2..4
    "speaker": {"device": "kikimimi_quad", "channels": [1]},
    "hand:1": {"device": "kikimimi_quad", "channels": [2]},
    "hand:2": {"device": "kikimimi_quad", "channels": [3]},
    "hand:3": {"device": "kikimimi_quad", "channels": [4]},
}


def recorded_job(tmp_path: Path, catalog_dir: Path, outputs: dict, says: list) -> dict:
    recordings = {"test.hello": tone(440, 0.4)}
    recordings |= {f"test.private[seat={seat}]": tone(freq, 0.5) for seat, freq in ((1, 660), (2, 880), (3, 1100))}
    return player_job(tmp_path, catalog_dir, outputs, says, recordings)


def test_private_phrase_sounds_only_on_its_seat_channel(tmp_path: Path, catalog_dir: Path) -> None:
    job = recorded_job(tmp_path, catalog_dir, QUAD, [["hand:2", "test.private", {"seat": 2}]])
    result = run_player(tmp_path, job)
    assert result["health"]["hand:2"][0] == "ok", result["health"]
    quad = read_raw(tmp_path / "audio" / "quad.raw", 4)
    assert loud_seconds(quad[:, 2]) == pytest.approx(0.5, abs=0.03)
    assert abs(dominant_freq(quad[:, 2]) - 880) < 15
    for silent in (0, 1, 3):  # the speaker and the other seats hear nothing at all
        assert np.max(np.abs(quad[:, silent])) == 0.0
    assert result["lines"] == [["hand:2", "Seat 2, this is for you alone."]]


def test_outputs_play_at_once_and_arrive_whole(tmp_path: Path, catalog_dir: Path) -> None:
    says = [
        ["speaker", "test.hello", {}],
        ["hand:1", "test.private", {"seat": 1}],
        ["hand:3", "test.private", {"seat": 3}],
        ["hand:3", "test.private", {"seat": 3}],
    ]
    result = run_player(tmp_path, recorded_job(tmp_path, catalog_dir, QUAD, says))
    quad = read_raw(tmp_path / "audio" / "quad.raw", 4)
    assert loud_seconds(quad[:, 0]) == pytest.approx(0.4, abs=0.03)
    assert loud_seconds(quad[:, 1]) == pytest.approx(0.5, abs=0.03)
    assert loud_seconds(quad[:, 3]) == pytest.approx(1.0, abs=0.05)  # two utterances, in order, whole
    assert np.max(np.abs(quad[:, 2])) == 0.0
    # The virtual device is not paced in real time, so when each started is tested in test_mixer.py.
    assert len(result["first_frames"]) == 4


def test_one_dongle_per_output(tmp_path: Path, catalog_dir: Path) -> None:
    outputs = {
        "speaker": {"device": "kikimimi_dongle4", "channels": [1, 2]},
        "hand:1": {"device": "kikimimi_dongle1", "channels": [1, 2]},
        "hand:2": {"device": "kikimimi_dongle2", "channels": [1, 2], "volume": 0.5},
    }
    says = [["hand:2", "test.private", {"seat": 2}], ["speaker", "test.hello", {}]]
    run_player(tmp_path, recorded_job(tmp_path, catalog_dir, outputs, says))
    audio = tmp_path / "audio"
    seat2 = read_raw(audio / "dongle2.raw", 2)
    speaker = read_raw(audio / "dongle4.raw", 2)
    assert abs(dominant_freq(seat2[:, 0]) - 880) < 15
    assert np.max(np.abs(seat2)) == pytest.approx(0.25, abs=0.02)  # volume 0.5 of a 0.5 tone
    assert abs(dominant_freq(speaker[:, 1]) - 440) < 15
    assert np.max(np.abs(read_raw(audio / "dongle1.raw", 2))) == 0.0  # seat 1 was told nothing
