"""A table without its sound card: one warning per missing device, once, naming only the outputs the game
uses, in the same format in `play` and `bringup`. Real PortAudio (a subprocess each: it reads its device
list once per process) asked for a device no machine has."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

MISSING = "kikimimi-no-such-card"


def _ten_seat_table(folder: Path) -> Path:
    """6 nimmt! on a table built for ten, set for three players; every output on the missing card."""
    lines = ['game = "nimmt"', "players = 3", 'language = "en"', 'deck = "nimmt-sim.toml"',
             f'journal = "{folder / "journal.sqlite"}"', "[readers.field]", 'path = "sim"']
    for seat in range(1, 11):
        lines += [f'[readers."hand:{seat}"]', 'path = "sim"']
    lines += ["[voice]", 'backend = "none"', "allow_shared_channels = true"]
    for name in ("speaker", *(f"hand:{seat}" for seat in range(1, 11))):
        lines += [f'[outputs."{name}"]', f'device = "{MISSING}"']
    path = folder / "table.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "KIKIMIMI_DATA": str(tmp_path / "data"), "COLUMNS": "1000"}


def _warnings(text: str) -> list[str]:
    return [line.split("WARNING", 1)[1].strip() for line in text.splitlines() if MISSING in line]


def test_play_says_a_missing_sound_card_once_for_the_outputs_the_game_uses(tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    done = subprocess.run([sys.executable, "-m", "kikimimi", "play", "--config", str(_ten_seat_table(tmp_path)),
                           "--feed", str(tmp_path / "empty.jsonl")], capture_output=True, text=True, timeout=60,
                          env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    said = _warnings(done.stdout + done.stderr)
    assert len(said) == 1, done.stdout + done.stderr
    assert said[0].startswith(f"outputs speaker, hand:1, hand:2, hand:3: fallback: audio device '{MISSING}' not "
                              "found"), said


def test_bringup_says_it_in_the_same_format(tmp_path):
    config = _ten_seat_table(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi", "bringup", "--config", str(config)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=_env(tmp_path))
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "tap a tag" in line:  # bring-up is waiting for taps: every warning is out
                break
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    said = _warnings("".join(lines) + rest)
    # bring-up checks every output of the table, so all eleven are named, in one line
    assert len(said) == 1, lines
    assert said[0].startswith(f"outputs speaker, hand:1, hand:2, hand:3, hand:4, hand:5, hand:6, hand:7, hand:8, "
                              f"hand:9, hand:10: fallback: audio device '{MISSING}' not found"), said


def test_the_demo_lists_only_the_outputs_the_game_uses(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kikimimi", "demo", "--config", str(_ten_seat_table(tmp_path)),
                           "--fast", "--text-only", "--lang", "en"], capture_output=True, text=True, timeout=120,
                          env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    ready = next(line for line in done.stdout.splitlines() if line.startswith("ready in"))
    assert "hand:3" in ready and "hand:4" not in ready, ready
