"""Suhjong's view model (what both consoles draw): rivers, the pile, whose turn, the totals and the end;
the hands only with the hands revealed."""

from __future__ import annotations

from suhjong_table import Table

from kikimimi.games.registry import get_info
from kikimimi.games.tableview import table_model

INFO = get_info("suhjong")


def drawn(t: Table, *, reveal: bool, players=None) -> str:
    return repr(table_model(INFO.model_function(), t.report(), INFO.game.observe(t.state, None), reveal=reveal,
                            players=players, seats=2))


def test_view_shows_rivers_counts_the_turn_and_scores():
    t = Table()
    t.deal("98641", "22337")
    t.discard(1, "1")
    text = drawn(t, reveal=False)
    assert "'basket': 40" in text and "model.suhjong.river" in text
    assert "'seat': 2, 'name': None, 'count': 5, 'hand': None" in text and "'turn': True" in text
    assert "digit-9-1" not in text  # a hand only when revealed
    shown = drawn(t, reveal=True, players={1: "Aki"})
    assert "digit-9-1" in shown and "Aki" in shown
    t.draw(1, "0")
    t.discard(2, "2")
    t.draw(2, "2")
    t.tap("hand:1", "ctl-showdown")
    t.discard(1, "0")
    t.pickup(1, "2")
    t.discard(2, "7")
    t.draw(2, "7")
    t.write(1, "48*")
    t.write(1, "2=96")
    t.tap("hand:1", "ctl-declare")
    t.tap("hand:2", "ctl-norole")
    text = drawn(t, reveal=False)
    assert "'score': 96" in text
