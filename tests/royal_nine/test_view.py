"""The console panel: both grids, hands, scores; the common card only when revealed or opened."""

from __future__ import annotations

from royal_nine_table import W2, W3, Table

from kikimimi.games.royal_nine.view import state_text


def test_the_common_card_shows_only_with_reveal_until_opened():
    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    hidden = state_text(t.report(), reveal=False).plain
    shown = state_text(t.report(), reveal=True).plain
    assert "red-5" not in hidden and "R5" not in hidden and "face down" in hidden
    assert "red-5" in shown and "[R5]" in shown
    assert "R1" in hidden and "B9" in hidden  # the open grids
    t.field("ctl-open")
    opened = state_text(t.report(), reveal=False, players={1: "Aiko"}).plain
    assert "red-5" in opened and "28" in opened and "Aiko" in opened and "royal nine" in opened


def test_hands_and_an_empty_table():
    t = Table()
    text = state_text(t.report(), reveal=False).plain
    assert "not laid" in text and "Round 1" in text
    t.field("blue-3")
    t.hand(1, "red-7")
    assert "R7" in state_text(t.report(), reveal=False).plain
