"""Results from paper score sheets (JSONL): checked whole, then written and settled."""

from __future__ import annotations

import json

import pytest

from kikimimi.games.trident.ladder import Rank
from kikimimi.records.importer import SheetError, import_results
from kikimimi.records.store import RecordStore

PLAYERS = ("Ann", "Bob", "Cid")


def line(meeting: str, kind: str, date: str, order: tuple[str, ...] = PLAYERS, crashed: str | None = None, **extra):
    results = [{"player": p, "place": i, "crashed": p == crashed} for i, p in enumerate(order, start=1)]
    return json.dumps({"meeting": meeting, "kind": kind, "date": date, "results": results, **extra})


@pytest.fixture
def store(records_url):
    with RecordStore(records_url) as s:
        yield s


def write(tmp_path, lines):
    path = tmp_path / "sheets.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_full_and_a_half_trial_import_and_settle(store, tmp_path):
    lines = [line("May A", "full", "2024-05-01") for _ in range(10)]
    lines += [line("May B", "half", "2024-05-08", ("Bob", "Ann", "Cid"), crashed="Cid") for _ in range(5)]
    summary = import_results(store, write(tmp_path, lines))
    assert len(summary.imported) == 2 and summary.new_players == list(PLAYERS)
    assert store.ladder.status("Ann").rank is Rank.BISHOP
    cid = store.ladder.status("Cid")
    assert (cid.rank, cid.crashes) == (Rank.APPRENTICE, 5)
    assert any("Ann is promoted to Bishop" in c for c in summary.changes)


def test_importing_again_skips_what_is_already_there(store, tmp_path):
    path = write(tmp_path, [line("M1", "half", "2024-05-01") for _ in range(5)])
    import_results(store, path)
    again = import_results(store, path)
    assert (again.imported, again.skipped) == ([], ["M1"])
    assert store.ladder.status("Ann").wins == 5


def test_game_numbers_order_the_lines_and_meetings_may_interleave(store, tmp_path):
    lines = [line("M1", "half", "2024-05-01", ("Bob", "Ann", "Cid"), game=5)]
    lines += [line("M2", "contest", "2024-05-02", winner="Cid")]
    lines += [line("M1", "half", "2024-05-01", game=n) for n in range(1, 5)]
    import_results(store, write(tmp_path, lines))
    m1 = store.meetings.by_label("M1")
    assert [g.of("Bob").place for g in store.games.in_meeting(m1.id)] == [2, 2, 2, 2, 1]
    assert store.meetings.by_label("M2").winner == "Cid"


def test_every_problem_is_reported_with_its_line_and_nothing_is_written(store, tmp_path):
    lines = [
        line("M1", "half", "2024-05-01"),
        "{not json",
        line("M1", "full", "2024-05-01"),
        json.dumps(
            {
                "meeting": "M1",
                "kind": "half",
                "date": "2024-05-01",
                "results": [{"player": "Ann", "place": 1}, {"player": "Bob", "place": 1}],
            }
        ),
        line("M1", "half", "yesterday"),
        line("M1", "half", "2024-05-01", crashed="Ann"),
        line("M2", "trial", "2024-05-01"),
    ]
    with pytest.raises(SheetError) as caught:
        import_results(store, write(tmp_path, lines))
    text = str(caught.value)
    for expected in (
        "line 2",
        "line 3: meeting 'M1' was half",
        "line 4",
        "line 5",
        "line 6",
        "line 7",
        "half trial has 5 games, the file has 1",
    ):
        assert expected in text, expected
    assert store.meetings.all() == [] and store.players.all() == []


def test_a_dry_run_writes_nothing(store, tmp_path):
    summary = import_results(store, write(tmp_path, [line("M", "half", "2024-05-01")] * 5), dry_run=True)
    assert summary.new_players == list(PLAYERS)
    assert store.meetings.all() == [] and store.players.all() == []


def test_a_missing_file_says_so(store, tmp_path):
    with pytest.raises(SheetError, match="cannot read"):
        import_results(store, tmp_path / "nope.jsonl")


