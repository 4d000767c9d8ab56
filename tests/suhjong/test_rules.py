"""One group of tests per section of the contract (spec/suhjong-rules.md)."""

from __future__ import annotations

import json

import pytest
from suhjong_table import Table

from kikimimi.games.base import GameOver, Referee, Say
from kikimimi.games.registry import SetupError, get_info

CONTRACT_KEYS = {"game", "phase", "round", "first", "turn", "step", "turn_count", "hands", "rivers", "sea_count",
                 "pile_count", "showdown_by", "declaring", "declared", "best", "scores", "totals", "result"}


def dealt(one="98641", two="22337", **setup) -> Table:
    t = Table(**setup)
    t.deal(one, two)
    return t


def showdown_table() -> Table:
    """Seat 1 calls a showdown in its second turn: 9 8 6 4 + the 2 seat 2 discarded make 48*2=96."""
    t = dealt()
    t.discard(1, "1")
    t.draw(1, "0")
    t.discard(2, "2")
    t.draw(2, "2")
    t.tap("hand:1", "ctl-showdown")
    assert t.said("showdown.called")
    return t


# -- set-up and pieces ---------------------------------------------------------------------------------


def test_setup_defaults_and_refusals():
    info = get_info("suhjong")
    assert info.parse_setup({"game": "suhjong"}) == {"first": 1, "discard_max": 3, "fold_points": 10, "rounds": 1,
                                                    "hints": True}
    for bad in ({"first": 3}, {"discard_max": 0}, {"discard_max": 6}, {"fold_points": -1}, {"rounds": 0},
                {"hints": "yes"}, {"hints": 1}, {"colour": 1}, {"first": True}):
        with pytest.raises(SetupError):
            info.parse_setup(bad)
    assert len(info.pieces) == 50 and "digit-0-1" in info.pieces and "digit-9-5" in info.pieces
    assert set(info.controls) == {"op-times", "op-plus", "op-equals", "op-open", "op-close", "ctl-fold",
                                  "ctl-showdown", "ctl-declare", "ctl-clear", "ctl-norole", "ctl-next", "ctl-table"}


# -- areas and the report --------------------------------------------------------------------------------


def test_report_has_the_contract_keys_and_is_json():
    t = dealt()
    report = t.report()
    assert set(report) >= CONTRACT_KEYS and set(report) - CONTRACT_KEYS == {"equation"}
    json.dumps(report)
    assert report["phase"] == "turn" and report["turn"] == 1 and report["step"] == "start"
    assert report["hands"]["1"] == sorted(report["hands"]["1"])
    assert report["best"] == {"1": 49, "2": 23}  # 41+8=49
    assert report["declared"] == {"1": None, "2": None}
    assert report["pile_count"] == 40 and report["sea_count"] == 0


# -- what is spoken where ----------------------------------------------------------------------------------


def test_moves_are_spoken_with_values_and_a_card_is_heard_again_privately():
    t = Table()
    t.tap("hand:1", t.pile_card(7))
    assert t.effects == [Say("speaker", "deal.card", {"seat": 1, "value": 7})]
    t.tap("hand:1", t.hand_card(1, 7))
    assert t.effects == [Say("hand:1", "card.value", {"value": 7})]
    before = t.report()
    t.tap("hand:2", t.hand_card(1, 7))  # someone else's card: refused, nothing named
    assert t.effects == [Say("hand:2", "card.other_hand")] and t.report() == before


def test_ctl_table_reads_both_hands_rivers_pile_and_totals_on_the_tapping_earphone():
    t = dealt()
    t.discard(1, "41")
    t.tap("hand:2", "ctl-table")
    assert all(e.to == "hand:2" for e in t.effects) and len(t.effects) == 1  # one utterance
    assert [(e.key, dict(e.params)) for e in t.phrases()] == [
        ("table.hand", {"seat": 1, "cards": "6 8 9"}), ("table.hand", {"seat": 2, "cards": "2 2 3 3 7"}),
        ("table.river", {"seat": 1, "cards": "4 1"}), ("table.river_empty", {"seat": 2}),
        ("table.pile", {"count": 40}), ("table.total", {"seat": 1, "total": 0}),
        ("table.total", {"seat": 2, "total": 0})]
    t.tap("field", "ctl-table")
    assert t.effects == [Say("speaker", "control.on_hand_reader")]


