"""Bring-up with PC/SC readers through the real pcscd (vpcd readers): discovery offers every reader pcscd
has under the name to write into the config, and --assign binds each role to the reader tapped."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from bringup_helpers import ROLES, table_toml

from kikimimi.bringup.candidates import discover
from kikimimi.table.config import load_config

pytestmark = pytest.mark.hardware_emulation


def test_discovery_offers_pcscds_readers_and_flags_names_without_a_serial_number(pcscd, tmp_path):
    with pcscd.in_use():
        first, _ = pcscd.lease()
        cfg = tmp_path / "table.toml"
        cfg.write_text(table_toml({"field": {"path": first.path}, **{r: {"path": "sim"} for r in ROLES[1:]}}))
        found, notes = discover(load_config(cfg))
    paths = [c.open_path for c in found]
    assert paths[0] == first.path and len(paths) == len(set(paths))  # the configured one is not offered twice
    by_path = {c.open_path: c for c in found}
    serial = next(c for c in found if "(0A1B2C02)" in c.open_path)
    plain = next(c for c in found if "ACR122U" in c.open_path)
    assert serial.write_path == serial.open_path and serial.notes == ()
    assert "no serial number" in plain.notes[0]
    assert all(p.startswith("pcsc:") for p in by_path) and notes == []


def test_assign_binds_each_role_to_the_pcsc_reader_tapped(pcscd, tmp_path):
    with pcscd.in_use(alone=True):  # it listens to every reader: no other test's card may land meanwhile
        a = pcscd.lease(0)
        b = pcscd.lease(1)
        readers = {"field": a[0], "hand:1": a[1], "hand:2": b[0], "hand:3": b[1]}
        cfg = tmp_path / "table.toml"
        cfg.write_text(table_toml({role: {"path": "sim"} for role in readers}))
        proc = subprocess.Popen([sys.executable, "-m", "kikimimi", "bringup", "--assign", "--config", str(cfg),
                                 *[a for r in readers.values() for a in ("--reader", r.path)], "--seconds", "60"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        order = [b[1], b[0], a[1], a[0]]  # field <- b[1], hand:1 <- b[0], ...
        seen, opened, asked, held = [], 0, 0, None
        try:
            # each card goes down once every reader is open and its role is asked, and stays until it is bound
            for line in proc.stdout:
                seen.append(line)
                opened += ": ok: reading pcsc:" in line
                asked += line.startswith("tap any tag on the")
                if held is not None and " = reader-" in line:
                    held.lift()
                    held = None
                if held is None and asked and opened >= 4 and order:
                    held = order.pop(0).card("04010203")
                    held.place()
                    asked -= 1
            proc.wait(timeout=60)
        finally:
            proc.kill()
            if held is not None:
                held.lift()
        assert proc.returncode == 0, "".join(seen)
        order = [b[1], b[0], a[1], a[0]]
        bound = tomllib.loads(cfg.read_text())["readers"]
        assert [bound[role]["path"] for role in ("field", "hand:1", "hand:2", "hand:3")] == [r.path for r in order]
        load_config(cfg)
