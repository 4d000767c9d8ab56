"""`kikimimi bringup --check`, the acceptance check, as a club runs it: on the simulated table, and on a
table whose field reader is a PN532 over UART (nfcpy's real driver, an emulated chip) and whose first
hand reader is a PC/SC reader (the real pcscd, a vpcd reader)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from bringup_helpers import ROLES, table_toml

from kikimimi.devices.deck import save_deck


def check(cfg, report, *extra, timeout=90) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kikimimi", "bringup", "--check", "--config", str(cfg),
                             "--report", str(report), "--transcript", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_check_passes_on_the_simulated_table_and_writes_what_it_prints(tmp_path):
    cfg = tmp_path / "table.toml"
    cfg.write_text(table_toml({role: {"path": "sim"} for role in ROLES}))
    proc = check(cfg, tmp_path / "report.txt")
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, out + err
    report = (tmp_path / "report.txt").read_text()
    assert report in out and ": PASS" in report
    walk = [line for line in report.splitlines() if line.startswith("deck walk:")][0]
    prompts = [line for line in out.splitlines() if line.startswith("check: tap ")]
    assert walk.startswith(f"deck walk: {len(prompts)} of {len(prompts)} ok") and len(prompts) > 30
    assert "check: tap ctl-pass on hand:3" in out  # seat 3's control tag is asked on seat 3's reader
    assert "outputs: 4 of 4 ok" in report


def test_a_reader_that_never_opens_fails_the_check_and_its_tags_are_not_asked(tmp_path):
    cfg = tmp_path / "table.toml"
    readers = {role: {"path": "sim"} for role in ROLES}
    readers["field"] = {"path": str(tmp_path / "ttyMISSING"), "protocol": "rdm6300"}
    cfg.write_text(table_toml(readers))
    proc = check(cfg, tmp_path / "report.txt", "--walk", "2", "--ready-timeout", "1")
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 1, out + err
    report = (tmp_path / "report.txt").read_text()
    assert ": FAIL" in report and "readers: 3 of 4 ok" in report
    assert "FAIL heart-1 on field: not asked: reader field is not ok" in report


@pytest.mark.hardware_emulation
def test_the_check_on_a_pn532_field_reader_and_a_pcsc_hand_reader(pcscd, pn532, tmp_path):
    chip = pn532()
    deck = tmp_path / "deck.toml"
    uids = {"heart-1": "04a1b2c3d4e5f6", "heart-2": "1a2b3c4d"}
    controls = ["04c00001", "04c00002", "04c00003"]  # ctl-pass: seat 1's, 2's, 3's
    save_deck(deck, "trident", {**{u: t for t, u in uids.items()}, **{u: "ctl-pass" for u in controls}})
    with pcscd.in_use():
        reader, _ = pcscd.lease()
        cfg = tmp_path / "table.toml"
        readers = {role: {"path": "sim"} for role in ROLES}
        readers["field"] = {"path": chip.path, "profile": "pn532-uart"}
        readers["hand:1"] = {"path": reader.path, "profile": "rcs300"}
        cfg.write_text(table_toml(readers).replace('deck = "trident-sim.toml"', f'deck = "{deck}"'))
        proc = check(cfg, tmp_path / "report.txt")
        asked, lift = [], None
        for line in proc.stdout:  # a tag stays on its reader until the check asks for the next one
            if lift is not None:
                lift()
                lift = None
            if not line.startswith("check: tap "):
                break
            tag, role = line.removeprefix("check: tap ").strip().split(" on ")
            asked.append((tag, role))
            if role == "field":
                chip.tag = uids[tag]
                lift = lambda: setattr(chip, "tag", None)  # noqa: E731
            elif role == "hand:1":
                card = reader.card(controls[0])
                card.place()
                lift = card.lift
        out, err = proc.communicate(timeout=60)
    report = (tmp_path / "report.txt").read_text()
    assert proc.returncode == 0, report + err
    assert asked == [("heart-1", "field"), ("heart-2", "field"), ("ctl-pass", "hand:1"), ("ctl-pass", "hand:2"),
                     ("ctl-pass", "hand:3")]
    assert "readers: 4 of 4 ok" in report and "deck walk: 5 of 5 ok" in report


@pytest.mark.hardware_emulation
def test_the_check_refuses_a_pcsc_name_matching_several_readers_in_one_line(pcscd, tmp_path):
    cfg = tmp_path / "table.toml"
    readers = {role: {"path": "sim"} for role in ROLES}
    readers["field"] = {"path": "pcsc:PaSoRi"}  # every virtual RC-S300 has it in its name
    cfg.write_text(table_toml(readers))
    proc = check(cfg, tmp_path / "report.txt")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("kikimimi bringup: pcsc:PaSoRi: 'PaSoRi' matches")
    assert not (tmp_path / "report.txt").exists()
