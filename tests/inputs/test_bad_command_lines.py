"""Issue 31, item 8: every bad command line of the fault run ends with one clear line naming what is wrong and a
non-zero exit: never a traceback, a silent wait, a run that does nothing, a folder created or a password shown.
Each row runs the real `kikimimi` command in this process."""

from __future__ import annotations

import time
import traceback
from pathlib import Path

from kikimimi.app.cli import main

PASSWORD = "hunter2-not-shown"


def _rows(tmp: Path) -> list[tuple[list[str], str]]:
    """(argv, a piece the last line of the message holds)."""
    (tmp / "junk.txt").write_text("not records\n")
    (tmp / "folder").mkdir()
    new_db = tmp / "new" / "dir" / "x.sqlite"
    return [
        (["bench", "nimmt", "--players", "99"], "--players: 2 to 10, not 99"),
        (["bench", "numeron", "--digits", "99"], "--digits: 3 to 5, not 99"),
        (["bench", "royal-nine", "--deals", "-1"], "--deals: 1 or more, not -1"),
        (["demo", "--pace", "-1"], "--pace: 0 to 60 seconds, not -1"),
        (["demo", "--pace", "nan"], "--pace: 0 to 60 seconds, not nan"),
        (["simulate", "--games", "-1"], "--games: 1 or more, not -1"),
        (["meeting", "start", "--players", "Ann,Bob,Cid", "--trial", "half", "--add-new", "--tables", "0"],
         "--tables: 1 to 100, not 0"),
        (["meeting", "start", "--players", "Ann,Bob,Cid", "--trial", "half", "--add-new", "--tables", "-3"],
         "--tables: 1 to 100, not -3"),
        (["venue", "join", "http://[::1", "--table", "1"], "is not a URL"),
        (["venue", "join", "nope", "--table", "1"], "not an http:// or https:// URL with a host"),
        (["venue", "join", "ftp://x", "--table", "1"], "not an http:// or https:// URL with a host"),
        (["venue", "join", "http://127.0.0.1:99999", "--table", "1"], "port 99999 is not a port"),
        (["venue", "status", "nope"], "not an http:// or https:// URL with a host"),
        (["console", "--records", str(tmp / "junk.txt")], "not a SQLite file"),
        (["console", "--records", str(tmp / "folder")], "is a folder"),
        (["venue", "host", "--db", str(new_db)], "does not exist"),
        (["venue", "host", "--token", "club"], "--token is too weak"),
        (["meeting", "list", "--db", f"postgresql://kiki@127.0.0.1:1/records?password={PASSWORD}"],
         "cannot reach records database"),
    ]


def test_each_bad_command_line_is_one_clear_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    problems = []
    for argv, says in _rows(tmp_path):
        started = time.monotonic()
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own refusal: a usage line, then its one error line
            code = exc.code
        except Exception:  # noqa: BLE001 - a traceback is what this test looks for
            code, says = "traceback", traceback.format_exc()
        took = time.monotonic() - started
        out, err = capsys.readouterr()
        lines = err.strip().splitlines()
        if code in (0, None, "traceback") or not lines or says not in lines[-1] or "Traceback" in err + out \
                or PASSWORD in err + out or took > 15:
            problems.append((argv, code, round(took, 1), err[-400:]))
    assert not problems, problems
    assert not (tmp_path / "new").exists(), "venue host --db created folders for a file it will not create"
    assert (tmp_path / "junk.txt").read_text() == "not records\n"