def test_the_move_that_ends_a_turn_and_the_next_turn_are_one_phrase_on_the_speaker():
    t = dealt()
    t.discard(1, "1")
    assert t.effects == [Say("speaker", "discard.card", {"value": 1})]  # a move names no seat [impl]
    t.draw(1, "0")
    assert t.effects == [Say("speaker", "draw.pass", {"value": 0, "next": 2})] and t.report()["turn"] == 2
    t.discard(2, "2")
    t.pickup(2, "1")  # five cards again: a pick-up ends the turn too
    assert t.effects == [Say("speaker", "pickup.pass", {"value": 1, "next": 1})] and t.report()["turn"] == 1
    t.discard(1, "4")
    t.draw(1, "5")  # seat 2's river (its 2) flows to the sea as seat 2's turn begins: not said [impl]
    assert t.effects == [Say("speaker", "draw.pass", {"value": 5, "next": 2})] and t.report()["sea_count"] == 1


def test_pile_count_is_said_at_a_turn_start_once_it_is_low():
    t = dealt(discard_max=5)
    n = 0
    while t.state.phase == "turn" and t.state.pile_count > 10:
        seat = t.state.turn
        values = "".join(str(int(c.split("-")[1])) for c in sorted(t.state.hand(seat)))[:1]
        t.discard(seat, values)
        before = t.state.pile_count
        t.draw(seat, str(next(v for v in range(10) if any(int(c.split("-")[1]) == v for c in t.state.pile()))))
        n += 1
        if before - 1 <= 10:
            assert t.said("pile.count")
        else:
            assert not t.said("pile.count")
    assert n > 0


def test_a_refusal_never_names_a_pile_card():
    t = dealt()
    card = t.pile_card(5)
    t.tap("field", card)
    assert t.effects == [Say("speaker", "card.from_pile")]
    t.tap("hand:1", card)  # a draw before a discard
    assert t.effects == [Say("hand:1", "refill.discard_first")]
    t.tap("hand:2", card)  # out of turn
    assert t.effects == [Say("hand:2", "tap.not_your_turn")]


# -- the deal ------------------------------------------------------------------------------------------


def test_deal_refuses_a_sixth_card_and_field_taps_then_the_first_player_begins():
    t = Table(first=2)
    t.deal("12345", "")
    t.tap("hand:1", t.pile_card(6))
    assert t.effects == [Say("hand:1", "deal.full")]
    t.tap("field", t.pile_card(6))
    assert t.effects == [Say("speaker", "deal.on_hand_reader")]
    t.tap("field", "op-plus")
    assert t.heard() == ["tap.not_now"]
    t.deal("", "6789")
    assert t.state.phase == "deal"
    t.deal("", "0")
    assert t.heard() == ["deal.card", "turn.begin"] and t.report()["turn"] == 2


# -- a turn -----------------------------------------------------------------------------------------------


