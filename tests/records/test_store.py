"""The SQLite store: migrations, meetings, validation, and ranks derived from what was stored."""

from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy

from kikimimi.games.base import Outcome
from kikimimi.games.trident.ladder import Rank
from kikimimi.records import schema
from kikimimi.records.store import RecordError, RecordStore, default_db_path

SEATS = {1: "Ann", 2: "Bob", 3: "Cid"}


def outcome(*ranking: int, crashed: int | None = None, points: dict[int, int] | None = None) -> Outcome:
    """A Trident outcome as its engine makes it: no one went out when someone crashed."""
    return Outcome(ranking=ranking, winners=() if crashed is not None else ranking[:1], scores=points or {},
                   details={"crashed": crashed, "pieces": {seat: 0 for seat in ranking}})


@pytest.fixture
def store(records_url):
    with RecordStore(records_url) as s:
        for name in SEATS.values():
            s.players.add(name)
        yield s


def play(store: RecordStore, kind: str, games: list[Outcome]) -> int:
    mid = store.meetings.start(kind, list(SEATS.values()))
    for n, o in enumerate(games):
        store.games.record_outcome(mid, SEATS, o, journal_game_id=f"j-{mid}-{n}")
    return mid


def test_migration_from_an_empty_database(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.touch()
    with RecordStore(path) as s:
        assert s.schema_version == schema.LATEST
        assert s.players.all() == []
    with sqlite3.connect(path) as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"players", "meetings", "meeting_players", "meeting_tables", "games", "results"} <= tables
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == schema.LATEST  # what older kikimimis read


def test_a_version_one_database_is_brought_up_to_date_keeping_its_data(tmp_path, legacy_records):
    conn = legacy_records(1)
    conn.execute("INSERT INTO players (name, title_form, created_at) VALUES ('Old', 'queen', '2020-01-01')")
    conn.commit()
    conn.close()
    path = tmp_path / "legacy.sqlite"
    with RecordStore(path) as s:
        assert s.schema_version == schema.LATEST
        assert s.players.get("old").title_form == "queen"
    with sqlite3.connect(path) as raw:
        indexes = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert {"results_by_player", "games_by_journal"} <= indexes
        assert raw.execute("SELECT version_num FROM alembic_version").fetchone()[0] == schema.REVISIONS[-1]


def test_a_newer_database_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "future.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    conn.close()
    with pytest.raises(schema.SchemaError, match="upgrade kikimimi"):
        RecordStore(path)


def test_a_database_at_an_unknown_revision_is_refused(fresh_records_url):
    records_url = fresh_records_url
    with RecordStore(records_url) as s:
        assert s.schema_version == schema.LATEST
    engine = sqlalchemy.create_engine(records_url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    with pytest.raises(schema.SchemaError, match="at schema version 0099, newer than this kikimimi knows"):
        RecordStore(records_url)


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("shopping list\n" * 200)
    with pytest.raises(schema.SchemaError, match="records database"):
        RecordStore(path)


def test_default_path_follows_kikimimi_data(monkeypatch, tmp_path):
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "club"))
    assert default_db_path() == tmp_path / "club" / "records.sqlite"
    monkeypatch.delenv("KIKIMIMI_DATA")
    assert default_db_path().parts[-4:] == (".local", "share", "kikimimi", "records.sqlite")


def test_players_are_unique_ignoring_case_and_spaces(store):
    with pytest.raises(RecordError, match="already exists"):
        store.players.add("  ann ")
    with pytest.raises(RecordError, match="comma"):
        store.players.add("A,B")
    with pytest.raises(RecordError, match="title form"):
        store.players.add("Dee", "empress")
    assert store.players.set_title_form("ann", "queen").title_form == "queen"


def test_a_full_trial_is_recorded_and_settled(store):
    games = [outcome(1, 2, 3)] * 10
    mid = play(store, "full", games)
    assert store.meetings.get(mid).status == "open"
    assert store.ladder.status("Ann").rank is Rank.UNREGISTERED  # nothing counts before the end
    changes = store.meetings.finish(mid)
    assert {(c.player, c.kind) for c in changes} >= {("Ann", "registered"), ("Ann", "promoted")}
    ann = store.ladder.status("Ann")
    assert (ann.rank, ann.wins, ann.streaks, ann.peerage) == (Rank.BISHOP, 10, 9, 2)
    recorded = store.games.in_meeting(mid)
    assert [g.number for g in recorded] == list(range(1, 11))
    assert recorded[0].journal_game_id == f"j-{mid}-0"
    assert recorded[0].of("Cid").place == 3


def test_crashes_and_points_are_kept(store):
    mid = play(store, "half", [outcome(2, 1, 3, crashed=3, points={1: 7, 2: 0, 3: 42})] * 5)
    store.meetings.finish(mid)
    cid = store.games.in_meeting(mid)[0].of("Cid")
    assert (cid.details, cid.score, cid.seat) == ({"crashed": True, "pieces": 0}, 42, 3)
    assert store.games.in_meeting(mid)[0].of("Ann").details == {"pieces": 0}  # only the seat that crashed
    assert store.ladder.status("Cid").crashes == 5


def test_a_trial_cannot_finish_early_or_take_an_extra_game(store):
    mid = play(store, "half", [outcome(1, 2, 3)] * 4)
    with pytest.raises(RecordError, match="not complete"):
        store.meetings.finish(mid)
    store.games.record_outcome(mid, SEATS, outcome(1, 2, 3))
    with pytest.raises(RecordError, match="has all its games"):
        store.games.record_outcome(mid, SEATS, outcome(1, 2, 3))
    store.meetings.finish(mid)
    with pytest.raises(RecordError, match="finished"):
        store.games.record_outcome(mid, SEATS, outcome(1, 2, 3))


