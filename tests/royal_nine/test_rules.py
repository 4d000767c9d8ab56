"""One test (or a few) per section of the contract, spec/royal-nine-rules.md."""

from __future__ import annotations

import json

import pytest
from royal_nine_table import W1, W1_OTHER, W2, W3, Table

from kikimimi.games.base import SPEAKER, GameOver, Say, Scan
from kikimimi.games.phrasebook import parts_of
from kikimimi.games.registry import SetupError, get_info
from kikimimi.games.royal_nine.scoring import grid_roles, grid_score, line_role
from kikimimi.games.royal_nine.solver import best_cell

FIRST_HALF = {1: ["red-1", "red-2", "red-3", "red-4"], 2: ["blue-1", "blue-2", "blue-3", "blue-4"]}


def dealt_table(**setup) -> Table:
    t = Table(**setup)
    t.field("red-9")
    t.deal(FIRST_HALF)
    return t


# -- the table and the pieces; set-up --------------------------------------------------------------


def test_setup_defaults_and_checks():
    info = get_info("royal-nine")
    assert info.parse_setup({"game": "royal-nine"}) == {"first": 1, "tens": False, "rounds": 5}
    assert info.seats == (2, 2)
    assert set(info.readers()) == {"field", "hand:1", "hand:2"}
    for bad in ({"first": 3}, {"tens": 1}, {"rounds": 0}, {"rounds": True}, {"colour": "red"}):
        with pytest.raises(SetupError):
            info.parse_setup(bad)
    assert len(info.pieces) == 20 and "red-10" in info.pieces and "blue-1" in info.pieces
    assert {"cell-1", "cell-9", "ctl-open", "ctl-next", "ctl-grid", "ctl-hint"} <= set(info.controls)


# -- a round: common, deals, placements --------------------------------------------------------------


def test_common_card_is_laid_face_down_and_never_said(table):
    table.field("red-5")
    assert table.state.common == "red-5" and table.report()["phase"] == "deal1"
    assert table.heard() == ["common.down", "deal.ask"]
    assert all("red-5" not in params.values() for _, params in table.said())


def test_deal_says_each_card_on_the_speaker_and_the_seat_earphone(table):
    table.field("red-9")
    table.hand(1, "red-5")
    assert table.said() == [("deal.card", {"seat": 1, "card": "red-5"})] * 2
    assert [e.to for e in table.last] == ["speaker", "hand:1"]
    table.hand(1, "red-5")  # one's own card in a deal: said again, privately
    assert table.said("hand:1") == [("card.name", {"card": "red-5"})] and not table.speaker()


def test_deal_refuses_a_fifth_card_and_the_other_seats_card(table):
    table.field("red-9")
    table.deal({1: ["red-1", "red-2", "red-3", "red-4"]})
    table.hand(1, "blue-1")
    assert table.heard() == ["refuse.hand_full"] and table.state.hand(1) == frozenset(FIRST_HALF[1])
    table.hand(2, "red-1")
    assert table.heard() == ["refuse.not_yours"] and table.alerts() == ["card.foreign_hand"]
    table.field("blue-2")
    assert table.heard() == ["refuse.field_card"]


def test_place_phase_begins_when_both_hold_four():
    t = dealt_table()
    assert t.report()["phase"] == "place1"
    assert t.heard(SPEAKER)[-1] == "place.ask"


def test_card_then_cell_places_and_says_it():
    t = dealt_table()
    t.hand(1, "red-2")
    assert t.said() == [("card.selected", {"card": "red-2"})] and t.state.selected[0] == "red-2"
    t.hand(1, "cell-3")
    # The speaker says who placed what where; the seat's earphone, which just heard the card, the cell.
    assert t.said() == [("place.card", {"seat": 1, "card": "red-2", "cell": 3}), ("place.mine", {"cell": 3})]
    assert t.report()["grids"]["1"][2] == "red-2" and t.state.selected[0] is None
    assert "red-2" not in t.report()["hands"]["1"]


def test_selection_rules():
    t = dealt_table()
    t.hand(1, "cell-1")  # a cell tag never selects: it reads
    assert t.said() == [("cell.content", {"cell": 1, "content": "empty"})]
    t.hand(1, "red-1")
    t.hand(1, "red-3")  # another card tap replaces the selection
    assert t.state.selected[0] == "red-3"
    t.hand(1, "cell-5")  # refused: the selection stays
    assert t.heard() == ["refuse.cell_common"] and t.state.selected[0] == "red-3"
    t.hand(1, "cell-1")
    t.hand(1, "red-1")
    t.hand(1, "cell-1")  # taken
    assert t.heard() == ["refuse.cell_taken"] and t.state.selected[0] == "red-1"
    t.hand(1, "red-3")  # a placed card says where it lies and does not select
    assert t.said() == [("card.where", {"card": "red-3", "cell": 1})] and t.state.selected[0] == "red-1"