def test_a_turn_discards_between_one_and_the_cap_then_picks_up_then_draws():
    t = dealt(discard_max=2)
    t.tap("hand:1", t.pile_card(5))
    assert t.heard() == ["refill.discard_first"]
    t.discard(1, "9")
    assert t.report()["step"] == "discard" and t.report()["rivers"]["1"] == [t.state.river(1)[0]]
    t.discard(1, "8")
    t.discard(1, "6")
    assert t.heard() == ["discard.max"] and t.effects[0].params == {"count": 2}
    t.draw(1, "5")
    assert t.report()["step"] == "refill"
    t.discard(1, "6")
    assert t.heard() == ["discard.over"]
    t.draw(1, "5")
    assert t.report()["turn"] == 2 and t.report()["turn_count"] == {"1": 1, "2": 1}
    # Seat 2: a pick-up from seat 1's river, then a draw; no pick-up after a draw.
    t.discard(2, "23")
    t.pickup(2, "9")
    assert t.heard() == ["pickup.card"] and t.state.river(1) == (t.river_card(1, 8),)
    t.draw(2, "1")
    assert t.state.turn == 1
    assert t.report()["rivers"]["1"] == [] and t.report()["sea_count"] == 1  # seat 1's river flowed to the sea


def test_pickup_after_a_draw_and_refill_from_own_river_sea_or_other_hand_are_refused():
    t = dealt()
    t.discard(1, "14")
    t.draw(1, "00")
    t.discard(2, "37")
    before = t.report()
    t.tap("hand:2", t.river_card(2, 3))
    assert t.heard() == ["refill.own_river"]
    t.tap("hand:2", t.hand_card(1, 9))
    assert t.heard() == ["card.other_hand"]
    assert t.report() == before
    t.draw(2, "5")
    t.tap("hand:2", t.river_card(1, 4))
    assert t.heard() == ["refill.after_draw"]
    t.draw(2, "5")
    assert t.state.turn == 1 and len(t.state.sea) == 2  # seat 1's river [1, 4] flowed to the sea
    t.discard(1, "0")
    t.tap("hand:1", t.state.sea[0])
    assert t.heard() == ["refill.sea"]


def test_the_other_seat_is_refused_in_a_turn_but_may_hear_its_cards():
    t = dealt()
    t.discard(2, "7")
    assert t.heard() == ["tap.not_your_turn"] and t.effects[0].to == "speaker"
    t.tap("hand:2", "ctl-fold")
    assert t.effects == [Say("hand:2", "tap.not_your_turn")]
    t.tap("hand:2", t.hand_card(2, 7))
    assert t.effects == [Say("hand:2", "card.value", {"value": 7})]


# -- fold ----------------------------------------------------------------------------------------------


def test_fold_in_a_seats_first_turn_scores_fold_points_to_the_other():
    t = dealt(fold_points=12, rounds=2)
    t.tap("field", "ctl-fold")
    assert t.heard() == ["control.on_hand_reader"]
    t.tap("hand:1", "ctl-fold")
    assert t.report()["scores"] == {"1": [0], "2": [12]} and t.report()["phase"] == "scored"
    assert t.report()["declared"] == {"1": None, "2": None}


def test_fold_refused_after_a_discard_or_in_a_later_turn():
    t = dealt()
    t.discard(1, "1")
    t.tap("hand:1", "ctl-fold")
    assert t.effects == [Say("hand:1", "fold.refused")]
    t.draw(1, "1")
    t.tap("hand:2", "ctl-fold")  # seat 2's own first turn: allowed
    assert t.report()["phase"] == "over" and t.report()["totals"] == {"1": 10, "2": 0}
    t2 = dealt()
    t2.discard(1, "1")
    t2.draw(1, "1")
    t2.discard(2, "7")
    t2.draw(2, "7")
    t2.tap("hand:1", "ctl-fold")
    assert t2.heard() == ["fold.refused"]


# -- showdown and the grace turn -----------------------------------------------------------------------------


def test_showdown_refused_in_a_first_turn_and_when_no_role_is_reachable():
    t = dealt()
    t.tap("hand:1", "ctl-showdown")
    assert t.effects == [Say("hand:1", "showdown.refused")]
    t = dealt("22259", "22337")
    t.discard(1, "9")
    t.draw(1, "8")
    t.discard(2, "2")  # 2 2 2 5 8 with a 2 for any of its cards makes no role
    t.draw(2, "5")
    t.tap("hand:1", "ctl-showdown")
    assert t.effects == [Say("hand:1", "showdown.impossible")] and t.report()["showdown_by"] is None


