"""Audio bring-up (issue 15, item 12): the repeat-until-Enter audio test and the per-channel probe."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from bringup_helpers import ROLES, table_toml

from kikimimi.bringup.audiotest import audio_test_repeat
from kikimimi.voice.catalog import catalog
from kikimimi.voice.config import OutputSpec, VoiceSpec
from kikimimi.voice.router import Voice


def kikimimi(*args: str, env: dict | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kikimimi", *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60)


def transcript_table(tmp_path: Path) -> Path:
    cfg = tmp_path / "table.toml"
    cfg.write_text(table_toml({r: {"path": "sim"} for r in ROLES}))
    return cfg


# -- --audio-test --repeat -------------------------------------------------------------------------------


def test_each_output_repeats_until_a_line_arrives_then_the_next_one() -> None:
    said: list[str] = []
    lines: queue.Queue[str | None] = queue.Queue()

    def on_line(output: str, line) -> None:  # noqa: ANN001
        said.append(output)
        if said.count(output) == 3:  # the person listened three times, then pressed Enter
            lines.put("\n")

    outputs = [OutputSpec(name, None, (), 1.0, "transcript") for name in ("speaker", "hand:1", "hand:2")]
    voice = Voice.open(VoiceSpec("en", "none", None, None, False, None), outputs, on_line=on_line,
                       phrases=catalog("en", "trident"))
    try:
        checks, stopped = audio_test_repeat(voice, lines, pause=0.05)
    finally:
        voice.close()
    assert not stopped
    assert [(c.output, c.times) for c in checks] == [("speaker", 3), ("hand:1", 3), ("hand:2", 3)]
    assert said == ["speaker"] * 3 + ["hand:1"] * 3 + ["hand:2"] * 3  # one output at a time, in order
    assert checks[2].text == "This is the earphone of seat 2."


def test_q_stops_and_a_closed_stdin_stops_too() -> None:
    outputs = [OutputSpec(name, None, (), 1.0, "transcript") for name in ("speaker", "hand:1")]
    voice = Voice.open(VoiceSpec("en", "none", None, None, False, None), outputs, phrases=catalog("en", "trident"))
    try:
        lines: queue.Queue[str | None] = queue.Queue()
        lines.put("q\n")
        checks, stopped = audio_test_repeat(voice, lines, pause=0.05)
        assert stopped and [c.output for c in checks] == ["speaker"]
        lines.put(None)  # end of input: nobody can press Enter any more
        checks, stopped = audio_test_repeat(voice, lines, pause=0.05)
        assert stopped and [(c.output, c.times) for c in checks] == [("speaker", 1)]
    finally:
        voice.close()


def test_repeat_from_the_command_line_with_stdin_piped(tmp_path: Path) -> None:
    cfg = transcript_table(tmp_path)
    proc = kikimimi("bringup", "--config", str(cfg), "--audio-test", "--repeat", "--json", stdin="\n\nq\n")
    assert proc.returncode == 0, proc.stderr
    checks = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [c["output"] for c in checks] == ["speaker", "hand:1", "hand:2"]  # q after the third
    assert all(c["times"] >= 1 for c in checks)
    assert "hand:1: saying" in proc.stderr and "until you press Enter" in proc.stderr


def test_repeat_waits_for_enter_while_stdin_stays_open(tmp_path: Path) -> None:
    # Driven by the program's own prompts, not by the clock: each Enter is sent once the next output's prompt
    # is out, so however slowly the program starts it is always waiting (stdin open, nothing typed).
    cfg = transcript_table(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi", "bringup", "--config", str(cfg), "--repeat",
                             "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdin is not None and proc.stderr is not None
    prompted: list[str] = []
    try:
        for line in proc.stderr:
            if "until you press Enter" not in line:
                continue
            prompted.append(line.split(": saying", 1)[0])
            proc.stdin.write("\n")  # the person presses Enter only now: the program waited for it
            proc.stdin.flush()
            if len(prompted) == len(ROLES):
                break
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert prompted == ["speaker", *ROLES[1:]]  # one prompt per output, each after the Enter for the one before
    checks = [json.loads(x) for x in out.splitlines()]
    assert [c["output"] for c in checks] == ["speaker", *ROLES[1:]]
    assert all(c["times"] >= 1 for c in checks)


# -- --channel-probe, through PortAudio into an ALSA file device ---------------------------------------

# An 8-channel card made of an ALSA `type file` PCM over `null` (16-bit, 16 kHz, channels interleaved in
# card8.raw). PortAudio reports 128 channels for a plug device, so the probe's cap of 8 (a 7.1 card) is
# what picks the channels here; a real card's hw device reports its own count.
CARD8 = (
    'pcm.card8 { type plug; slave { pcm "card8_raw"; format S16_LE; rate 16000; channels 8 } }\n'
    'pcm.card8_raw { type file; slave.pcm "null"; format "raw"; file { @func concat strings [ '
    '{ @func getenv vars [ KIKIMIMI_AUDIO_DIR ] default "." } "/card8.raw" ] } }\n'
)


def portaudio_available() -> bool:
    return subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0


def beep_starts(samples: np.ndarray, rate: int = 16000) -> list[int]:
    """Where each beep starts (10 ms windows going loud), as sample indexes."""
    window = rate // 100
    usable = len(samples) // window * window
    loud = np.sqrt((samples[:usable].reshape(-1, window) ** 2).mean(axis=1)) > 0.05
    return [int(i) * window for i in np.flatnonzero(loud[1:] & ~loud[:-1]) + 1] + ([0] if loud[:1].any() else [])


def test_channel_probe_beeps_k_times_on_channel_k_in_order(tmp_path: Path) -> None:
    if not portaudio_available():
        pytest.skip("needs libportaudio2 (PortAudio)")
    home, audio = tmp_path / "home", tmp_path / "audio"
    home.mkdir()
    audio.mkdir()
    (home / ".asoundrc").write_text(CARD8)
    env = {"HOME": str(home), "KIKIMIMI_AUDIO_DIR": str(audio)}
    env_all = {k: v for k, v in os.environ.items() if k != "ALSA_CONFIG_PATH"} | env
    proc = subprocess.run([sys.executable, "-m", "kikimimi", "bringup", "--channel-probe", "card8"],
                          capture_output=True, text=True, env=env_all, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [x.split(":")[0] for x in lines[:8]] == [f"channel {k}" for k in range(1, 9)]
    assert lines[2].startswith("channel 3: 3 beeps on 'card8'")
    data = np.fromfile(audio / "card8.raw", dtype="<i2").astype(np.float32) / 32768.0
    card = data[: len(data) // 8 * 8].reshape(-1, 8)
    firsts = []
    for k in range(1, 9):
        starts = sorted(beep_starts(card[:, k - 1]))
        assert len(starts) == k, (k, starts)  # channel K beeped K times, and only there
        firsts.append(starts[0])
    assert firsts == sorted(firsts) and len(set(firsts)) == 8  # one channel after the other


def test_channel_probe_names_a_missing_device() -> None:
    proc = kikimimi("bringup", "--channel-probe", "no-such-card-xyz")
    assert proc.returncode in (1, 2)
    assert "no-such-card-xyz" in proc.stderr or "PortAudio" in proc.stderr
