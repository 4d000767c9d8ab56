"""The records file holds who played and when: its owner only may read it (issue 15, item 6), even when
an admin creates it with a umask of 022 (`sudo -u kikimimi kikimimi players add ...`)."""

from __future__ import annotations

import os
import stat

from kikimimi.records.store import RecordStore


def test_a_new_records_file_and_its_wal_are_the_owners_only(tmp_path):
    path = tmp_path / "records.sqlite"
    old = os.umask(0o022)
    try:
        with RecordStore(path) as store:
            store.add_player("Ann")
            wal = path.with_name(path.name + "-wal")
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
            assert not wal.exists() or stat.S_IMODE(wal.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_an_older_world_readable_records_file_is_made_private_when_opened(tmp_path):
    path = tmp_path / "records.sqlite"
    RecordStore(path).close()
    path.chmod(0o644)
    with RecordStore(path) as store:
        assert store.players() == []
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
