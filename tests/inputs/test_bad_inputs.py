"""Bad input (issue 15): every case is a real command that ends with a clear message naming the file
(and the line where there is one) and what to do: no traceback, nothing lost, the exit code of a
command that failed.

Each row builds its files in a fresh folder, runs `kikimimi ...` in-process and checks the exit
code, that no traceback is printed, and that the output holds every expected piece of the message.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kikimimi.app.cli import main
from kikimimi.games.base import Scan
from kikimimi.paths import data_dir
from kikimimi.table.journal import Journal, event_from_json

SCRIPTS = Path(__file__).parents[1] / "scripts"
SETUP = '{"game": "trident", "rules": "standard", "first": 1}\n'
RESULTS = [{"player": "Ann", "place": 1}, {"player": "Bob", "place": 2}, {"player": "Cid", "place": 3}]


@dataclass
class Run:
    argv: list[str]
    code: int  # the exit code expected
    says: list[str]  # pieces the output must hold ({tmp} is the row's folder)
    never: list[str] = field(default_factory=list)  # pieces it must not hold
    env: dict[str, str] = field(default_factory=dict)  # besides KIKIMIMI_DATA={tmp}/data
    then: Callable[[Path], None] | None = None  # a check afterwards (nothing lost)


def _sheet(**fields: object) -> str:
    line = {"meeting": "club", "kind": "contest", "date": "2024-05-12", "results": RESULTS, **fields}
    return json.dumps(line) + "\n"


def _journal(tmp: Path, events: int = 300) -> tuple[Path, str]:
    path = tmp / "data" / "journal.sqlite"
    journal = Journal(path)
    journal.db.execute("PRAGMA synchronous=OFF")  # a test's journal: speed over durability
    game = journal.begin_game("trident", {"rules": "standard", "first": 1})
    for seq in range(1, events + 1):
        journal.append(game, seq, Scan("field", "heart-1"))
    journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    journal.close()
    return path, game


def _sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()


def _damage_pages(path: Path) -> None:
    """Garbage written over every page but the header's, as a failing card or a cut write leaves it."""
    data = bytearray(path.read_bytes())
    for page in range(4096, len(data), 4096):
        data[page + 8:page + 4000] = b"garbage!" * 499
    path.write_bytes(bytes(data))


def _empty_feed(tmp: Path) -> str:
    (tmp / "empty.jsonl").write_text("")
    return str(tmp / "empty.jsonl")


def _play(tmp: Path, *more: str) -> list[str]:
    return ["play", "--text-only", "--quiet", "--feed", _empty_feed(tmp), *more]


def _no_meeting(tmp: Path) -> None:
    from kikimimi.records.store import RecordStore

    with RecordStore(tmp / "data" / "records.sqlite") as store:
        assert store.meetings.all() == []


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """A folder nobody may write to, even root (chattr +i), else the test is skipped."""
    folder.chmod(0o555)
    immutable = False
    if os.access(folder, os.W_OK) and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("cannot make a read-only folder here (root without chattr)")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


# -- the rows ------------------------------------------------------------------------------------


def config_not_utf8(tmp: Path) -> Run:
    (tmp / "table.toml").write_bytes(b'game = "trident"\n# caf\xe9\n')
    return Run(_play(tmp, "--config", str(tmp / "table.toml")), 2, ["{tmp}/table.toml:2", "UTF-8"])


def deck_not_utf8(tmp: Path) -> Run:
    deck = (data_dir("devices") / "decks" / "trident-sim.toml").read_bytes()
    (tmp / "deck.toml").write_bytes(b"# caf\xe9\n" + deck)
    (tmp / "s.jsonl").write_text(SETUP)
    return Run(["replay", "--deck", str(tmp / "deck.toml"), str(tmp / "s.jsonl")], 2,
               ["{tmp}/deck.toml:1", "UTF-8"])


def script_not_utf8(tmp: Path) -> Run:
    (tmp / "s.jsonl").write_bytes(SETUP.encode() + b'{"referee": "caf\xe9"}\n{"scan": "hand:1", "piece": "x"}\n')
    return Run(["replay", str(tmp / "s.jsonl")], 1,
               ["{tmp}/s.jsonl:2: refused: not UTF-8", "{tmp}/s.jsonl:3: refused: unknown piece"])