def test_seats_place_in_any_order_and_the_second_deal_follows():
    t = dealt_table()
    t.place(2, {"blue-1": 1, "blue-2": 2})
    t.place(1, dict(zip(FIRST_HALF[1], (1, 2, 3, 4), strict=True)))
    assert t.report()["phase"] == "place1"
    t.hand(1, "red-5")  # no deal on while seat 2 places
    assert t.heard() == ["refuse.no_deal"]
    t.place(2, {"blue-3": 3, "blue-4": 4})
    assert t.report()["phase"] == "deal2" and t.heard(SPEAKER)[-1] == "deal.more"


def test_first_half_cards_never_move():
    t = dealt_table()
    for seat in (1, 2):
        t.place(seat, dict(zip(FIRST_HALF[seat], (1, 2, 3, 4), strict=True)))
    t.deal({1: ["red-5", "red-6", "red-7", "red-8"], 2: ["blue-5", "blue-6", "blue-7", "blue-8"]})
    assert t.report()["phase"] == "place2"
    t.hand(1, "red-1")  # a first-half card: where it is, not selected
    assert t.heard() == ["card.where"] and t.state.selected[0] is None
    t.hand(1, "red-5")
    t.hand(1, "cell-2")
    assert t.heard() == ["refuse.cell_taken"]
    t.hand(1, "cell-6")
    assert t.report()["grids"]["1"][:6] == ["red-1", "red-2", "red-3", "red-4", "common", "red-5"]


# -- the reveal, scoring, rounds ---------------------------------------------------------------------


@pytest.mark.parametrize("how", ["tap", "ctl-open", "referee"])
def test_reveal_by_a_tap_ctl_open_or_the_referee(how):
    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    assert t.report()["phase"] == "reveal" and t.heard() == ["place.card", "place.mine", "reveal.ask"]
    t.field("blue-5")  # another card: asked again, nothing named
    assert t.heard() == ["reveal.ask"]
    {"tap": lambda: t.field("red-5"), "ctl-open": lambda: t.field("ctl-open"),
     "referee": lambda: t.referee("reveal")}[how]()
    report = t.report()
    assert report["phase"] == "scored" and report["round_scores"] == {"1": [28], "2": [0]}
    assert t.speaker()[0] == ("reveal.card", {"card": "red-5"})


def test_worked_grid_w1():
    roles = grid_roles(W1, "red-5")
    assert [(r.line, r.role, r.points) for r in roles] == [
        ("row-1", "flush", 1), ("row-2", "straight flush", 4), ("row-3", "straight", 1), ("col-1", "straight", 1)]
    assert grid_score(W1, "red-5") == 7


def test_worked_grid_w2_and_w3_in_one_round():
    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    t.field("ctl-open")
    roles = t.report()["last_roles"]
    assert roles["1"] == [
        {"line": "row-1", "role": "straight flush", "points": 2},
        {"line": "row-2", "role": "straight flush", "points": 4},
        {"line": "row-3", "role": "straight flush", "points": 2},
        {"line": "col-1", "role": "flush", "points": 1},
        {"line": "col-2", "role": "flush", "points": 2},
        {"line": "col-3", "role": "flush", "points": 1},
        {"line": "grid", "role": "royal nine", "points": 16},
    ]
    assert roles["2"] == [{"line": "grid", "role": "spoiled nine", "points": 0}]
    assert t.report()["totals"] == {"1": 28, "2": 0}
    # W3's lines make 8 with the red common card (row-2 a straight, doubled), but it spoils them all.
    cells = [("red-5" if i == 4 else card) for i, card in enumerate(W3)]
    lines = {"row-1": (0, 1, 2), "row-2": (3, 4, 5), "row-3": (6, 7, 8), "col-1": (0, 3, 6), "col-2": (1, 4, 7),
             "col-3": (2, 5, 8)}
    points = [(line_role([cells[i] for i in idx]) or ("", 0))[1] * (2 if name[-1] == "2" else 1)
              for name, idx in lines.items()]
    assert sum(points) == 8


