"""`kikimimi bringup` as a person runs it, in a subprocess: --assign on pty readers, the audio test and
tap-to-speech through the real PortAudio/ALSA path into the virtual table's files, and the shipped configs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest
from bringup_helpers import ROLES, Pty, rdm6300_frame, table_toml

from kikimimi.paths import data_dir
from kikimimi.table.config import load_config
from kikimimi.voice.clip import Clip, write_wav

VIRTUAL_TABLE = data_dir("devices") / "alsa" / "virtual-table.asoundrc"
QUAD = "\n".join(f'[outputs."{name}"]\ndevice = "kikimimi_quad"\nchannels = [{n}]'
                 for n, name in enumerate(("speaker", "hand:1", "hand:2", "hand:3"), 1))


def kikimimi(*args: str, env: dict | None = None, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kikimimi", *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout)


# -- shipped configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((data_dir("devices") / "tables").glob("*.toml")), ids=lambda p: p.name)
def test_every_shipped_table_config_loads(path):
    config = load_config(path)
    # Every reader and earphone of the game's largest table (a seat without its earphone is refused).
    most = {config.info.seat_key: config.info.seats[1]} if config.info.seat_key else None
    assert {s.role for s in config.readers} == set(config.info.readers(most))
    assert {o.name for o in config.outputs} == set(config.info.outputs(most))


def test_the_example_tables_are_what_they_say():
    rcs = load_config(data_dir("devices") / "tables" / "rcs380-4ch.toml")
    assert {(s.protocol, s.path.split(":")[0]) for s in rcs.readers} == {("nfc", "usb-port")}
    assert len({o.device for o in rcs.outputs}) == 1  # one card, each output on its own channels
    assert len({ch for o in rcs.outputs for ch in o.channels}) == sum(len(o.channels) for o in rcs.outputs)
    rdm = load_config(data_dir("devices") / "tables" / "rdm6300-dongles.toml")
    assert {s.protocol for s in rdm.readers} == {"rdm6300"}
    assert all(s.path.startswith("/dev/serial/by-") for s in rdm.readers)
    assert len({o.device for o in rdm.outputs}) == 4  # one dongle per output


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (systemd)")
def test_the_systemd_unit_verifies(tmp_path):
    unit = (data_dir("devices") / "systemd" / "kikimimi.service").read_text()
    assert "ExecStart=/opt/kikimimi/bin/kikimimi play --config /etc/kikimimi/table.toml" in unit
    # systemd checks that the program exists: point it at one that does, keep everything else
    (tmp_path / "kikimimi.service").write_text(unit.replace("/opt/kikimimi/bin/kikimimi", shutil.which("true")))
    proc = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "kikimimi.service")], capture_output=True,
                          text=True, timeout=60)
    assert "kikimimi.service" not in proc.stderr, proc.stderr


# -- --assign ----------------------------------------------------------------------------------------


@pytest.mark.hardware_emulation
def test_assign_binds_each_pty_reader_to_the_role_tapped_and_rewrites_the_config(tmp_path):
    ports = {name: Pty(tmp_path / f"tty{name}") for name in "ABCD"}
    try:
        cfg = tmp_path / "table.toml"
        pairs = zip(ROLES, "ABCD", strict=True)
        readers = {role: {"path": str(ports[n].link), "protocol": "rdm6300"} for role, n in pairs}
        cfg.write_text(table_toml(readers, head="# the owner's table, keep me"))
        before = cfg.read_text()
        proc = subprocess.Popen([sys.executable, "-m", "kikimimi", "bringup", "--assign", "--config", str(cfg),
                                 "--seconds", "60"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        order = ["C", "C", "A", "D", "B"]  # field = C; C again is refused for hand:1; then A, D, B
        seen, opened, asked, last = [], 0, 0, {}
        for line in proc.stdout:  # each tag once every reader is open and a prompt (or a refusal) asks for it
            seen.append(line)
            opened += ": ok: reading " in line
            asked += "tap any tag on the" in line
            while asked and opened >= 4 and order:
                name = order.pop(0)
                # the same tag again on the same reader: past its removal silence and the debounce first
                time.sleep(max(0.0, last.get(name, 0.0) + 1.0 - time.monotonic()))
                ports[name].write(rdm6300_frame("0102030405") * 3)
                last[name] = time.monotonic()
                asked -= 1
        proc.wait(timeout=60)
        out = "".join(seen)
        assert proc.returncode == 0, out
        assert "already field" in out
        bound = tomllib.loads(cfg.read_text())["readers"]
        assert {role: bound[role]["path"] for role in ROLES} == {
            "field": str(ports["C"].link), "hand:1": str(ports["A"].link),
            "hand:2": str(ports["D"].link), "hand:3": str(ports["B"].link)}
        assert "# the owner's table, keep me" in cfg.read_text()
        assert (tmp_path / "table.toml.bak").read_text() == before
        load_config(cfg)
    finally:
        for p in ports.values():
            p.close()


def test_assign_refuses_to_write_into_a_shipped_example():
    proc = kikimimi("bringup", "--assign", "--reader", "/dev/null-reader", "--protocol", "rdm6300")
    assert proc.returncode == 2
    assert "shipped example" in proc.stderr and "--output" in proc.stderr


def test_a_broken_config_is_refused_with_where_and_what():
    proc = kikimimi("bringup", "--config", "/nonexistent/table.toml")
    assert proc.returncode == 2 and "no such table configuration" in proc.stderr


# -- sound through PortAudio into the ALSA virtual table ----------------------------------------------


def portaudio_available() -> bool:
    return subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True).returncode == 0


needs_portaudio = pytest.mark.skipif(not portaudio_available(), reason="needs libportaudio2 (PortAudio)")
FREQS = {"piece.heart": 440.0, "piece.spade": 550.0, "bringup.this_is_speaker": 660.0}
SEAT_FREQ = {1: 770.0, 2: 880.0, 3: 990.0}


def tone(freq: float, seconds: float = 0.3, rate: int = 16000) -> Clip:
    t = np.arange(int(seconds * rate)) / rate
    return Clip((0.5 * np.sin(2 * np.pi * freq * t)).astype(np.float32), rate)


def virtual_table(tmp_path: Path) -> tuple[Path, dict]:
    """A table config whose outputs are the virtual 4-channel card, phrases recorded as tones."""
    rec = tmp_path / "recorded"
    for key, freq in FREQS.items():
        write_wav(rec / f"{key}.wav", tone(freq))
    for seat, freq in SEAT_FREQ.items():
        write_wav(rec / f"bringup.this_is_seat[seat={seat}].wav", tone(freq))
    cfg = tmp_path / "table.toml"
    cfg.write_text(table_toml({r: {"path": "sim"} for r in ROLES}, outputs=QUAD,
                              voice=f'backend = "none"\nrecorded = "{rec}"'))
    home, audio = tmp_path / "home", tmp_path / "audio"
    home.mkdir()
    audio.mkdir()
    (home / ".asoundrc").write_text(VIRTUAL_TABLE.read_text())
    return cfg, {"HOME": str(home), "KIKIMIMI_AUDIO_DIR": str(audio), "ALSA_CONFIG_PATH": ""}


def quad(tmp_path: Path) -> np.ndarray:
    data = np.fromfile(tmp_path / "audio" / "quad.raw", dtype="<i2").astype(np.float32) / 32768.0
    return data[: len(data) // 4 * 4].reshape(-1, 4)


def freq_of(samples: np.ndarray) -> float:
    loud = samples[np.abs(samples) > 1e-3]
    return float(np.argmax(np.abs(np.fft.rfft(loud)))) * 16000 / len(loud)


@needs_portaudio
@pytest.mark.hardware_emulation
def test_a_hand_tap_sounds_only_in_that_seats_earphone(tmp_path):
    cfg, env = virtual_table(tmp_path)
    env.pop("ALSA_CONFIG_PATH")
    proc = kikimimi("bringup", "--config", str(cfg), "--json", "--taps", "1", env=env, stdin="hand:2 heart-1\n")
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert lines[0] == {"reader": "hand:2", "uid": "23000100", "tag": "heart-1", "output": "hand:2", "said": "ハート"}
    assert lines[-1]["outputs"]["hand:2"]["status"] == "ok", lines[-1]
    audio = quad(tmp_path)
    assert np.max(np.abs(audio[:, 2])) > 0.3 and abs(freq_of(audio[:, 2]) - 440) < 15
    for silent in (0, 1, 3):  # the speaker and the other two earphones hear nothing at all
        assert np.max(np.abs(audio[:, silent])) == 0.0


@needs_portaudio
@pytest.mark.hardware_emulation
def test_the_audio_test_speaks_on_each_output_in_turn(tmp_path):
    cfg, env = virtual_table(tmp_path)
    env.pop("ALSA_CONFIG_PATH")
    proc = kikimimi("bringup", "--config", str(cfg), "--audio-test", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    checks = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [c["output"] for c in checks] == ["speaker", "hand:1", "hand:2", "hand:3"]
    assert all(c["status"] == "ok" for c in checks)
    audio = quad(tmp_path)
    expected = [FREQS["bringup.this_is_speaker"], *SEAT_FREQ.values()]
    for channel, freq in enumerate(expected):  # each channel heard its own announcement
        assert abs(freq_of(audio[:, channel]) - freq) < 15, channel


@needs_portaudio
@pytest.mark.hardware_emulation
def test_latency_is_measured_per_reader_to_the_first_audio_frame(tmp_path):
    cfg, env = virtual_table(tmp_path)
    env.pop("ALSA_CONFIG_PATH")
    proc = kikimimi("bringup", "--config", str(cfg), "--latency", "--rounds", "3", "--json", env=env)
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert set(summary["latency"]) == set(ROLES)
    for role, stats in summary["latency"].items():
        assert stats["taps"] == 3 and stats["measured"] == 3, (role, stats)
        assert 0 < stats["p50_ms"] <= stats["p99_ms"] <= stats["max_ms"]
    assert proc.returncode == 0, proc.stderr
