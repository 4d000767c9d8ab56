"""The mixer on a real-time card (issue 30): a PulseAudio null sink through ALSA's pulse plugin, started here,
recorded from its monitor; phrases found in the recording by their exact samples. Unlike ALSA's `file` over
`null`, this card takes samples at 44.1 kHz by the system clock, so lag and holes can show."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kikimimi.app.realbench import RATE, SINK, RealtimeCard, find_phrases, missing_packages

PLAYER = """
import json, sys, time
import numpy as np
import sounddevice as sd
from kikimimi.voice.mixer import DeviceStream, Lane, Playing
folder = sys.argv[1]
speaker, seat = Lane("speaker", (0,)), Lane("hand:1", (1,))
device = DeviceStream(sd, "SINK", [speaker, seat], "high")
error = device.open()
assert error is None, error
time.sleep(1.5)  # a new stream through PulseAudio plays its first second late: let it settle
rng = np.random.default_rng(7)
notes, chunks, offset = [], [], 0
for n in range(4):
    lead = np.zeros(400, np.float32)  # a clip's own leading silence, as a pack clip has
    voice = (0.3 * rng.standard_normal(int(0.4 * RATE))).astype(np.float32)
    clip = np.concatenate([lead, voice, np.zeros(2000, np.float32)])
    said = time.perf_counter()
    speaker.queue(Playing(clip, said, len(lead)))
    seat.queue(Playing(-clip, said, len(lead)))  # the seat's own phrase, on its own channel
    notes.append({"key": f"p{n}", "said": said, "offset": offset, "length": len(clip), "first_sound": len(lead)})
    chunks.append(clip)
    offset += len(clip)
    time.sleep(0.5)
while speaker.busy or seat.busy:
    time.sleep(0.01)
time.sleep(0.1)
device.close()
np.concatenate(chunks).tofile(folder + "/speaker.f32")
print(json.dumps({"phrases": notes, "underflows": device.underflows, "starved": device.starved}))
""".replace("SINK", SINK).replace("RATE", str(RATE))


def test_phrases_play_in_real_time_each_found_whole_on_its_own_channel(tmp_path: Path) -> None:
    if (missing := missing_packages()) is not None:
        pytest.skip(f"needs {missing}")
    if subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode != 0:
        pytest.skip("needs libportaudio2 (PortAudio)")
    with RealtimeCard(tmp_path / "card") as card:
        recording = card.record(tmp_path / "recorded.f32")
        proc = subprocess.run([sys.executable, "-c", PLAYER, str(tmp_path)], env=card.env, capture_output=True,
                              text=True, timeout=60)
        time.sleep(0.3)
        recorded = recording.stop()
    assert proc.returncode == 0, proc.stderr[-2000:]
    played = json.loads(proc.stdout.strip().splitlines()[-1])
    clips = np.fromfile(tmp_path / "speaker.f32", dtype=np.float32)
    heard, missing_count = find_phrases(recorded[:, 0], recording.start_time, played["phrases"], clips)
    assert missing_count == 0 and [h.key for h in heard] == ["p0", "p1", "p2", "p3"]
    # Heard soon after being queued (the card's buffer and the recorder's; more on a loaded machine), never before.
    assert all(-0.05 < h.lag < 1.5 for h in heard), [h.lag for h in heard]
    # The seat's phrase (the speaker's, inverted) is on its channel and nowhere else.
    seat_heard, _ = find_phrases(-recorded[:, 1], recording.start_time, played["phrases"], clips)
    assert len(seat_heard) == 4
    assert find_phrases(-recorded[:, 0], recording.start_time, played["phrases"], clips)[1] == 4
    # Holes are counted from the recording, beside the stream's own counters (not asserted 0: a test machine
    # under load, without real-time scheduling, may underrun).
    assert all(h.gaps >= 0 for h in heard) and played["underflows"] >= 0


def test_a_hole_of_digital_silence_inside_a_phrase_is_found() -> None:
    rng = np.random.default_rng(3)
    clip = (0.3 * rng.standard_normal(4000)).astype(np.float32)
    recorded = np.concatenate([np.zeros(1000, np.float32), clip[:1500], np.zeros(300, np.float32), clip[1500:],
                               np.zeros(500, np.float32)])
    phrases = [{"key": "x", "said": 0.0, "offset": 0, "length": len(clip), "first_sound": 0}]
    [heard], missing = find_phrases(recorded, 0.0, phrases, clip)
    assert missing == 0 and heard.gaps == 1 and heard.gap_seconds == pytest.approx(300 / RATE)
    assert heard.lag == pytest.approx(1000 / RATE)
    [whole], _ = find_phrases(np.concatenate([np.zeros(10, np.float32), clip]), 0.0, phrases, clip)
    assert whole.gaps == 0
