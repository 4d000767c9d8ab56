"""The shipped ALSA examples for real cards, with only their `hw` ends replaced by virtual file devices.

The `plug` layer, names and channel layout are the shipped ones; the card is an ALSA `type file`
PCM over `null` (8 channels, 16-bit, 16 kHz) so the routing is checked through PortAudio.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from voice_helpers import dominant_freq, needs_portaudio, read_raw, record, run_player, tone

from kikimimi.paths import data_dir

pytestmark = [needs_portaudio, pytest.mark.hardware_emulation]
ALSA = data_dir("devices") / "alsa"


def virtual_hw(name: str, channels: int, file: str) -> str:
    """Replace a `*_hw` PCM of an example by a file device (ALSA's `!` replaces a definition)."""
    return (
        f'pcm.!{name} {{ type plug; slave {{ pcm {{ type file; slave.pcm "null"; format "raw"; '
        f'file {{ @func concat strings [ {{ @func getenv vars [ KIKIMIMI_AUDIO_DIR ] default "." }} '
        f'"/{file}" ] }} }}; format S16_LE; rate 16000; channels {channels} }} }}\n'
    )


def play(tmp_path: Path, catalog_dir: Path, config: str, outputs: dict, says: list) -> dict:
    asoundrc = tmp_path / "asoundrc"
    asoundrc.write_text(config)
    rec = tmp_path / "recorded"
    for seat, freq in ((1, 660), (2, 880), (3, 1100)):
        record(rec, f"test.private[seat={seat}]", tone(freq, 0.3))
    record(rec, "test.hello", tone(440, 0.3))
    job = {
        "lang": "en",
        "catalog_dir": str(catalog_dir),
        "outputs": outputs,
        "says": says,
        "voice": {"backend": "none", "recorded": str(rec)},
    }
    return run_player(tmp_path, job, asoundrc=asoundrc)


def test_four_channel_card_example(tmp_path: Path, catalog_dir: Path) -> None:
    config = (ALSA / "four-channel-card.asoundrc").read_text() + virtual_hw("kikimimi_card_hw", 8, "card.raw")
    outputs = {
        "speaker": {"device": "kikimimi_card", "channels": [5]},
        "hand:1": {"device": "kikimimi_card", "channels": [1, 2]},
        "hand:2": {"device": "kikimimi_card", "channels": [3, 4]},
        "hand:3": {"device": "kikimimi_card", "channels": [7, 8]},
    }
    result = play(
        tmp_path, catalog_dir, config, outputs, [["hand:2", "test.private", {"seat": 2}], ["speaker", "test.hello", {}]]
    )
    assert all(h[0] == "ok" for h in result["health"].values()), result["health"]
    card = read_raw(tmp_path / "audio" / "card.raw", 8)
    assert abs(dominant_freq(card[:, 2]) - 880) < 15 and abs(dominant_freq(card[:, 3]) - 880) < 15
    assert abs(dominant_freq(card[:, 4]) - 440) < 15
    for silent in (0, 1, 5, 6, 7):
        assert not card[:, silent].any(), f"channel {silent + 1} should be silent"


def test_usb_dongles_example(tmp_path: Path, catalog_dir: Path) -> None:
    config = (ALSA / "usb-dongles.asoundrc").read_text() + "".join(
        virtual_hw(f"kikimimi_{name}_hw", 2, f"{name}.raw") for name in ("speaker", "seat1", "seat2", "seat3")
    )
    outputs = {
        "speaker": {"device": "kikimimi_speaker", "channels": [1, 2]},
        **{f"hand:{n}": {"device": f"kikimimi_seat{n}", "channels": [1, 2]} for n in (1, 2, 3)},
    }
    play(tmp_path, catalog_dir, config, outputs, [["hand:3", "test.private", {"seat": 3}]])
    audio = tmp_path / "audio"
    assert abs(dominant_freq(read_raw(audio / "seat3.raw", 2)[:, 0]) - 1100) < 15
    for other in ("speaker", "seat1", "seat2"):
        assert not np.any(read_raw(audio / f"{other}.raw", 2)), other