def test_an_abandoned_meeting_never_counts(store):
    mid = play(store, "full", [outcome(1, 2, 3)] * 7)
    store.meetings.abandon(mid)
    assert store.ladder.status("Ann").rank is Rank.UNREGISTERED
    assert len(store.games.in_meeting(mid)) == 7


@pytest.mark.parametrize(
    ("seats", "result", "message"),
    [
        ({1: "Ann", 2: "Bob", 3: "Dee"}, outcome(1, 2, 3), "not the meeting's players"),
        (SEATS, outcome(1, 2), "exactly once"),
        (SEATS, outcome(1, 2, 3, crashed=1), "crash is last place"),
        (SEATS, outcome(1, 1, 3), "exactly once"),
    ],
)
def test_bad_outcomes_are_refused_and_nothing_is_written(store, seats, result, message):
    store.players.add("Dee")
    mid = store.meetings.start("full", list(SEATS.values()))
    with pytest.raises(RecordError, match=message):
        store.games.record_outcome(mid, seats, result)
    assert store.games.in_meeting(mid) == []


def test_unknown_players_are_named_or_added_on_request(store):
    with pytest.raises(RecordError, match="players add"):
        store.meetings.start("full", ["Ann", "Bob", "Zed"])
    store.meetings.start("full", ["Ann", "Bob", "Zed"], add_unknown=True)
    assert store.players.find("zed") is not None


def test_contest_winner_from_standings_or_named(store):
    mid = play(store, "contest", [outcome(2, 1, 3), outcome(2, 3, 1)])
    changes = store.meetings.finish(mid)
    assert store.meetings.get(mid).winner == "Bob"
    assert [(c.kind, c.after) for c in changes if c.player == "Bob"] == [
        ("peerage", "Baron"),
        ("registered", "Apprentice"),
    ]
    tie = play(store, "contest", [outcome(1, 2, 3), outcome(2, 1, 3)])
    with pytest.raises(RecordError, match="name the winner"):
        store.meetings.finish(tie)
    store.meetings.finish(tie, contest_winner="Ann")
    assert store.ladder.status("Ann").peerage == 1
    assert store.ladder.status("Ann").wins == 0  # contest games are not official wins


def test_changes_of_a_meeting_are_derived_again_later(store):
    mid = play(store, "full", [outcome(1, 2, 3)] * 10)
    settled = store.meetings.finish(mid)
    assert store.ladder.changes(mid) == settled


def test_meetings_count_in_the_order_held_not_entered(store):
    """A sheet entered late (held earlier) changes where the rank was first reached."""
    late = store.meetings.start("half", list(SEATS.values()), held_at="2024-06-01T10:00:00+00:00")
    early = store.meetings.start("half", list(SEATS.values()), held_at="2024-05-01T10:00:00+00:00")
    for mid in (late, early):
        for _ in range(5):
            store.games.record_outcome(mid, SEATS, outcome(1, 2, 3))
        store.meetings.finish(mid)
    assert store.ladder.status("Ann").rank_since_meeting == late  # Bishop after the second one held
    assert [m.id for m in store.meetings.all()] == [early, late]


def test_the_current_meeting_is_the_open_one(store):
    done = play(store, "half", [outcome(1, 2, 3)] * 5)
    store.meetings.finish(done)
    assert store.meetings.current() is None
    now = store.meetings.start("full", list(SEATS.values()))
    assert store.meetings.current().id == now


def test_a_journal_game_recorded_twice_is_one_game(store):
    """A restarted controller replaying its journal may report a finished game again."""
    mid = store.meetings.start("half", list(SEATS.values()))
    store.games.record_outcome(mid, SEATS, outcome(1, 2, 3), journal_game_id="g-1")
    store.games.record_outcome(mid, SEATS, outcome(1, 2, 3), journal_game_id="g-1")
    store.games.record_outcome(mid, SEATS, outcome(2, 1, 3), journal_game_id="g-2")
    assert [(g.number, g.journal_game_id) for g in store.games.in_meeting(mid)] == [(1, "g-1"), (2, "g-2")]


def test_a_fullwidth_name_is_the_same_player(store):
    """Issue 21.5: "ＡＮＮ" (fullwidth) beside "Ann" was a second player: names are compared NFKC-folded."""
    with pytest.raises(RecordError, match="already exists"):
        store.players.add("ＡＮＮ")
    assert store.players.find("ＡＮＮ").name == "Ann" and store.players.find("ｂｏｂ").name == "Bob"
    mid = store.meetings.start("half", ["ＡＮＮ", "Bob", "Cid"], add_unknown=True)
    assert store.meetings.get(mid).players == ("Ann", "Bob", "Cid") and len(store.players.all()) == 3
    store.games.record_outcome(mid, {1: "ＡＮＮ", 2: "Bob", 3: "Cid"}, outcome(1, 2, 3), journal_game_id="fw-1")
    assert [r.player for r in store.games.in_meeting(mid)[0].results] == ["Ann", "Bob", "Cid"]
    with pytest.raises(RecordError, match="listed twice"):
        store.meetings.start("half", ["Ann", "ＡＮＮ", "Cid"])


@pytest.mark.parametrize("mark", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u061c", "\u2028"])
def test_a_name_holding_a_bidi_control_is_refused(store, mark):
    """Issue 21.5: "\u202eevil.exe\u202c gpj" was taken and read reversed on the TV."""
    with pytest.raises(RecordError, match=f"U\\+{ord(mark):04X}"):
        store.players.add(f"{mark}evil.exe gpj")