def test_showdown_turn_caps_discards_by_the_other_river_and_allows_pick_ups_only():
    t = showdown_table()
    assert t.report()["showdown_by"] == 1
    t.discard(1, "0")
    t.discard(1, "9")
    assert t.heard() == ["discard.max"] and t.effects[0].params == {"count": 1}
    t.draw(1, "5")
    assert t.heard() == ["refill.showdown_no_draw"]
    t.pickup(1, "2")
    assert t.heard() == ["pickup.grace"] and t.state.grace  # the pick-up and the grace turn, one phrase
    # The grace turn: fold and showdown refused, an ordinary turn otherwise, then scoring.
    t.tap("hand:2", "ctl-fold")
    assert t.heard() == ["fold.refused"]
    t.tap("hand:2", "ctl-showdown")
    assert t.heard() == ["showdown.refused"]
    t.discard(2, "7")
    t.pickup(2, "0")
    assert t.report()["phase"] == "scoring" and t.report()["declaring"] == 1


# -- pile exhaustion -----------------------------------------------------------------------------------------


def test_the_draw_that_empties_the_pile_goes_to_scoring_and_a_short_hand_scores_zero():
    t = dealt(discard_max=5)
    while t.state.pile_count > 2:
        seat = t.state.turn
        t.discard(seat, "".join(str(int(c.split("-")[1])) for c in sorted(t.state.hand(seat))[:1]))
        t.tap(f"hand:{seat}", sorted(t.state.pile())[0])
    seat = t.state.turn
    t.discard(seat, "".join(str(int(c.split("-")[1])) for c in sorted(t.state.hand(seat))[:3]))
    t.tap(f"hand:{seat}", sorted(t.state.pile())[0])
    t.tap(f"hand:{seat}", sorted(t.state.pile())[0])
    assert t.heard()[:3] == ["draw.card", "pile.empty", "scoring.begin"]
    report = t.report()
    assert report["phase"] == "scoring" and report["pile_count"] == 0
    assert report["declared"][str(seat)] == {"equation": None, "points": 0}
    assert report["declaring"] == 3 - seat and report["best"][str(seat)] is None


# -- scoring ------------------------------------------------------------------------------------------------


def scoring_table(**setup) -> Table:
    t = showdown_table() if not setup else None
    if t is None:
        t = Table(**setup)
        t.deal("98641", "22337")
        t.discard(1, "1")
        t.draw(1, "0")
        t.discard(2, "2")
        t.draw(2, "2")
        t.tap("hand:1", "ctl-showdown")
    t.discard(1, "0")
    t.pickup(1, "2")
    t.discard(2, "7")
    t.draw(2, "7")  # seat 2 holds 2 2 3 3 7 again
    return t


def test_declaration_taps_are_read_back_and_only_the_declarers_cards_count():
    t = scoring_table()
    t.write(1, "2")
    assert t.effects == [Say("speaker", "eq.number", {"value": 2})]
    t.write(1, "*")
    assert t.heard() == ["eq.times"]
    t.tap("field", t.hand_card(1, 4))
    t.tap("field", t.hand_card(1, 8))
    assert t.effects == [Say("speaker", "eq.number", {"value": 48})]  # the number grows: four, forty-eight
    t.tap("field", t.hand_card(1, 8))
    assert t.heard() == ["declare.twice"]
    t.tap("field", t.hand_card(2, 7))
    assert t.heard() == ["declare.not_yours"]
    t.tap("field", t.pile_card(1))
    assert t.heard() == ["card.from_pile"]
    assert t.report()["equation"] == "2*48"
    t.tap("field", "ctl-declare")
    assert t.heard() == ["control.on_hand_reader"]
    t.tap("hand:2", "ctl-declare")
    assert t.effects == [Say("hand:2", "declare.wait", {"seat": 1})]
    t.tap("hand:1", "ctl-declare")
    assert t.effects == [Say("hand:1", "declare.incomplete")]
    t.write(1, "=96")
    t.tap("hand:1", "ctl-declare")
    assert t.report()["declared"]["1"] == {"equation": "48*2=96", "points": 96}
    # Not read back (its taps were said as they came): who declared, the points, the next declarer.
    assert [(e.key, dict(e.params)) for e in t.phrases()] == [
        ("declare.by", {"seat": 1}), ("declare.role", {"points": 96}), ("declare.ask", {"seat": 2})]
    assert t.report()["declaring"] == 2


