"""Records keep every game's results; ranks stay the ladder game's, from its own results only.

A stand-in game ("cards", 2-10 seats, shared wins, scores, no crash, no ladder) is registered for
each test only, so that these tests need no other game's package and leave the registry as it was.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from rich.console import Console

from kikimimi.app.cli import main
from kikimimi.games import registry
from kikimimi.games.base import GameEngine, Outcome
from kikimimi.games.registry import DEFAULT_GAME, GameInfo
from kikimimi.games.trident.ladder import LADDER, Rank
from kikimimi.records import schema
from kikimimi.records.importer import SheetError, import_results
from kikimimi.records.meeting import run_meeting
from kikimimi.records.ontable import meeting_setup, report_phrases
from kikimimi.records.results import PlayerResult, ResultError, check_results
from kikimimi.records.store import RecordError, RecordStore
from kikimimi.records.view import meeting_view, players_table, standings_table

TRIO = {1: "Ann", 2: "Bob", 3: "Cid"}
FOUR = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dee"}
CARDS = GameInfo(id="cards", titles={"en": "Cards"}, seats=(2, 10), game_class=lambda: GameEngine, pieces=("c1",))


@pytest.fixture(autouse=True)
def cards(monkeypatch):
    registry.games()  # discover the real games first, so that discovery does not run again later
    monkeypatch.setitem(registry._REGISTRY, "cards", CARDS)


@pytest.fixture
def store(records_url):
    with RecordStore(records_url) as s:
        for name in FOUR.values():
            s.players.add(name)
        yield s


def shared(winners=(1, 3), ranking=(1, 3, 2, 4)) -> Outcome:
    """Four seats, two sharing the win on the lowest score, a game-level and a per-seat detail."""
    return Outcome(ranking=ranking, winners=winners, scores={1: 4, 3: 4, 2: 9, 4: 17}, reason="target",
                   details={"rounds": 3, "taken": {1: 2, 2: 5, 3: 2, 4: 8}})


def trident(*ranking: int) -> Outcome:
    return Outcome(ranking=ranking, winners=ranking[:1], scores={}, details={"crashed": None, "pieces": {}})


def test_a_shared_win_of_another_game_is_recorded_and_read_back(store):
    mid = store.meetings.start("contest", list(FOUR.values()), game="cards")
    store.games.record_outcome(mid, FOUR, shared(), journal_game_id="j-1")
    assert store.meetings.get(mid).game == "cards"
    (game,) = store.games.in_meeting(mid)
    assert (game.game, game.reason, dict(game.details)) == ("cards", "target", {"rounds": 3})
    assert game.winners == ("Ann", "Cid")
    got = {r.player: (r.place, r.won, r.score, dict(r.details)) for r in game.results}
    assert got == {
        "Ann": (1, True, 4, {"taken": 2}),
        "Cid": (2, True, 4, {"taken": 2}),
        "Bob": (3, False, 9, {"taken": 5}),
        "Dee": (4, False, 17, {"taken": 8}),
    }
    view = meeting_view(store, mid)
    assert view.statuses == {}  # no ladder: no titles
    assert [(s.player, s.position, s.wins) for s in view.standings] == [
        ("Ann", 1, 1), ("Cid", 1, 1), ("Bob", 3, 0), ("Dee", 4, 0)]
    assert view.as_dict()["meeting"]["game"] == "cards"
    Console(file=None, record=True).print(standings_table(view))
    store.meetings.finish(mid, contest_winner="Cid")
    assert store.ladder.changes(mid) == []


def test_results_of_other_games_never_change_a_rank(store):
    half = store.meetings.start("half", list(TRIO.values()))
    for _ in range(5):
        store.games.record_outcome(half, TRIO, trident(1, 2, 3))
    store.meetings.finish(half)
    before = {n: store.ladder.status(n) for n in FOUR.values()}
    # Bob and Dee win everything at another game: a full trial, then a contest Bob wins.
    full = store.meetings.start("full", list(FOUR.values()), game="cards")
    for _ in range(10):
        store.games.record_outcome(full, FOUR, shared(winners=(2, 4), ranking=(2, 4, 1, 3)))
    assert store.meetings.finish(full) == []
    contest = store.meetings.start("contest", list(FOUR.values()), game="cards")
    store.games.record_outcome(contest, FOUR, shared(winners=(2,), ranking=(2, 1, 3, 4)))
    assert store.meetings.finish(contest) == []
    assert store.meetings.get(contest).winner == "Bob"
    after = {n: store.ladder.status(n) for n in FOUR.values()}
    assert after == before
    assert after["Dee"].rank is Rank.UNREGISTERED and after["Bob"].peerage == 0
    assert store.games.played("Bob") == {"cards": (11, 11), DEFAULT_GAME: (5, 0)}
    with pytest.raises(RecordError, match="keeps no ranks"):
        store.ladder.status("Bob", "cards")


def test_a_meeting_of_another_game_is_played_and_announced_without_ranks(store):
    said: list[str] = []
    report = run_meeting(store, "contest", list(FOUR.values()), lambda seats: shared(), game="cards", games=2,
                         contest_winner="Ann", say=said.append)
    assert (report.game, report.changes, report.statuses) == ("cards", [], [])
    assert "Game 1: Ann and Cid share the win." in said and "No rank or peerage changed." not in said
    keys = [say.key for say in report_phrases(report)]
    assert keys == ["meeting.over"] + ["meeting.standing"] * 4
    assert meeting_setup("cards") == {"game": "cards"}
    assert meeting_setup(DEFAULT_GAME) == {"game": DEFAULT_GAME, "first": 1, "rules": "competition"}


def test_seat_counts_and_games_are_checked(store):
    with pytest.raises(RecordError, match="played by 3 players, not 4"):
        store.meetings.start("half", list(FOUR.values()))
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        store.meetings.start("half", list(TRIO.values()), game="chess")


@pytest.mark.parametrize(
    ("won", "message"),
    [((False, True, False), "winners hold places \\[2\\]"), ((True, False, True), "winners hold places \\[1, 3\\]")],
)
def test_winners_are_the_best_places(won, message):
    results = [PlayerResult(n, p, won=w) for (p, n), w in zip(enumerate(("A", "B", "C"), 1), won, strict=True)]
    with pytest.raises(ResultError, match=message):
        check_results(results)
    check_results([PlayerResult("A", 1, won=True), PlayerResult("B", 2, won=True), PlayerResult("C", 3)])
    check_results([PlayerResult("A", 1), PlayerResult("B", 2), PlayerResult("C", 3, details={"crashed": True})],
                  rules=LADDER)


def test_a_version_two_database_with_trident_results_comes_up_to_date(tmp_path, legacy_records):
    path = tmp_path / "legacy.sqlite"
    conn = legacy_records(2)
    conn.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, '2024-01-01')",
                     [(1, "Ann"), (2, "Bob"), (3, "Cid")])
    conn.execute("INSERT INTO meetings (id, kind, held_at) VALUES (1, 'half', '2024-05-01T10:00:00+00:00')")
    conn.executemany("INSERT INTO meeting_players VALUES (1, ?, ?)", [(1, 0), (2, 1), (3, 2)])
    for number in range(1, 6):
        conn.execute("INSERT INTO games (id, meeting_id, number, recorded_at) VALUES (?, 1, ?, 'x')", (number, number))
        crash = number == 5  # the last game ended by Cid's crash: nobody went out
        conn.executemany(
            "INSERT INTO results (game_id, player_id, seat, place, crashed, pieces, points)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(number, 1, 1, 1, 0, 0, 0), (number, 2, 2, 2, 0, 3, 12), (number, 3, 3, 3, int(crash), 9, 40)],
        )
    conn.commit()
    conn.close()
    with RecordStore(path) as old:
        old.meetings.finish(1)  # an open v2 meeting is settled after the upgrade
    with RecordStore(path) as s:
        assert s.schema_version == schema.LATEST
        assert s.meetings.get(1).game == DEFAULT_GAME
        games = s.games.in_meeting(1)
        assert {g.game for g in games} == {DEFAULT_GAME}
        bob = games[0].of("Bob")
        assert (bob.score, dict(bob.details), bob.won) == (12, {"pieces": 3}, False)
        assert [g.of("Ann").won for g in games] == [True] * 4 + [False]
        assert games[4].of("Cid").details == {"crashed": True, "pieces": 9}
        ann = s.ladder.status("Ann")
        assert (ann.rank, ann.wins) == (Rank.APPRENTICE, 5)  # a 1st place is a Trident win, crash or not
        assert s.ladder.status("Cid").crashes == 1
    with sqlite3.connect(path) as raw:
        indexes = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert {"games_by_game", "meetings_by_game", "results_by_player"} <= indexes


def test_a_failed_migration_step_leaves_the_database_at_its_version(tmp_path, legacy_records):
    """v4 refuses a journal game recorded twice (the old store's check-then-insert could race): the
    whole step is undone, the file stays at v3 with every row, and the message says what to fix."""
    path = tmp_path / "legacy.sqlite"
    conn = legacy_records(3)
    conn.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, 'x')", [(1, "A"), (2, "B")])
    conn.execute("INSERT INTO meetings (id, kind, held_at, game) VALUES (1, 'contest', 'x', 'trident')")
    conn.executemany("INSERT INTO games (id, meeting_id, number, journal_game_id, recorded_at)"
                     " VALUES (?, 1, ?, 'j', 'x')", [(1, 1), (2, 2)])
    conn.commit()
    conn.close()
    with pytest.raises(schema.SchemaError, match="version 4 failed: .*meeting 1 journal game 'j' 2 times"):
        RecordStore(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 3
        assert raw.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0003"
        assert "tables" not in {row[1] for row in raw.execute("PRAGMA table_info(meetings)")}
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2


# -- names are data -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Ann\x1b[31m", "Bo\tb", "Cid\n", "Dee\x00"])
def test_names_with_control_characters_are_refused(tmp_path, name):
    with RecordStore(tmp_path / "r.sqlite") as s, pytest.raises(RecordError, match="control character"):
        s.players.add(name)


def test_players_add_and_import_refuse_control_characters(tmp_path, capsys):
    db = ["--db", str(tmp_path / "r.sqlite")]
    assert main(["players", "add", "Ann\x07", *db]) == 1
    assert "control character (U+0007)" in capsys.readouterr().err
    sheet = tmp_path / "sheet.jsonl"
    results = [{"player": "Ann", "place": 1}, {"player": "B\u0085ob", "place": 2}, {"player": "Cid", "place": 3}]
    sheet.write_text(json.dumps({"meeting": "M", "kind": "contest", "date": "2024-05-01", "results": results}) + "\n")
    with RecordStore(tmp_path / "r.sqlite") as s, pytest.raises(SheetError, match="line 1: .*control character"):
        import_results(s, sheet)


def test_names_holding_markup_are_printed_as_they_are(store, capsys, records_url):
    odd = ["[/]", "[bold]Zo", "Ul [/red]"]
    for name in odd:
        store.players.add(name)
    mid = store.meetings.start("contest", odd, game="cards")
    store.games.record_outcome(mid, dict(enumerate(odd, 1)), Outcome(ranking=(1, 2, 3), winners=(1,)))
    console = Console(record=True, width=200)
    console.print(standings_table(meeting_view(store, mid)))
    console.print(players_table([store.ladder.status(n) for n in odd]))
    text = console.export_text()
    assert all(name in text for name in odd)
    db = ["--db", records_url]
    assert main(["meeting", "show", str(mid), *db]) == 0
    assert main(["players", "list", *db]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in odd)


def test_another_game_through_the_cli_from_a_results_file(tmp_path, capsys):
    db = ["--db", str(tmp_path / "r.sqlite")]
    results = tmp_path / "games.jsonl"
    results.write_text('{"ranking": ["Bob", "Dee", "Ann", "Cid"], "winners": ["Bob", "Dee"], '
                       '"scores": {"Bob": 3, "Dee": 3, "Ann": 8, "Cid": 11}}\n' * 2)
    code = main(["meeting", "start", "--game", "cards", "--players", "Ann,Bob,Cid,Dee", "--trial", "contest",
                 "--games", "2", "--winner", "Dee", "--results", str(results), "--add-new", *db])
    assert code == 0
    out = capsys.readouterr().out
    assert "Game 2: Bob and Dee share the win." in out
    assert main(["meeting", "show", "--json", *db]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["meeting"]["game"] == "cards" and view["meeting"]["winner"] == "Dee"
    assert [(s["player"], s["wins"], s["score"]) for s in view["standings"][:2]] == [("Bob", 2, 6), ("Dee", 2, 6)]
    assert "title" not in view["standings"][0]
    assert main(["meeting", "seats", "--game", "cards", "--players", "Ann,Bob", *db]) == 0
    assert "keeps no ranks" in capsys.readouterr().out
