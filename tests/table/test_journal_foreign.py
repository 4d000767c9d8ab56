"""Issue 31, item 5: `--journal PATH` checks what is there before it touches it, as `--db` does: a folder,
a file that is not SQLite or a SQLite file with other tables is refused in one line, its mode unchanged,
no `.lock` beside it and no table added."""

import sqlite3
import subprocess
import sys

import pytest

from kikimimi.table.journal import Journal, JournalError
from kikimimi.venue.client import Outbox


def _foreign(tmp_path, kind):
    path = tmp_path / f"foreign-{kind}"
    if kind == "folder":
        path.mkdir(mode=0o755)
    elif kind == "text":
        path.write_text("my notes\n")
        path.chmod(0o644)
    else:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE photos (name TEXT)")
        path.chmod(0o644)
    return path


@pytest.mark.parametrize("kind", ["folder", "text", "sqlite"])
def test_journal_refuses_a_foreign_file_untouched(tmp_path, kind):
    path = _foreign(tmp_path, kind)
    mode = path.stat().st_mode
    with pytest.raises(JournalError, match="nothing was changed"):
        Journal(path)
    with pytest.raises(JournalError, match="nothing was changed"):
        _outbox_over(path)
    assert path.stat().st_mode == mode
    if kind == "sqlite":
        with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
            assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["photos"]


def _outbox_over(path):
    """An outbox whose file would be the foreign one."""
    journal = path.with_name(path.name + "-journal")
    path.rename(f"{journal}.venue.sqlite")
    try:
        return Outbox(journal)
    finally:
        path.with_name(f"{journal.name}.venue.sqlite").rename(path)


def test_venue_join_with_a_foreign_journal_is_one_line(tmp_path):
    # One real command (a subprocess costs seconds); every kind of foreign file is refused in-process above.
    path = _foreign(tmp_path, "sqlite")
    mode = path.stat().st_mode
    run = subprocess.run([sys.executable, "-m", "kikimimi", "venue", "join", "http://127.0.0.1:9", "--table", "1",
                          "--journal", str(path), "--bots", "1"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert "nothing was changed" in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert path.stat().st_mode == mode
    assert not (tmp_path / f"{path.name}.lock").exists()


def test_a_journal_opens_again(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    Journal(path).close()
    Outbox(path).close()
    Outbox(path).close()