def test_worked_grid_w1_through_the_engine():
    t = Table(first=2)
    t.play_round("red-5", {1: W1, 2: W1_OTHER})
    t.referee("reveal")
    assert t.report()["round_scores"]["1"] == [7]
    seats_named = [p["seat"] for k, p in t.speaker() if k == "score.seat"]
    assert seats_named == [2, 1]  # `first` is named first


@pytest.mark.parametrize("cards, role", [
    (("red-3", "blue-4", "red-5"), ("straight", 1)),
    (("red-4", "blue-3", "red-5"), ("straight", 1)),
    (("blue-3", "red-1", "red-2"), ("straight", 1)),
    (("red-2", "blue-1", "red-3"), ("straight", 1)),
    (("red-8", "blue-9", "red-1"), None),
    (("red-9", "blue-1", "red-2"), None),
    (("red-9", "blue-10", "red-1"), None),
    (("red-10", "blue-1", "red-2"), None),
    (("red-8", "blue-9", "red-10"), ("straight", 1)),
    (("red-1", "red-5", "red-9"), ("flush", 1)),
    (("blue-7", "blue-9", "blue-8"), ("straight flush", 2)),
    (("red-5", "blue-5", "red-6"), None),
])
def test_line_roles_are_sets_without_wrap_around(cards, role):
    assert line_role(cards) == role


def test_lines_through_the_common_card_count_double():
    grid = ["red-1", "blue-9", "red-7", "red-4", None, "red-6", "blue-2", "red-3", "blue-8"]
    roles = {r.line: (r.role, r.points) for r in grid_roles(grid, "blue-5")}
    assert roles["row-2"] == ("straight", 2)  # 4-5-6 through a common 5
    assert grid_score(grid, "blue-4") == grid_score(grid, "blue-4")  # deterministic
    grid2 = ["red-1", "red-4", "red-7", "blue-4", None, "blue-6", "blue-2", "red-6", "blue-8"]
    roles2 = {r.line: (r.role, r.points) for r in grid_roles(grid2, "red-5")}
    assert roles2["col-2"] == ("straight flush", 4)  # 4-5-6 red through the common: doubled
    assert roles2["row-2"] == ("straight", 2)


def test_royal_nine_adds_to_the_lines_and_spoiled_nine_is_zero():
    assert grid_score(W2, "red-5") == 12 + 16
    assert grid_score(W2, "blue-5") == 0
    assert [r.role for r in grid_roles(W2, "blue-5")] == ["spoiled nine"]


def test_the_tens_variant():
    t = Table()
    t.field("red-10")
    assert t.heard() == ["refuse.no_tens"] and t.report()["phase"] == "common"
    t = Table(tens=True)
    t.field("red-10")
    assert t.report()["common"] == "red-10"
    t.hand(1, "blue-10")
    t.hand(1, "blue-2")
    assert t.report()["hands"]["1"] == ["blue-10", "blue-2"]  # sorted as strings


def test_the_pause_between_rounds_and_the_next_round():
    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    t.field("red-5")
    assert t.heard()[-1] == "round.next"
    t.field("red-5")  # re-tapping the revealed card only says it
    assert t.said() == [("card.name", {"card": "red-5"})] and t.report()["phase"] == "scored"
    t.field("blue-5")
    assert t.said() == [("card.name", {"card": "blue-5"})]
    t.field("ctl-open")
    assert t.heard() == ["refuse.not_now"]
    t.field("ctl-next")
    r = t.report()
    assert (r["phase"], r["round"], r["common"]) == ("common", 2, None)
    assert r["grids"]["1"] == [None] * 4 + ["common"] + [None] * 4 and r["hands"] == {"1": [], "2": []}
    assert r["last_roles"]["1"][-1]["role"] == "royal nine"  # the last revealed round stays
    t.field("red-5")  # all cards come back
    assert t.report()["common"] == "red-5"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_reveal_says_scores_first_and_the_roles_after_superseded_by_the_next_round(lang):
    from kikimimi.games.phrasebook import ANNOUNCE
    from kikimimi.voice.catalog import catalog
    from kikimimi.voice.router import not_superseded

    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    t.field("red-5")
    says = [e for e in t.last if isinstance(e, Say)]
    # The scores in one utterance, then the roles one line each (a seat's first with the seat), the prompt last.
    assert [(e.to, e.key) for e in says] == [(SPEAKER, ANNOUNCE)] + [(SPEAKER, "score.roles")] * (len(says) - 1)
    assert len(says) >= 4
    assert t.heard()[:6] == ["reveal.card", "score.round", "score.round", "score.total", "score.total", "score.seat"]
    assert t.heard()[-1] == "round.next"  # the prompt closes the roles: stale with them once the round begins
    assert all(len(parts_of(say)) <= 2 for say in says[1:])
    words = catalog(lang, "royal-nine")
    assert words.group("score.roles") == words.group("round.begin") == "scores"
    t.field("ctl-next")
    begin = t.last[0]
    assert begin.key == "round.begin"
    # Still waiting on the speaker when the next round begins: the roles go, nothing else does.
    assert not_superseded(says[1:], "scores", lambda say: words.group(say.key)) == []
    assert not_superseded([says[0]], "scores", lambda say: words.group(say.key)) == [says[0]]


