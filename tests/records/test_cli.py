"""The `kikimimi players`, `records import` and `meeting` commands, in-process and as a real process."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys

import pytest
from waiting import wait_until

from kikimimi.app.cli import main


@pytest.fixture
def db(records_url):
    return ["--db", records_url]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_players_add_list_show(capsys, db):
    assert run(capsys, "players", "add", "Ann", *db)[0] == 0
    assert run(capsys, "players", "add", "Bea", "--title-form", "queen", *db)[0] == 0
    code, _, err = run(capsys, "players", "add", "ann", *db)
    assert code == 1 and "already exists" in err
    code, out, _ = run(capsys, "players", "show", "Bea", "--json", *db)
    data = json.loads(out)
    assert {k: data[k] for k in ("rank", "peerage", "wins", "streaks", "crashes")} == {
        "rank": "unregistered",
        "peerage": None,
        "wins": 0,
        "streaks": 0,
        "crashes": 0,
    }
    code, out, _ = run(capsys, "players", "list", "--json", *db)
    assert [p["name"] for p in json.loads(out)] == ["Ann", "Bea"]
    code, _, err = run(capsys, "players", "show", "Zed", *db)
    assert code == 1 and "players add Zed" in err


def test_meeting_from_a_results_file_then_show(capsys, db, tmp_path):
    for name in ("Ann", "Bea", "Cid"):
        run(capsys, "players", "add", name, *db)
    results = tmp_path / "games.jsonl"
    results.write_text("\n".join(['{"ranking": ["Bea", "Ann", "Cid"], "crashed": "Cid"}'] * 5) + "\n")
    code, out, _ = run(
        capsys, "meeting", "start", "--players", "Ann,Bea,Cid", "--trial", "half", "--results", str(results), *db
    )
    assert code == 0
    assert "instead of the table" in out and "Bea is registered as Apprentice" in out
    code, out, _ = run(capsys, "meeting", "show", "--json", *db)
    view = json.loads(out)
    assert view["standings"][0]["player"] == "Bea" and view["standings"][2]["crashes"] == 5
    code, out, _ = run(capsys, "meeting", "seats", "--players", "Ann,Bea,Newcomer", *db)
    assert out.splitlines()[0].startswith("1. Newcomer")


def test_a_short_results_file_leaves_the_meeting_open_to_resume(capsys, db, tmp_path):
    for name in ("Ann", "Bea", "Cid"):
        run(capsys, "players", "add", name, *db)
    results = tmp_path / "games.jsonl"
    results.write_text('{"ranking": [1, 2, 3]}\n' * 3)
    code, _, err = run(
        capsys, "meeting", "start", "--players", "Ann,Bea,Cid", "--trial", "half", "--results", str(results), *db
    )
    assert code == 1 and "no more results" in err and "meeting resume 1" in err
    results.write_text('{"ranking": [1, 2, 3]}\n' * 2)
    code, out, _ = run(capsys, "meeting", "resume", "1", "--results", str(results), *db)
    assert code == 0 and "Meeting 1 is over" in out


def test_records_import_reports_bad_lines(capsys, db, tmp_path):
    sheet = tmp_path / "sheet.jsonl"
    sheet.write_text('{"meeting": "M", "kind": "half", "date": "2024-05-01", "results": []}\n')
    code, _, err = run(capsys, "records", "import", str(sheet), *db)
    assert code == 1 and "sheet.jsonl line 1" in err


def test_typed_results_through_a_real_process(tmp_path):
    """The installed command with KIKIMIMI_DATA, the Priest typing each result (one mistake)."""
    env = {**os.environ, "KIKIMIMI_DATA": str(tmp_path / "club")}
    cmd = [sys.executable, "-m", "kikimimi"]
    subprocess.run([*cmd, "players", "add", "Ann"], env=env, check=True, capture_output=True)
    typed = "Ann Bob\n" + "Bob:2 Ann:5 Cid:30!\n" * 5
    done = subprocess.run(
        [*cmd, "meeting", "start", "--players", "Ann,Bob,Cid", "--trial", "half", "--add-new", "--results", "-"],
        env=env,
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "name all 3 players" in done.stdout
    assert (tmp_path / "club" / "records.sqlite").exists()
    shown = subprocess.run([*cmd, "players", "show", "Bob", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(shown.stdout)["wins"] == 5


def test_an_abandoned_meetings_game_is_finished_in_the_journal(tmp_path, monkeypatch, capsys):
    """Issue 21.7: after `meeting abandon`, a casual `play` resumed the meeting's game (competition rules)
    from the journal. The meeting is played on the simulated table in its own process and stopped with
    Ctrl-C (SIGINT) mid-game, as the Priest would."""
    import signal

    from kikimimi.records.ontable import meeting_setup
    from kikimimi.table.journal import Journal

    data = tmp_path / "club"
    monkeypatch.setenv("KIKIMIMI_DATA", str(data))
    monkeypatch.delenv("KIKIMIMI_RECORDS_URL", raising=False)
    env = {**os.environ, "KIKIMIMI_DATA": str(data), "PYTHONUNBUFFERED": "1"}
    table = subprocess.Popen([sys.executable, "-m", "kikimimi", "meeting", "start", "--players", "Ann,Bob,Cid",
                              "--trial", "half", "--add-new"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    journal_path = data / "journal.sqlite"

    def meeting_game() -> str | None:
        """The id of the journal's unfinished game under competition rules (read-only: the table writes it)."""
        import sqlite3

        if not journal_path.exists():
            return None
        try:
            with contextlib.closing(sqlite3.connect(f"{journal_path.as_uri()}?mode=ro", uri=True)) as raw:
                rows = raw.execute("SELECT id, setup FROM games WHERE ended_at IS NULL").fetchall()
        except sqlite3.Error:  # the table is still creating it
            return None
        return next((gid for gid, setup in rows if json.loads(setup).get("rules") == "competition"), None)

    try:
        game = wait_until(meeting_game, 60, "the competition game in the journal", every=0.1,
                          gone=lambda: None if table.poll() is None else f"the table exited: {table.stdout.read()}")
    finally:
        table.send_signal(signal.SIGINT)
        said, _ = table.communicate(timeout=30)
    assert meeting_setup("trident")["rules"] == "competition"
    assert main(["meeting", "abandon", "1"]) == 0
    out = capsys.readouterr().out
    book = Journal(journal_path)
    try:
        assert book.unfinished() is None
        record = book.game(game)
    finally:
        book.close()
    assert record.ended_at is not None and record.outcome is None
    assert game in out and "abandoned" in out


