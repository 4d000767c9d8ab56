"""Decks (the shipped sim deck, writing), enrollment with refusal, stop and resume, and the CLI."""

import json
import os
import subprocess
import sys
import time

import pytest

from kikimimi.bringup.enroll import Enrollment, plan, run
from kikimimi.devices.deck import DeckError, load_deck, save_deck
from kikimimi.devices.frames import rdm6300_frame
from kikimimi.devices.simdeck import sim_deck_text, sim_uid
from kikimimi.games.registry import games, get_info
from kikimimi.games.trident.pieces import CONTROLS, PIECES
from kikimimi.paths import data_dir

TRIDENT = get_info("trident")


def test_shipped_sim_deck_is_the_generated_one_and_loads():
    path = data_dir("devices") / "decks" / "trident-sim.toml"
    assert path.read_text() == sim_deck_text(TRIDENT)
    deck = load_deck(path)
    assert deck.resolve("23000100") == "heart-1" == deck.resolve(sim_uid("heart-1"))
    assert all(len(deck.uids_of(pid)) == 1 for pid in PIECES)
    assert all(sorted(deck.uids_of(c)) == [sim_uid(c, s) for s in (1, 2, 3)] for c in CONTROLS)
    assert deck.resolve("deadbeef") is None


@pytest.mark.parametrize("info", games(), ids=lambda info: info.id)
def test_every_game_has_its_generated_sim_deck_and_no_tag_of_another_game(info):
    deck = load_deck(info.data_file("decks", f"{info.id}-sim.toml", data_dir("devices") / "decks"))
    assert deck.game == info.id and set(deck.tags.values()) == set(info.pieces) | set(info.controls)
    for other in games():
        if other is not info:
            other_deck = load_deck(other.data_file("decks", f"{other.id}-sim.toml", data_dir("devices") / "decks"))
            assert not set(deck.tags) & set(other_deck.tags), f"{info.id} and {other.id} share simulated UIDs"


def test_save_deck_round_trips_and_load_refuses_a_duplicate(tmp_path):
    path = tmp_path / "d.toml"
    save_deck(path, "trident", {"04A1B2C3": "heart-1", "04a1b2c4": "ctl-pass"}, "hello")
    assert dict(load_deck(path).tags) == {"04a1b2c3": "heart-1", "04a1b2c4": "ctl-pass"}
    path.write_text(path.read_text() + '"04:A1:B2:C3" = "heart-2"\n')
    with pytest.raises(DeckError, match=r"d\.toml:\d+: UID 04a1b2c3 is listed twice"):
        load_deck(path)


def test_enrollment_refuses_a_known_tag_stops_and_resumes(tmp_path):
    deck = tmp_path / "table.toml"
    slots = plan(TRIDENT, control_sets=1)
    uids = [f"04{i:06x}" for i in range(len(slots))]
    said: list[str] = []
    taps = iter([uids[0], uids[0], uids[1], None])  # the second tap of uids[0] is refused
    assert run(Enrollment(deck, TRIDENT, control_sets=1), lambda: next(taps), said.append) is False
    assert "tap heart 1" in said[0]
    assert any("refused: that tag is already heart-1" in s for s in said)
    assert dict(load_deck(deck).tags) == {uids[0]: "heart-1", uids[1]: "heart-2"}

    resumed = Enrollment(deck, TRIDENT, control_sets=1)
    assert resumed.remaining()[0].tag_id == "heart-3"
    rest = iter(uids[2:])
    assert run(resumed, lambda: next(rest), said.append) is True
    final = load_deck(deck)
    assert len(final.tags) == len(slots) == 54 + len(CONTROLS)
    assert final.uids_of("ctl-pass") == [uids[54]]
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary file


def kikimimi(*args, **kw):
    return subprocess.run([sys.executable, "-m", "kikimimi", *args], capture_output=True, text=True,
                          timeout=60, **kw)


def test_enroll_cli_with_typed_uids_resumes(tmp_path):
    deck = tmp_path / "d.toml"
    first = kikimimi("enroll", "--deck", str(deck), "--reader", "sim", "--control-sets", "1",
                     input="0401\n0402\n0401\n")
    assert first.returncode == 1 and "already heart-1" in first.stdout and "run the same command" in first.stdout
    second = kikimimi("enroll", "--deck", str(deck), "--reader", "sim", "--control-sets", "1", input="0403\n")
    assert "tap heart 3" in second.stdout
    assert load_deck(deck).resolve("0403") == "heart-3"


@pytest.mark.hardware_emulation
def test_devices_watch_json_on_a_pty(tmp_path):
    master, slave = os.openpty()
    path = os.ttyname(slave)
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi", "devices", "watch", path, "--protocol", "rdm6300",
                             "--json", "--count", "2", "--seconds", "20"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "ok" in proc.stderr.readline()  # the reader's health line comes once it is open
        os.write(master, rdm6300_frame("0102030405"))
        time.sleep(0.5)
        os.write(master, rdm6300_frame("0a0b0c0d0e"))
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
        os.close(master)
        os.close(slave)
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(d["event"], d["uid"]) for d in lines] == [("tap", "0102030405"), ("removed", "0102030405"),
                                                       ("tap", "0a0b0c0d0e")]
    assert all(d["reader"] == path and isinstance(d["t"], float) for d in lines)


def test_devices_watch_config_error_is_a_message_not_a_traceback():
    result = kikimimi("devices", "watch", "/dev/ttyUSB9")
    assert result.returncode == 2 and "protocol" in result.stderr and "Traceback" not in result.stderr


def test_devices_list_runs_without_hardware():
    result = kikimimi("devices", "list")
    assert result.returncode == 0 and "nfcpy USB readers" in result.stdout and "serial ports" in result.stdout


@pytest.mark.parametrize("info", games(), ids=lambda info: info.id)
def test_enrolling_any_game_asks_for_its_own_pieces_then_its_controls_and_writes_its_deck(info, tmp_path):
    deck = tmp_path / f"{info.id}.toml"
    slots = plan(info, control_sets=1)
    assert [s.tag_id for s in slots] == [*info.pieces, *info.controls]
    uids = iter(f"04{i:06x}" for i in range(len(slots)))
    assert run(Enrollment(deck, info, control_sets=1), lambda: next(uids), lambda text: None) is True
    written = load_deck(deck)
    assert written.game == info.id and set(written.tags.values()) == set(info.pieces) | set(info.controls)
    with pytest.raises(ValueError, match="is a deck of"):
        Enrollment(deck, next(other for other in games() if other is not info))