def test_referee_next_and_out_of_phase_referee_actions():
    t = Table()
    t.referee("next")
    assert t.heard() == ["referee.refused"] and t.alerts() == ["referee.refused"]
    t.referee("reveal")
    assert t.heard() == ["referee.refused"]
    t.referee("dance")
    assert t.heard() == ["referee.refused"]
    t.play_round("red-5", {1: W2, 2: W3})
    t.referee("reveal")
    t.referee("next")
    assert t.report()["phase"] == "common" and t.report()["round"] == 2


def test_rounds_totals_and_the_winner():
    t = Table(rounds=2)
    t.play_round("red-5", {1: W2, 2: W3})
    t.field("ctl-open")
    t.field("ctl-next")
    t.play_round("red-5", {1: W3, 2: W2})
    t.field("ctl-open")
    r = t.report()
    assert r["phase"] == "over" and r["round"] == 2 and r["totals"] == {"1": 28, "2": 28}
    assert r["result"] == {"winner": None, "totals": {"1": 28, "2": 28}}
    assert "game.draw" in t.heard()
    over = [e for e in t.last if isinstance(e, GameOver)]
    assert over and over[0].outcome.winners == () and over[0].outcome.scores == {1: 28, 2: 28}
    t.field("red-1")
    assert t.heard() == ["game.over"]
    t.hand(1, "ctl-grid")
    assert t.heard() == ["game.over"]


def test_a_winner_is_named():
    t = Table(rounds=1)
    t.play_round("red-5", {1: W3, 2: W2})
    t.field("red-5")
    assert t.report()["result"] == {"winner": 2, "totals": {"1": 0, "2": 28}}
    said = t.said()  # the winner with the scores, each seat's roles after them
    assert ("game.winner", {"seat": 2}) in said and said.index(("game.winner", {"seat": 2})) < said.index(
        ("score.seat", {"seat": 1}))


def test_referee_end():
    t = dealt_table()
    t.referee("end")
    r = t.report()
    assert r["phase"] == "over" and r["result"] == {"winner": None, "totals": {"1": 0, "2": 0}}
    assert t.heard() == ["game.ended"]
    assert [e.outcome.reason for e in t.last if isinstance(e, GameOver)] == ["referee"]
    t.referee("end")
    assert t.heard() == ["referee.refused"]


# -- hearing the grid ----------------------------------------------------------------------------------


def test_ctl_grid_reads_rows_top_down_on_the_seats_earphone():
    t = Table()
    t.play_round("red-5", {1: W2, 2: W3})
    t.hand(1, "ctl-grid")
    assert {e.to for e in t.last} == {"hand:1"}
    contents = [p["content"] for k, p in t.said() if k == "cell.content"]
    assert t.heard()[0] == "grid.intro" and [p["cell"] for k, p in t.said()[1:]] == list(range(1, 10))
    assert contents == W2[:4] + ["common"] + W2[5:]
    t.hand(2, "cell-5")
    assert t.said() == [("cell.content", {"cell": 5, "content": "common"})]
    t.field("ctl-open")
    t.hand(2, "cell-5")
    assert t.said() == [("cell.content", {"cell": 5, "content": "red-5"})]


def test_grid_before_the_common_card_is_laid():
    t = Table()
    t.hand(1, "ctl-grid")
    assert [p["content"] for k, p in t.said() if k == "cell.content"] == ["empty"] * 9


# -- the hint --------------------------------------------------------------------------------------------