def test_ctrl_c_at_the_result_prompt_says_the_meeting_stays_open(tmp_path):
    """Issue 21.8: Ctrl-C at the typed-result prompt exited without a word; the prompt did not say what
    `:points` and `!` mean (only docs/rules/ranks.md did)."""
    import signal
    import time

    env = {**os.environ, "KIKIMIMI_DATA": str(tmp_path / "club"), "PYTHONUNBUFFERED": "1"}
    env.pop("KIKIMIMI_RECORDS_URL", None)
    typing = subprocess.Popen(
        [sys.executable, "-m", "kikimimi", "meeting", "start", "--players", "Ann,Bob,Cid", "--trial", "half",
         "--add-new", "--results", "-"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert typing.stdin is not None and typing.stdout is not None
    typing.stdin.write("Bob:2 Ann:5 Cid:30!\n")
    typing.stdin.flush()
    shown = ""
    deadline = time.monotonic() + 30
    while shown.count("result, best first") < 2:  # the second game's prompt: the first was recorded
        assert time.monotonic() < deadline and typing.poll() is None, shown
        shown += typing.stdout.read(1)
    typing.send_signal(signal.SIGINT)
    rest, _ = typing.communicate(timeout=30)
    said = shown + rest
    assert typing.returncode == 130, said
    assert "Traceback" not in said
    assert "meeting 1 stays open" in said and "kikimimi meeting resume 1" in said
    assert "NAME:N" in said and "the game's own: points" in said and "NAME!" in said and "crashed" in said
