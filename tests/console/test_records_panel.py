"""The console's meeting panel reads the records wherever they are (a file or a PostgreSQL URL, through
$KIKIMIMI_RECORDS_URL as every records command) and shows a meeting over several tables by its tables."""

from __future__ import annotations

from rich.console import Console

from kikimimi.console.records import read_meeting
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
    assert "127.0.0.1:1" in panel.note and "secret" not in panel.note
