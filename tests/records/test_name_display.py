"""Names are data wherever they are shown (issue 15, item 2): a records file written before names were
checked (or edited by hand) may hold an escape sequence or `[/]`; no command and no console panel sends the
escape to the terminal or fails on the markup."""

from __future__ import annotations

import sqlite3

from rich.console import Console

from kikimimi.app.cli import main
from kikimimi.console.records import read_meeting
from kikimimi.records.store import printable

EVE = "Eve\x1b]0;owned\x07[/]\x9b31m\u202e"  # a title-setting escape, markup, an 8-bit CSI, a bidi override


def _records(tmp_path, capsys):
    db = tmp_path / "records.sqlite"
    for name in ("Ann", "Bea", "Cid"):
        assert main(["players", "add", name, "--db", str(db)]) == 0
    results = tmp_path / "games.jsonl"
    results.write_text('{"ranking": ["Bea", "Ann", "Cid"]}\n' * 2)
    assert main(["meeting", "start", "--players", "Ann,Bea,Cid", "--trial", "full", "--games", "5",
                 "--results", str(results), "--db", str(db)]) in (0, 1)  # stops open: the file runs out
    with sqlite3.connect(db) as raw:  # as an old or hand-edited records file holds it
        raw.execute("UPDATE players SET name = ? WHERE name = 'Bea'", (EVE,))
        raw.execute("UPDATE players SET name = ? WHERE name = 'Cid'", ("C[/]id",))
    capsys.readouterr()
    return db


def _clean(text: str) -> bool:
    return not any(c in text for c in "\x1b\x07\x9b\u202e")


def test_printable_escapes_controls_and_keeps_names_readable():
    assert printable("山田\u3000花子 [b]") == "山田\u3000花子 [b]"
    assert printable("Eve\x1b[31m\n") == "Eve\\x1b[31m\\x0a"
    assert printable("a\u202eb\x9b") == "a\\u202eb\\x9b"


def test_commands_show_names_escaped_and_never_fail_on_markup(tmp_path, capsys):
    db = _records(tmp_path, capsys)
    for argv in (["players", "list"], ["players", "show", "C[/]id", "--history"], ["meeting", "show"],
                 ["meeting", "list"], ["players", "show", EVE]):
        code = main([*argv, "--db", str(db)])
        out = capsys.readouterr()
        assert code == 0, (argv, out.err)
        assert _clean(out.out + out.err), (argv, out.out)
        assert "C[/]id" in out.out or argv[-1] == EVE, (argv, out.out)


def test_the_console_panel_shows_names_escaped(tmp_path, capsys):
    panel = read_meeting(_records(tmp_path, capsys))
    assert panel.view is not None and panel.open
    players, titles = panel.seats()
    assert all(_clean(name) for name in players.values()) and all(_clean(name) for name in titles)
    console = Console(record=True, width=200, color_system=None)
    console.print(panel.renderable())
    text = console.export_text()
    assert _clean(text) and "C[/]id" in text and "Eve\\x1b]0;owned" in text