def script_nested_too_deep(tmp: Path) -> Run:
    (tmp / "s.jsonl").write_text(SETUP + "[" * 100_000 + "\n" + '{"scan": "hand:1", "piece": "x"}\n')
    return Run(["replay", str(tmp / "s.jsonl")], 1,
               ["{tmp}/s.jsonl:2: refused: not a script line", "{tmp}/s.jsonl:3: refused: unknown piece"])


def records_not_utf8(tmp: Path) -> Run:
    (tmp / "r.jsonl").write_bytes(_sheet().encode() + b'{"meeting": "caf\xe9"}\n')
    return Run(["records", "import", str(tmp / "r.jsonl")], 1, ["{tmp}/r.jsonl:2", "UTF-8"], then=_no_meeting)


def records_results_number(tmp: Path) -> Run:
    (tmp / "r.jsonl").write_text(_sheet(results=5))
    return Run(["records", "import", str(tmp / "r.jsonl")], 1, ["{tmp}/r.jsonl line 1", "`results`"],
               then=_no_meeting)


def records_winner_number(tmp: Path) -> Run:
    (tmp / "r.jsonl").write_text(_sheet(winner=5))
    return Run(["records", "import", str(tmp / "r.jsonl")], 1, ["{tmp}/r.jsonl line 1", "`winner` names a player"],
               then=_no_meeting)


def records_date_out_of_range(tmp: Path) -> Run:
    (tmp / "r.jsonl").write_text(_sheet(date="9999-12-31T23:00-05:00"))
    return Run(["records", "import", str(tmp / "r.jsonl")], 1, ["{tmp}/r.jsonl line 1", "out of range"],
               then=_no_meeting)


def records_game_number_text(tmp: Path) -> Run:
    (tmp / "r.jsonl").write_text(_sheet(game="x"))
    return Run(["records", "import", str(tmp / "r.jsonl")], 1, ["{tmp}/r.jsonl line 1", "`game`"],
               then=_no_meeting)


def records_nested_too_deep(tmp: Path) -> Run:
    (tmp / "r.jsonl").write_text("[" * 100_000 + "\n")
    return Run(["records", "import", str(tmp / "r.jsonl")], 1, ["{tmp}/r.jsonl line 1", "nested"],
               then=_no_meeting)


def meeting_results_missing(tmp: Path) -> Run:
    return Run(["meeting", "start", "--players", "Ann,Bob,Cid", "--trial", "half", "--add-new", "--results",
                str(tmp / "nope.jsonl")], 1, ["{tmp}/nope.jsonl", "No such file"], then=_no_meeting)


def journal_damaged_page_list(tmp: Path) -> Run:
    path, _ = _journal(tmp)
    _damage_pages(path)
    return Run(["journal", "list"], 2, ["{tmp}/data/journal.sqlite", "damaged", "move it aside"])


def journal_damaged_page_export(tmp: Path) -> Run:
    path, game = _journal(tmp)
    _damage_pages(path)
    return Run(["journal", "export", game], 2, ["{tmp}/data/journal.sqlite", "damaged", "move it aside"])


def journal_damaged_page_play(tmp: Path) -> Run:
    path, _ = _journal(tmp)
    _damage_pages(path)
    return Run(_play(tmp), 2, ["{tmp}/data/journal.sqlite", "damaged", "move it aside"])


def journal_bad_event_json_export(tmp: Path) -> Run:
    path, game = _journal(tmp)
    _sql(path, "UPDATE events SET event = '{bad' WHERE seq = 5")
    return Run(["journal", "export", game], 2, ["{tmp}/data/journal.sqlite", "event 5 is not JSON", "move it aside"])


def journal_bad_event_json_play(tmp: Path) -> Run:
    path, _ = _journal(tmp)
    _sql(path, "UPDATE events SET event = '{bad' WHERE seq = 5")
    return Run(_play(tmp), 2, ["{tmp}/data/journal.sqlite", "event 5 is not JSON", "move it aside"])


def journal_bad_setup_json_list(tmp: Path) -> Run:
    path, _ = _journal(tmp)
    _sql(path, "UPDATE games SET setup = '{bad'")
    return Run(["journal", "list"], 2, ["{tmp}/data/journal.sqlite", "set-up is not JSON", "move it aside"])


def journal_missing_table_list(tmp: Path) -> Run:
    path, _ = _journal(tmp)
    _sql(path, "DROP TABLE events")
    return Run(["journal", "list"], 2, ["{tmp}/data/journal.sqlite", "no events table", "move it aside"])


