"""The console's meeting panel reads the records wherever they are (a file or a PostgreSQL URL, through
$KIKIMIMI_RECORDS_URL as every records command) and shows a meeting over several tables by its tables."""

from __future__ import annotations

import re

from rich.console import Console

from kikimimi.console.records import read_meeting
from kikimimi.console.words import words
from kikimimi.records.store import URL_ENV, RecordStore

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def _text(panel) -> str:
    console = Console(width=160, record=True)
    console.print(panel.renderable())
    return console.export_text()


def test_the_panel_reads_the_records_named_by_the_environment(records_url, monkeypatch):
    with RecordStore(records_url) as store:
        store.meetings.start("half", PLAYERS[:3], add_unknown=True)
    monkeypatch.setenv(URL_ENV, records_url)
    panel = read_meeting()
    assert panel.open, panel.note
    seats, _titles = panel.seats()
    assert seats == {1: "Ann", 2: "Bo", 3: "Cy"}


def test_a_meeting_over_two_tables_shows_its_tables_not_one_seat_order(records_url):
    with RecordStore(records_url) as store:
        meeting = store.meetings.start("half", PLAYERS, add_unknown=True, tables=2)
        tables = store.tables.all(meeting)
    panel = read_meeting(records_url)
    assert panel.open and panel.seats() == ({}, {})
    text = _text(panel)
    for table in tables:
        # every table's players are listed under it, not as seats 1..6 of one table
        assert all(name in text for name in table.players)
    assert "Seat 4" not in text


def test_an_unreachable_server_is_a_note_not_a_crash():
    panel = read_meeting("postgresql://kikimimi:secret@127.0.0.1:1/records")
    assert panel.error and panel.view is None
    assert "127.0.0.1:1" in panel.shown_where() and "secret" not in panel.shown_where()
    assert "secret" not in _text(panel) and "Cannot read the records" in _text(panel)


def _shown(panel, lang: str) -> str:
    console = Console(width=160, record=True)
    console.print(panel.renderable(words(lang)))
    return console.export_text()


def test_the_meeting_is_shown_in_the_tables_language(tmp_path):
    """A finished-game-free open meeting and a closed one, over one table and over two: in Japanese no Latin
    letter but the players' names; in English the same figures (issue 32: the Meeting tab in the table's
    language)."""
    path = tmp_path / "records.sqlite"
    with RecordStore(path) as store:
        store.meetings.start("full", PLAYERS[:3], add_unknown=True)
    japanese = _shown(read_meeting(path), "ja")
    assert "大会" in japanese and "開催中" in japanese and "未登録" in japanese, japanese
    assert re.findall(r"[A-Za-z]+", japanese.replace("Ann", "").replace("Bo", "").replace("Cy", "")) == []
    english = _shown(read_meeting(path), "en")
    assert "Meeting" in english and "Unregistered" in english and "Seat 1: Ann" in english
    with RecordStore(path) as store:
        store.meetings.abandon(store.meetings.current().id)
        store.meetings.start("half", PLAYERS, add_unknown=True, tables=2)
    japanese = _shown(read_meeting(path), "ja")
    assert "2卓" in japanese and "未参加" in japanese, japanese
    assert re.findall(r"[A-Za-z]+", re.sub("|".join(PLAYERS), "", japanese)) == []
    missing = read_meeting(tmp_path / "none.sqlite")
    assert _shown(missing, "ja").startswith("記録はまだありません") and "none.sqlite" in missing.shown_where()
