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
            store.players.add("Ann")
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
        assert store.players.all() == []
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_file_that_is_not_records_is_refused_and_left_as_it_was(tmp_path, capsys):
    """Issue 21.6: `players list --db some-file` chmodded the file to 0600 before finding it was no database."""
    import sqlite3

    from kikimimi.app.cli import main

    text = tmp_path / "notes.txt"
    text.write_text("shopping list\n")
    text.chmod(0o644)
    other = tmp_path / "other-app.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE bookmarks (url TEXT)")
    other.chmod(0o644)
    for path in (text, other):
        before = path.read_bytes()
        assert main(["players", "list", "--db", str(path)]) == 1
        err = capsys.readouterr().err
        assert "not a kikimimi records database" in err and str(path) in err and "Traceback" not in err
        assert stat.S_IMODE(path.stat().st_mode) == 0o644 and path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "other-app.sqlite"]


def test_an_existing_empty_file_becomes_records_only_for_a_command_that_creates_them(tmp_path, capsys):
    from kikimimi.app.cli import main

    empty = tmp_path / "typo.sqlite"
    empty.touch()
    empty.chmod(0o644)
    assert main(["players", "list", "--db", str(empty)]) == 1
    err = capsys.readouterr().err
    assert "empty file" in err and "players add" in err
    assert empty.stat().st_size == 0 and stat.S_IMODE(empty.stat().st_mode) == 0o644
    assert main(["players", "add", "Ann", "--db", str(empty)]) == 0
    assert stat.S_IMODE(empty.stat().st_mode) == 0o600
    assert main(["players", "list", "--db", str(empty)]) == 0


def test_a_malformed_url_is_one_line(capsys):
    from kikimimi.app.cli import main

    assert main(["players", "list", "--db", "postgresql://u:pw@h:x/db"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a database URL" in err and "pw" not in err
