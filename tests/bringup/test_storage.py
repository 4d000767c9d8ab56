"""`bringup --check` warns when the journal would be lost at a reboot: a journal on a real tmpfs and on a real
overlay mount (a Pi's overlay root is one), mounted by the test as root; an ordinary disk is not warned of."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bringup_helpers import ROLES, table_toml

from kikimimi.bringup.storage import forgets, mount_of, mounts


@pytest.fixture
def mounted(tmp_path):
    """Mount a file system of a kind under tmp_path; unmounted after the test."""
    if os.geteuid() != 0:
        pytest.skip("needs root (mounting a tmpfs and an overlay)")
    points: list[Path] = []

    def mount(kind: str) -> Path:
        point = tmp_path / kind
        point.mkdir()
        if kind == "overlay":
            for part in ("lower", "upper", "work"):
                (tmp_path / part).mkdir()
            options = f"lowerdir={tmp_path / 'lower'},upperdir={tmp_path / 'upper'},workdir={tmp_path / 'work'}"
            args = ["mount", "-t", "overlay", "overlay", "-o", options, str(point)]
        else:
            args = ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(point)]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a {kind} here: {done.stderr.strip()}")
        points.append(point)
        return point

    yield mount
    for point in reversed(points):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_the_mount_a_path_lives_on_is_read_from_proc_mounts(mounted, tmp_path):
    ram = mounted("tmpfs")
    assert mount_of(ram / "not" / "made" / "journal.sqlite").fstype == "tmpfs"  # the nearest existing folder
    assert "lost at the next reboot" in forgets(ram / "journal.sqlite")
    assert forgets(tmp_path / "journal.sqlite") is None or mount_of(tmp_path).fstype in ("tmpfs", "overlay")
    spaced = mounts("tmpfs /mnt/my\\040data tmpfs rw 0 0\n")  # /proc/mounts escapes a space
    assert spaced[0].point == Path("/mnt/my data")


@pytest.mark.parametrize("kind", ["tmpfs", "overlay"])
def test_bringup_check_warns_of_a_journal_that_a_reboot_loses(mounted, tmp_path, kind):
    place = mounted(kind)
    cfg = tmp_path / "table.toml"
    cfg.write_text(table_toml({role: {"path": "sim"} for role in ROLES}, head=f'journal = "{place}/journal.sqlite"'))
    report = tmp_path / "report.txt"
    proc = subprocess.run([sys.executable, "-m", "kikimimi", "bringup", "--check", "--config", str(cfg), "--report",
                           str(report), "--transcript", "--walk", "2"], capture_output=True, text=True, timeout=90)
    text = report.read_text()
    assert proc.returncode == 0 and ": PASS" in text, proc.stdout + proc.stderr  # a warning, not a failure
    assert f"WARN journal: {place}/journal.sqlite is on" in text and "lost at the next reboot" in text
    assert "storage: 1 of 2 ok, 1 WARNING" in text or mount_of(Path(os.environ["KIKIMIMI_DATA"])).fstype == kind