def test_hint_needs_a_selection_and_a_place_phase():
    t = Table()
    t.hand(1, "ctl-hint")
    assert t.heard() == ["refuse.not_now"]
    t = dealt_table()
    t.hand(1, "ctl-hint")
    assert t.heard() == ["hint.select_first"]
    t.hand(1, "red-2")
    t.hand(1, "ctl-hint")
    unseen = t.state.unseen()
    assert len(unseen) == 10 and "red-9" in unseen  # the common card is among the unseen
    cell = best_cell({}, FIRST_HALF[1], unseen, 4, "red-2")
    assert t.said() == [("hint.cell", {"cell": cell + 1})] and {e.to for e in t.last} == {"hand:1"}
    assert t.state.selected[0] == "red-2"  # the selection stays


# -- refused taps ------------------------------------------------------------------------------------------


def test_refusals_never_name_a_card():
    t = Table()
    t.field("red-5")
    t.hand(1, "red-5")  # the common card before the reveal
    assert t.heard() == ["refuse.face_down"] and t.alerts() == ["common.tapped"]
    t.field("red-5")
    assert t.heard() == ["refuse.face_down"] and t.alerts() == ["common.tapped"]
    t.field("cell-1")
    assert t.heard() == ["refuse.on_hand"]
    t.field("ctl-grid")
    assert t.heard() == ["refuse.on_hand"]
    t.hand(1, "ctl-open")
    assert t.heard() == ["refuse.on_field"]
    t.hand(2, "ctl-next")
    assert t.heard() == ["refuse.on_field"]
    t.field("ctl-next")
    assert t.heard() == ["refuse.not_now"]
    assert all(not say.params for say in t.spoken if say.key.startswith("refuse."))


def test_other_readers_and_unknown_tags():
    t = Table()
    before = t.state
    t.tap("hand:3", "red-1")
    assert t.said() == [] and t.alerts() == ["reader.unknown"] and t.state == before
    t.field(None)
    assert t.heard() == ["tap.unknown_tag"] and t.alerts() == ["tag.unknown"]
    t.hand(2, "heart-3")
    assert t.said("hand:2") == [("tap.unknown_tag", {})]


def test_a_card_placed_by_the_other_seat_is_refused_without_an_alert():
    t = dealt_table()
    t.place(2, {"blue-1": 1})
    t.hand(1, "blue-1")
    assert t.heard() == ["refuse.not_yours"] and t.alerts() == []


# -- the state report ------------------------------------------------------------------------------------


def test_report_keys_are_the_contracts():
    t = dealt_table()
    r = t.report()
    assert set(r) == {"game", "phase", "round", "common", "grids", "hands", "round_scores", "totals",
                      "last_roles", "result"}
    assert r["game"] == "royal-nine" and r["last_roles"] == {"1": [], "2": []} and r["result"] is None
    assert r["grids"]["1"][4] == "common" and len(r["grids"]["2"]) == 9
    json.dumps(r)


def test_observe_hides_the_common_card_until_opened():
    t = dealt_table()
    for seat in (1, 2, None):
        view = t.game.observe(t.state, seat)
        assert view["common"] is None and "red-9" in view["unseen"]
        assert "red-9" not in json.dumps({k: v for k, v in view.items() if k != "unseen"})


def test_undo_takes_a_placement_back():
    t = dealt_table()
    t.place(1, {"red-1": 1})
    t.referee("undo")
    assert t.report()["grids"]["1"][0] is None and t.state.selected[0] == "red-1"


def test_scan_objects_are_accepted_with_uids():
    t = Table()
    t.feed(Scan("field", "red-5", "04a1"))
    assert t.report()["common"] == "red-5"


def test_the_worked_grids_script_replays():
    from pathlib import Path

    from kikimimi.table.replay import replay

    path = Path(__file__).parent.parent / "scripts" / "royal-nine_worked_grids.jsonl"
    result = replay(path.read_text().splitlines(), "en")
    report = result.report()
    assert result.ok and report["phase"] == "over" and report["result"] == {"winner": 1, "totals": {"1": 28, "2": 0}}
    texts = [s["text"] for s in report["spoken"]]
    def first(text: str) -> int:  # an event's phrases on the speaker are one utterance: look inside
        return next(i for i, said in enumerate(texts) if text in said)

    assert first("Common card red 5.") > first("Seat 2 blue 9 to cell 9.")
    assert first("Seat 2: spoiled nine") < first("Seat 1:")  # first = 2 is named first (a line each)
    assert "red 5" not in " ".join(texts[:first("Common card red 5.")])