def journal_missing_table_play(tmp: Path) -> Run:
    path, _ = _journal(tmp)
    _sql(path, "DROP TABLE events")
    return Run(_play(tmp), 2, ["{tmp}/data/journal.sqlite", "no events table", "move it aside"])


def players_add_data_is_a_file(tmp: Path) -> Run:
    (tmp / "file").write_text("")
    return Run(["players", "add", "Ann"], 1, ["{tmp}/file is a file", "KIKIMIMI_DATA"],
               env={"KIKIMIMI_DATA": str(tmp / "file" / "data")})


def players_add_read_only_folder(tmp: Path) -> Run:
    (tmp / "ro").mkdir()
    return Run(["players", "add", "Ann"], 1, ["cannot write to {tmp}/ro: permission denied", "KIKIMIMI_DATA"],
               never=["damaged", "is it a kikimimi"], env={"KIKIMIMI_DATA": str(tmp / "ro" / "data")})


def players_add_read_only_records(tmp: Path) -> Run:
    (tmp / "data").mkdir()
    assert main(["players", "add", "Ann"]) == 0
    return Run(["players", "add", "Bob"], 1, ["cannot write to {tmp}/data: permission denied"],
               never=["damaged", "is it a kikimimi"])


def journal_read_only_folder(tmp: Path) -> Run:
    _journal(tmp)
    return Run(["journal", "list"], 2, ["cannot write to {tmp}/data: permission denied"], never=["damaged"])


def _reader_table(tmp: Path, hand_paths: list[str]) -> str:
    lines = ['game = "trident"', "[readers.field]", 'path = "sim"']
    for seat, path in enumerate(hand_paths, start=1):
        lines += [f'[readers."hand:{seat}"]', f'path = "{path}"'] + (['protocol = "uid-line"'] * (path != "sim"))
    lines += ["[voice]", "allow_shared_channels = true"]
    (tmp / "table.toml").write_text("\n".join(lines) + "\n")
    return str(tmp / "table.toml")


def reader_path_missing(tmp: Path) -> Run:
    table = _reader_table(tmp, ["/nonexistent/ttyUSB9", "sim", "sim"])
    return Run(_play(tmp, "--config", table), 0, ["WARNING", "reader hand:1: /nonexistent/ttyUSB9 does not exist"])


def reader_one_device_two_names(tmp: Path) -> Run:
    (tmp / "by-id").symlink_to("/dev/null")
    table = _reader_table(tmp, ["/dev/null", f"{tmp}/by-id", "sim"])
    return Run(_play(tmp, "--config", table), 0, ["WARNING", "readers hand:1 and hand:2 are one device (/dev/null)"])


def feed_not_utf8(tmp: Path) -> Run:
    (tmp / "f.jsonl").write_bytes(SETUP.encode() + b'{"referee": "caf\xe9"}\n{"scan": "hand:1", "piece": "heart-1"}\n')
    return Run(["play", "--text-only", "--quiet", "--feed", str(tmp / "f.jsonl")], 0,
               ["{tmp}/f.jsonl:2: refused: not UTF-8", "save the script as UTF-8"])


def feed_bad_set_up_names_the_feed(tmp: Path) -> Run:
    (tmp / "f.jsonl").write_text('{"game": "trident", "first": 7}\n')
    return Run(["play", "--text-only", "--quiet", "--feed", str(tmp / "f.jsonl")], 1,
               ["feed {tmp}/f.jsonl stopped: line 1: bad set-up"])


def script_piece_name_of_5_mb(tmp: Path) -> Run:
    (tmp / "s.jsonl").write_text(SETUP + json.dumps({"scan": "hand:1", "piece": "x" * 5_000_000}) + "\n")
    return Run(["replay", str(tmp / "s.jsonl")], 1, ["{tmp}/s.jsonl:2: refused: unknown piece 'xxx", "… (5000000 "],
               never=["x" * 200])


ESCAPES = '{"referee": "forgot\\u001b]0;pwned\\u0007", "seat": "\\u001b[2J\\u202eevil"}\n'


def replay_escape_sequences(tmp: Path) -> Run:
    (tmp / "s.jsonl").write_text(SETUP + ESCAPES)
    return Run(["replay", str(tmp / "s.jsonl")], 0, ["referee forgot\\x1b]0;pwned\\x07 seat=\\x1b[2J\\u202eevil",
                                                    "referee alert"], never=["\x1b", "\u202e", "\x07"])