@pytest.mark.parametrize("writing", ["(6+8*7=98", "2+*3=", "237=", "3*7+2=2", "1*2+3+4=9", "3*7+2", "3*7=+2=23",
                                     "3*7+2=23=", "3*7+(2)=23("])
def test_malformed_writings_are_refused_at_declare(writing):
    from kikimimi.games.suhjong.equation import parse

    tokens = [{"*": "op-times", "+": "op-plus", "=": "op-equals", "(": "op-open", ")": "op-close"}.get(ch)
              or f"digit-{ch}-{i % 5 + 1}" for i, ch in enumerate(writing)]
    assert parse(tokens) is None


def test_commuted_and_swapped_writings_are_accepted_in_canonical_form():
    t = scoring_table()
    t.declare(1, "96=2*48")
    assert t.report()["declared"]["1"] == {"equation": "48*2=96", "points": 96}
    t.write(2, "3")
    t.tap("hand:2", "ctl-clear")
    assert t.heard() == ["declare.cleared"] and t.report()["equation"] == ""
    t.declare(2, "23=2+3*7")
    assert t.report()["declared"]["2"] == {"equation": "3*7+2=23", "points": 23}


def test_unequal_sides_score_zero_and_norole_scores_zero():
    t = scoring_table()
    t.declare(1, "48*2=69")
    assert t.report()["declared"]["1"] == {"equation": "48*2=69", "points": 0} and "declare.unequal" in t.heard()
    t.tap("hand:2", "ctl-norole")
    assert t.report()["declared"]["2"] == {"equation": None, "points": 0}
    assert t.report()["scores"] == {"1": [0], "2": [0]} and t.report()["phase"] == "over"


def test_hints_name_a_better_role_after_both_declarations():
    t = scoring_table()
    t.declare(1, "48*2=69")
    assert not t.said("hint.best")
    t.declare(2, "3*7+2=23")  # seat 2's best (0 2 3 3 7): 23
    hints = [e for e in t.phrases() if e.key == "hint.best"]
    assert hints == [Say("speaker", "hint.best", {"seat": 1, "points": 96})]
    t2 = scoring_table(hints=False)
    t2.declare(1, "48*2=69")
    t2.tap("hand:2", "ctl-norole")
    assert not t2.said("hint.best")


def test_declaration_order_without_a_showdown_is_the_rounds_first_player():
    t = dealt(first=2, discard_max=5)
    while t.state.phase == "turn":
        seat = t.state.turn
        t.discard(seat, str(int(sorted(t.state.hand(seat))[0].split("-")[1])))
        t.tap(f"hand:{seat}", sorted(t.state.pile())[0])
    assert t.report()["declaring"] == 2 or t.report()["declared"]["2"] is not None


# -- the contract's checks --------------------------------------------------------------------------------


@pytest.mark.parametrize("writing,points", [("3*7+2=23", 23), ("82+3=85", 85), ("75+6=81", 81), ("48*2=96", 96),
                                            ("13*7=91", 91), ("49*2=98", 98), ("14*7=98", 98), ("(6+8)*7=98", 98),
                                            ("05*9=45", 45), ("48*2=69", 0)])
