"""Issue 31, item 1: a second process that opens and closes a live SQLite file, then the writer dies
(os._exit, as a crash): nothing the writer confirmed is lost, in the records, the journal and the outbox.

The writer runs in a child process that first opens the file twice (the host opens one store per thread,
a table's reporter opens its own journal and outbox connection), so that a plain-Python open and close
anywhere in that process would drop its SQLite locks; then a second process reads the file and closes it
(`kikimimi players list` and `kikimimi journal list`, the real commands, and a raw sqlite3 reader), which
lets SQLite delete the write-ahead log a writer without locks is still appending to.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from kikimimi.records.store import RecordStore
from kikimimi.table.journal import Journal
from kikimimi.venue.client import Outbox

KIKIMIMI = [sys.executable, "-m", "kikimimi"]

WRITER = {
    "records": """
        from kikimimi.records.store import RecordStore
        first = RecordStore(path)
        first.players.add("Ann")
        second = RecordStore(path, create=False)  # another thread's store, as the host has
        second.players.all()
    """,
    "journal": """
        from kikimimi.games.base import Scan
        from kikimimi.table.journal import Journal
        first = Journal(path)
        game = first.begin_game("trident", {"first": 1})
        first.append(game, 1, Scan("field", "a"))
        second = Journal(path)  # the reporter's own connection, as a table in a meeting has
        second.games()
    """,
    "outbox": """
        from kikimimi.venue.client import Outbox
        journal = path.removesuffix(".venue.sqlite")
        first = Outbox(journal)
        first.mark(1, "game-1", 1, 1)
        second = Outbox(journal)  # opened again by a restarted reporter in the same process
        second.done(1)
    """,
}

CONFIRM = {
    "records": 'first.players.add("Bo")',
    "journal": 'first.append(game, 2, Scan("field", "b"))',
    "outbox": 'first.mark(1, "game-2", 2, 1)',
}


def _writer(kind: str, path: Path) -> subprocess.Popen:
    script = (f"import os, sys\npath = {str(path)!r}\n" + textwrap.dedent(WRITER[kind])
              + "print('open', flush=True)\nsys.stdin.readline()\n" + CONFIRM[kind]
              + "\nprint('confirmed', flush=True)\nos._exit(0)\n")
    return subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)


def _outside_readers(kind: str, path: Path, env: dict[str, str]) -> None:
    """Other processes open the file and close it: the real commands, then a bare sqlite3 reader."""
    if kind == "records":
        subprocess.run([*KIKIMIMI, "players", "list", "--db", str(path)], env=env, check=True, capture_output=True)
    reader = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
              "c.execute('SELECT * FROM sqlite_master').fetchall(); c.close()")
    subprocess.run([sys.executable, "-c", reader, str(path)], check=True)
    subprocess.run([sys.executable, "-c", f"open({str(path)!r}, 'rb').read(100)"], check=True)  # a backup's copy


def _confirmed_then_killed(kind: str, path: Path, tmp_path: Path) -> None:
    env = {**os.environ, "KIKIMIMI_DATA": str(tmp_path)}
    writer = _writer(kind, path)
    assert writer.stdout.readline().strip() == "open"
    _outside_readers(kind, path, env)
    assert Path(f"{path}-wal").exists(), "the writer's write-ahead log was deleted under it"
    writer.stdin.write("go\n")
    writer.stdin.flush()
    assert writer.stdout.readline().strip() == "confirmed"
    assert writer.wait(timeout=30) == 0


def test_records_keep_a_confirmed_player(tmp_path):
    path = tmp_path / "records.sqlite"
    _confirmed_then_killed("records", path, tmp_path)
    with RecordStore(path, create=False) as store:
        assert sorted(p.name for p in store.players.all()) == ["Ann", "Bo"]


def test_journal_keeps_a_confirmed_event(tmp_path):
    path = tmp_path / "journal.sqlite"
    _confirmed_then_killed("journal", path, tmp_path)
    journal = Journal(path)
    try:
        [game] = journal.games()
        assert journal.last_seq(game.id) == 2
    finally:
        journal.close()


def test_outbox_keeps_a_confirmed_acknowledgement(tmp_path):
    journal = tmp_path / "journal.sqlite"
    _confirmed_then_killed("outbox", Path(f"{journal}.venue.sqlite"), tmp_path)
    outbox = Outbox(journal)
    try:
        assert set(outbox.done(1)) == {"game-1", "game-2"}
    finally:
        outbox.close()