def feed_escape_sequences(tmp: Path) -> Run:
    (tmp / "f.jsonl").write_text(SETUP + ESCAPES)
    return Run(["play", "--text-only", "--feed", str(tmp / "f.jsonl")], 0,
               ["referee forgot\\x1b]0;pwned\\x07 seat=\\x1b[2J\\u202eevil"], never=["\x1b", "\u202e", "\x07"])


def journal_damaged_index_play(tmp: Path) -> Run:
    # The games' index page scrambled: the game reads back whole, but writing its end (it had ended) fails.
    path = tmp / "data" / "journal.sqlite"
    journal = Journal(path)
    game = journal.begin_game("trident", {"rules": "standard", "first": 1})
    for seq, line in enumerate((SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()[1:], start=1):
        journal.append(game, seq, event_from_json(json.loads(line)))
    journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    journal.close()
    data = bytearray(path.read_bytes())
    data[2 * 4096:2 * 4096 + 4000] = b"garbage!" * 500  # page 3: sqlite_autoindex_games_1
    path.write_bytes(bytes(data))
    return Run(_play(tmp), 2, ["{tmp}/data/journal.sqlite is damaged", "move it aside"])


ROWS = [replay_escape_sequences, feed_escape_sequences, feed_not_utf8, feed_bad_set_up_names_the_feed,
        script_piece_name_of_5_mb, journal_damaged_index_play,
        config_not_utf8, deck_not_utf8, script_not_utf8, script_nested_too_deep, records_not_utf8,
        records_results_number, records_winner_number, records_date_out_of_range, records_game_number_text,
        records_nested_too_deep, meeting_results_missing, journal_damaged_page_list, journal_damaged_page_export,
        journal_damaged_page_play, journal_bad_event_json_export, journal_bad_event_json_play,
        journal_bad_setup_json_list, journal_missing_table_list, journal_missing_table_play,
        players_add_data_is_a_file, players_add_read_only_folder, players_add_read_only_records,
        journal_read_only_folder, reader_path_missing, reader_one_device_two_names]
READ_ONLY = {players_add_read_only_folder: "ro", players_add_read_only_records: "data",
             journal_read_only_folder: "data"}  # the folder each of these rows makes read-only


@pytest.mark.parametrize("row", ROWS, ids=[row.__name__ for row in ROWS])
def test_bad_input(row, tmp_path, monkeypatch, capsys):
    tmp = tmp_path
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp / "data"))
    monkeypatch.setenv("COLUMNS", "500")  # rich's log lines: paths kept whole on one line
    monkeypatch.chdir(tmp)
    run = row(tmp)
    capsys.readouterr()
    for key, value in run.env.items():
        monkeypatch.setenv(key, value)
    folder = READ_ONLY.get(row)
    with _read_only(tmp / folder) if folder else contextlib.nullcontext():
        try:
            code: int | str = main(run.argv)
        except BaseException:  # noqa: BLE001 - a traceback is the failure this test looks for
            code = "raised"
            print(traceback.format_exc())
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text, text
    assert code == run.code, text
    for piece in run.says:
        assert piece.format(tmp=tmp) in text, text
    for piece in run.never:
        assert piece not in text, text
    if run.then is not None:
        run.then(tmp)


@pytest.fixture
def full_disk(tmp_path) -> Iterator[Path]:
    """A real full disk: a 64 KiB tmpfs filled to the last block (mounting needs root, else skipped)."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root): {done.stderr.decode().strip()}")
    try:
        (mount / "data").mkdir()
        with contextlib.suppress(OSError), open(mount / "filler", "wb") as filler:
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_full_disk_at_start_is_one_line_naming_the_lock(full_disk, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KIKIMIMI_DATA", str(full_disk / "data"))
    monkeypatch.setenv("COLUMNS", "500")
    monkeypatch.chdir(tmp_path)
    try:
        code: int | str = main(_play(tmp_path))
    except BaseException:  # noqa: BLE001 - a traceback is the failure this test looks for
        code = "raised"
        print(traceback.format_exc())
    text = "".join(capsys.readouterr())
    assert "Traceback" not in text, text
    assert code == 2, text
    assert f"table lock {full_disk}/data/journal.sqlite.lock: No space left on device; make room" in text, text
