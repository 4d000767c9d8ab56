"""`kikimimi play --web` without --quiet: the Priest's terminal shows the table's own log, not the records
library's migration notes (alembic's INFO lines "Context impl SQLiteImpl." and "Will assume transactional
DDL." were printed each time the web console read the records)."""

from __future__ import annotations

import time

from web_helpers import WebTable, answers

from kikimimi.records.location import records_target
from kikimimi.records.store import RecordStore


def test_play_web_prints_no_alembic_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "t" / "data"))
    with RecordStore(records_target()) as store:  # a records file with a meeting: the console reads it
        store.meetings.start("half", ["Ann", "Bo", "Cy"], add_unknown=True)
    table = WebTable(tmp_path / "t", quiet=False)
    try:
        assert answers(table.port)
        time.sleep(0.5)  # the console reads the records as it starts serving
    finally:
        assert table.stop() == 0
    shown = (table.folder / "play.stdout").read_text(errors="replace") + table.table.stderr()
    assert "ready" in shown.lower() or shown.strip(), "the table's own log is still printed"
    assert "alembic" not in shown and "Context impl" not in shown and "transactional DDL" not in shown, shown
