"""Royal Nine's view model (what both consoles draw): both grids, the totals; the common card only when
revealed or once opened (it was drawn "[?]" even after it was opened)."""

from __future__ import annotations

from royal_nine_table import W2, W3, Table

from kikimimi.games.registry import get_info
from kikimimi.games.tableview import table_model

INFO = get_info("royal-nine")


def drawn(t: Table, *, reveal: bool, players=None) -> str:
    """The model's words as the tablet gets them (items with their parameters), hands included."""
    model = table_model(INFO.model_function(), t.report(), INFO.game.observe(t.state, None), reveal=reveal,
                        players=players, seats=2)
    return repr(model)


def test_the_common_card_shows_only_with_reveal_until_opened():
    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    hidden = drawn(t, reveal=False)
    shown = drawn(t, reveal=True)
    assert "red-5" not in hidden and "[?]" in hidden
    assert "[red-5]" in shown
    assert "red-1" in hidden and "blue-9" in hidden  # the open grids
    t.field("ctl-open")
    opened = drawn(t, reveal=False, players={1: "Aiko"})
    assert "[red-5]" in opened and "[?]" not in opened and "Aiko" in opened


def test_an_empty_table_and_a_card_in_hand():
    t = Table()
    assert "'model.round', {'round': 1}" in drawn(t, reveal=False)
    t.field("blue-3")
    t.hand(1, "red-7")
    assert "red-7" not in drawn(t, reveal=False) and "red-7" in drawn(t, reveal=True)