def test_contract_roles(writing, points):
    from kikimimi.games.suhjong.equation import parse

    used: dict[str, int] = {}
    tokens = []
    for ch in writing:
        op = {"*": "op-times", "+": "op-plus", "=": "op-equals", "(": "op-open", ")": "op-close"}.get(ch)
        if op:
            tokens.append(op)
        else:
            used[ch] = used.get(ch, 0) + 1
            tokens.append(f"digit-{ch}-{used[ch]}")
    equation = parse(tokens)
    assert equation is not None and equation.text == writing and equation.points == points


def test_contract_best_roles():
    from kikimimi.games.suhjong import solver

    assert solver.best((9, 8, 6, 4, 2)) == 96
    assert solver.best((2, 2, 3, 3, 7)) == 23
    assert solver.best_role((2, 2, 3, 3, 7)).text == "3*7+2=23"


# -- rounds and the result -----------------------------------------------------------------------------------


def test_rounds_pause_then_next_deals_again_with_the_other_seat_first():
    t = dealt(rounds=2)
    t.tap("hand:1", "ctl-fold")
    assert t.report()["phase"] == "scored" and t.said("round.next_ask")
    kept = t.report()["hands"]
    t.tap("hand:1", t.pile_card(3))
    assert t.heard() == ["card.from_pile"] and t.report()["hands"] == kept
    t.tap("hand:1", "ctl-next")
    assert t.heard() == ["control.on_field"]
    t.feed(Referee("next"))
    assert t.report()["phase"] == "deal" and t.report()["first"] == 2 and t.report()["round"] == 2
    assert t.report()["hands"] == {"1": [], "2": []} and t.report()["pile_count"] == 50
    t.deal("12345", "67890")
    assert t.report()["turn"] == 2
    t.tap("hand:2", "ctl-fold")
    report = t.report()
    assert report["phase"] == "over" and report["totals"] == {"1": 10, "2": 10}
    assert report["result"] == {"winner": None, "totals": {"1": 10, "2": 10}} and t.said("game.draw")
    outcome = next(e for e in t.effects if isinstance(e, GameOver)).outcome
    assert outcome.winners == () and outcome.scores == {1: 10, 2: 10}
    t.tap("field", "ctl-next")
    assert t.heard() == ["game.over"]
    t.tap("hand:1", t.hand_card(1, 1))
    assert t.heard() == ["game.over"]  # no hearing once over
    t.tap("hand:1", "ctl-table")
    assert t.heard()[0] == "table.hand"


def test_ctl_next_on_the_field_and_elsewhere():
    t = dealt(rounds=3)
    t.tap("field", "ctl-next")
    assert t.heard() == ["tap.not_now"] and t.report()["phase"] == "turn"
    t.feed(Referee("next"))
    assert t.heard() == ["referee.refused"]
    t.tap("hand:1", "ctl-fold")
    t.tap("field", "ctl-next")
    assert t.heard() == ["round.begin"] and t.report()["first"] == 2


# -- referee -----------------------------------------------------------------------------------------------


def test_referee_end_unknown_actions_and_undo():
    t = dealt()
    t.discard(1, "9")
    t.feed(Referee("undo"))
    assert t.report()["hands"]["1"] and len(t.report()["hands"]["1"]) == 5
    t.feed(Referee("dance"))
    assert t.heard() == ["referee.refused"]
    t.feed(Referee("end"))
    assert t.report()["phase"] == "over" and t.said("game.ended")
    outcome = next(e for e in t.effects if isinstance(e, GameOver)).outcome
    assert outcome.reason == "referee"
    t.feed(Referee("end"))
    assert t.heard() == ["referee.refused"]


def test_unknown_tags_and_readers_change_nothing():
    t = dealt()
    before = t.report()
    t.tap("hand:1", None)
    assert t.effects[0] == Say("hand:1", "tap.unknown_tag")
    t.tap("hand:3", "digit-1-1")
    assert not [e for e in t.effects if isinstance(e, Say)]
    assert t.report() == before
