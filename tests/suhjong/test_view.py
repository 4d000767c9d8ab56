from __future__ import annotations

from suhjong_table import Table

from kikimimi.games.suhjong.view import state_text


def test_view_shows_hands_rivers_counts_the_declaration_and_scores():
    t = Table()
    t.deal("98641", "22337")
    t.discard(1, "1")
    text = state_text(t.report(), reveal=False).plain
    assert "9 8 6 4" in text or "4 6 8 9" in text
    assert "river 1" in text and "Pile 40" in text and "sea 0" in text and "to move seat 1" in text
    t.draw(1, "0")
    t.discard(2, "2")
    t.draw(2, "2")
    t.tap("hand:1", "ctl-showdown")
    t.discard(1, "0")
    t.pickup(1, "2")
    t.discard(2, "7")
    t.draw(2, "7")
    t.write(1, "48*")
    text = state_text(t.report(), reveal=True, players={1: "Aki"}).plain
    assert "Seat 1 declaring: 48*" in text and "SHOWDOWN" in text and "Aki" in text
    t.write(1, "2=96")
    t.tap("hand:1", "ctl-declare")
    t.tap("hand:2", "ctl-norole")
    text = state_text(t.report(), reveal=False).plain
    assert "48*2=96  96 points" in text and "seat 1 wins" in text and "total 96" in text
