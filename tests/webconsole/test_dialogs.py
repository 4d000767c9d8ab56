"""Dialogs that name the table's state are checked against every snapshot, in Chromium on a real table:
a second tablet's undo question closes when the first tablet's undo moved the table on, and nothing is
sent from it; the page shows each answer."""

from __future__ import annotations

from web_helpers import WebTable, logged_in, until


def test_an_open_undo_question_closes_when_the_table_moves_on(browser, tmp_path):
    table = WebTable(tmp_path / "t")
    try:
        first, second = logged_in(browser, table), logged_in(browser, table, "phone")
        for tag in ("heart-1", "heart-2"):
            first.evaluate("(tag) => fetch('/api/act', {method: 'POST', headers: {'Content-Type': "
                           "'application/json'}, body: JSON.stringify({do: 'tap_for', reader: 'hand:1', tag})})", tag)
        second.wait_for_function("document.body.dataset.events === '2'")
        second.tap("#b-undo")  # the second tablet's question is open ...
        assert second.is_visible("#dialog")
        first.tap("#b-undo")  # ... while the first tablet undoes
        first.tap("#dialog-buttons button.danger")
        first.wait_for_function("document.body.dataset.answer === 'done'")
        second.wait_for_function("!document.getElementById('dialog').open")  # closed by the next snapshot
        assert "The table moved on" in second.inner_text("#toast")
        undos = [e for e in table.events() if e.get("referee") == "undo"]
        assert undos == [{"referee": "undo", "at": 2}]
        # Only heart-1 is left: the second tablet's next question names it, and its undo is taken.
        second.tap("#b-undo")
        second.tap("#dialog-buttons button.danger")
        until(lambda: [e for e in table.events() if e.get("referee") == "undo"][-1] == {"referee": "undo", "at": 1},
              "the second undo")
        assert first.errors == [] and second.errors == []
    finally:
        assert table.stop() == 0