def test_a_spreadsheets_csv_imports_like_the_jsonl(store, tmp_path):
    """Issue 21.8: results kept in a spreadsheet: its CSV export (here semicolons and a BOM, as a
    spreadsheet in many locales writes it), one row per player per game, in any order."""
    rows = ["meeting;kind;date;game;player;place;points;crashed"]
    for game in range(5, 0, -1):
        rows += [f"June;half;2024-06-02;{game};Ann;1;0;no", f"June;half;2024-06-02;{game};Bob;2;8;",
                 f"June;half;2024-06-02;{game};Cid;3;20;{'yes' if game == 3 else 'no'}"]
    path = tmp_path / "june.csv"
    path.write_text("\ufeff" + "\r\n".join(rows) + "\r\n", encoding="utf-8")
    summary = import_results(store, path)
    assert len(summary.imported) == 1 and summary.new_players == list(PLAYERS)
    meeting = store.meetings.get(summary.imported[0])
    assert (meeting.label, meeting.kind, meeting.status, meeting.games_played) == ("June", "half", "finished", 5)
    games = store.games.in_meeting(meeting.id)
    crashed = [[r.player for r in g.results if r.details.get("crashed")] for g in games]
    won = [[r.player for r in g.results if r.won] for g in games]
    assert crashed == [[], [], ["Cid"], [], []] and won == [["Ann"], ["Ann"], [], ["Ann"], ["Ann"]]  # game 3: a crash
    assert [r.score for r in games[0].results] == [0, 8, 20]


def test_a_csv_with_bad_rows_names_each_and_writes_nothing(store, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("meeting,kind,date,game,player,place\n"
                    "June,half,2024-06-02,1,Ann,1\n"
                    "June,half,2024-06-02,one,Bob,2\n"
                    "June,full,2024-06-02,1,Cid,3\n", encoding="utf-8")
    with pytest.raises(SheetError) as refused:
        import_results(store, path)
    assert "bad.csv line 3: `game`" in str(refused.value)
    assert "bad.csv line 4: kind 'full' differs from line 2's 'half'" in str(refused.value)
    header = tmp_path / "header.csv"
    header.write_text("meeting,kind,player\nJune,half,Ann\n", encoding="utf-8")
    with pytest.raises(SheetError, match="header.csv line 1: .*missing date, game, place"):
        import_results(store, header)
    assert store.meetings.all() == []


def test_standings_export_to_csv_for_a_spreadsheet(store, records_url, tmp_path, capsys):
    import csv

    from kikimimi.app.cli import main
    from kikimimi.records.kinds import ladder
    from kikimimi.records.standings import standings

    lines = [line("May A", "half", "2024-05-01", ("Bob", "Ann", "Cid")) for _ in range(3)]
    lines += [line("May A", "half", "2024-05-01", crashed="Cid") for _ in range(2)]
    meeting = import_results(store, write(tmp_path, lines)).imported[0]
    assert main(["meeting", "show", str(meeting), "--csv", "--db", records_url]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    info = store.meetings.get(meeting)
    expected = standings(store.games.in_meeting(meeting), info.players, ladder(info.game))
    assert [(r["position"], r["player"], r["wins"], r["crashes"]) for r in rows] == \
        [(str(s.position), s.player, str(s.wins), str(s.figures["crashes"])) for s in expected]
    assert rows[0]["player"] == "Bob" and rows[0]["meeting"] == "May A" and rows[0]["title"]
    # A name a spreadsheet would take for a formula is written as text.
    formula = import_results(store, write(tmp_path, [line("May B", "half", "2024-05-08", ("=Eve", "Ann", "Bob"))
                                                     for _ in range(5)])).imported[0]
    assert main(["meeting", "show", str(formula), "--csv", "--db", records_url]) == 0
    assert "'=Eve" in [r["player"] for r in csv.DictReader(capsys.readouterr().out.splitlines())]
