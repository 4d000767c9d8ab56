"""A records file on a full disk is refused at open with a line that says the disk is full (SQLite itself says
only "disk I/O error"). A real size-limited tmpfs (root only: mounting)."""

from __future__ import annotations

import os
import subprocess

import pytest

from kikimimi.records.schema import SchemaError
from kikimimi.records.store import RecordStore


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to mount a size-limited tmpfs")
def test_a_full_disk_is_named_at_open(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)], check=True)
    try:
        RecordStore(str(disk / "records.sqlite"), create=True)
        for name in ("records.sqlite-wal", "records.sqlite-shm"):
            (disk / name).unlink(missing_ok=True)
        with open(disk / "filler", "wb") as filler, pytest.raises(OSError):
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        with pytest.raises(SchemaError, match="is full: free some space"):
            RecordStore(str(disk / "records.sqlite"))
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
