"""Issue 31, item 6: a results file is imported in one transaction (all or nothing, every refusal named by its
line), read as a stream with a line-length limit, and a figure past any game's is refused, not a traceback."""

from __future__ import annotations

import json

from kikimimi.app.cli import main
from kikimimi.records.store import RecordStore


def _line(meeting: str, game: int, order: list[str], **more) -> str:
    results = [{"player": p, "place": n} for n, p in enumerate(order, start=1)]
    return json.dumps({"meeting": meeting, "kind": "contest", "date": "2024-05-12", "game": game,
                       "results": results, **more}) + "\n"


def _import(tmp_path, capsys, name: str, text: str) -> tuple[int, str]:
    sheet = tmp_path / name
    sheet.write_text(text)
    code = main(["records", "import", str(sheet), "--db", str(tmp_path / "records.sqlite")])
    return code, capsys.readouterr().err


def _meetings(tmp_path) -> list[str]:
    if not (tmp_path / "records.sqlite").exists():
        return []
    with RecordStore(tmp_path / "records.sqlite") as store:
        return [m.label or "" for m in store.meetings.all()]


def test_a_meeting_refused_when_written_leaves_nothing_of_the_file(tmp_path, capsys):
    good = _line("first", 1, ["Ann", "Bob", "Cid"])
    # A contest whose two games leave Ann and Bob level at the top: refused only when it is settled.
    level = _line("second", 1, ["Ann", "Bob", "Cid"]) + _line("second", 2, ["Bob", "Ann", "Cid"])
    also = _line("third", 1, ["Dan", "Eve", "Fay"]) + _line("third", 2, ["Eve", "Dan", "Fay"])
    code, err = _import(tmp_path, capsys, "r.jsonl", good + level + also)
    assert code == 1 and "Traceback" not in err
    assert "line 2: meeting 'second'" in err and "line 4: meeting 'third'" in err  # every refusal, by line
    assert "nothing was imported" in err
    assert _meetings(tmp_path) == []
    with RecordStore(tmp_path / "records.sqlite") as store:
        assert store.players.all() == []  # nor the players the file named


def test_jo_and_jo_in_one_game_are_refused_before_anything_is_written(tmp_path, capsys):
    code, err = _import(tmp_path, capsys, "r.jsonl", _line("first", 1, ["Ann", "Bob", "Cid"])
                        + _line("second", 1, ["jo", "Jo", "Cid"]))
    assert code == 1 and "line 2" in err and "listed twice" in err and "Traceback" not in err
    assert _meetings(tmp_path) == []


def test_a_score_past_any_games_is_refused_by_line(tmp_path, capsys):
    line = json.loads(_line("big", 1, ["Ann", "Bob", "Cid"]))
    line["results"][0]["score"] = 10**30
    code, err = _import(tmp_path, capsys, "r.jsonl", json.dumps(line) + "\n")
    assert code == 1 and "line 1" in err and "`score` must be a whole number from" in err and "Traceback" not in err
    assert _meetings(tmp_path) == []


def test_a_20_mb_line_is_one_clear_line_in_a_csv_and_a_jsonl(tmp_path, capsys):
    header = "meeting,kind,date,game,player,place\n"
    for name, text in (("r.csv", header + "x" * 20_000_000 + "\n"), ("r.jsonl", "[" + " " * 20_000_000 + "]\n")):
        code, err = _import(tmp_path, capsys, name, text)
        assert code == 1 and "Traceback" not in err, err[-300:]
        assert f"{name} line 2" in err or f"{name} line 1" in err
        assert "longer than" in err
    assert _meetings(tmp_path) == []
