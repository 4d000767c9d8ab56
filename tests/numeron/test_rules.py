"""One test (or a few) per section of the contract, spec/numeron-rules.md; its worked examples included."""

from __future__ import annotations

import pytest
from numeron_table import Table, digit

from kikimimi.games.base import Alert, GameOver
from kikimimi.games.numeron.judge import judge, slash
from kikimimi.games.registry import SetupError, get_info

INFO = get_info("numeron")


# -- Set-up ----------------------------------------------------------------------------------------


def test_setup_defaults():
    assert INFO.parse_setup({"game": "numeron"}) == {"first": 1, "digits": 3, "items": 0, "turn_seconds": 60,
                                                     "practice": False, "secret": ""}


@pytest.mark.parametrize("raw, why", [
    ({"digits": 3, "items": 1}, "items need 4 or more digits"),
    ({"digits": 6}, "digits.*must be one of"),
    ({"items": 8, "digits": 4}, "items.*must be at most 7"),
    ({"turn_seconds": -1}, "turn_seconds.*must be at least 0"),
    ({"first": 3}, "first.*must be one of"),
    ({"colour": "red"}, "unknown set-up key"),
    ({"digits": "4"}, "digits.*must be an integer"),
])
def test_setup_refuses_bad_keys_with_a_reason(raw, why):
    with pytest.raises(SetupError, match=why):
        INFO.parse_setup(raw)


def test_setup_items_from_four_digits():
    assert INFO.parse_setup({"digits": 4, "items": 7})["items"] == 7
    assert INFO.parse_setup({"digits": 5, "items": 0, "turn_seconds": 0})["turn_seconds"] == 0


# -- Pieces -----------------------------------------------------------------------------------------


def test_every_copy_of_a_digit_is_alike_and_a_place_beyond_the_digits_is_refused():
    t = Table(digits=3)
    t.hand(1, "digit-0-1")
    t.hand(1, "digit-3-2")  # a copy of seat 2's: the rules use V only
    t.hand(1, "digit-1-3")
    assert t.state.number(1) == "031"
    t.hand(1, "pos-4")
    assert t.said("place.none", "hand:1", place=4)
    t.set_number(2, "930")
    t.field("pos-5")
    assert t.said("place.none", "speaker", place=5)


def test_unknown_tag_and_unknown_reader_change_nothing():
    t = Table()
    before = t.state
    t.feed(__import__("kikimimi.games.base", fromlist=["Scan"]).Scan("hand:1", None, "04aa"))
    assert t.state == before and t.said("tap.unknown_tag", "hand:1")
    t.feed(__import__("kikimimi.games.base", fromlist=["Scan"]).Scan("hand:3", "digit-1-1"))
    assert t.state == before and t.says() == [] and isinstance(t.effects[0], Alert)


# -- Judging (the source's and the contract's examples) ----------------------------------------------


def test_judging_examples():
    assert judge("031", "930") == (1, 1)
    assert judge("031", "071") == (2, 0)
    assert slash("634") == 3


def test_a_judged_call_is_said_and_recorded():
    t = Table().start("031", "031")
    t.call("930")
    # The judgement and the seat that calls next, one phrase: the next seat does not wait behind the judgement.
    assert t.said("call.judged_next", "speaker", eat=1, bite=1, seat=2)
    assert t.said("call.digit", "speaker", digit=0)  # the call itself: each digit echoed at its tap
    assert not t.said("turn.next")
    t.call("071")
    assert t.said("call.judged_next", eat=2, bite=0, seat=1)
    assert t.report["calls"] == [{"seat": 1, "call": "930", "eat": 1, "bite": 1},
                                 {"seat": 2, "call": "071", "eat": 2, "bite": 0}]
    assert t.report["numbers"] == {"1": "031", "2": "031"}


# -- Phase set ----------------------------------------------------------------------------------------


def test_set_phase_entry_refusal_and_ready():
    t = Table()
    t.hand(1, digit(0, 1))  # a leading 0 is fine
    t.hand(1, digit(0, 1))
    assert t.said("set.repeated", "hand:1", digit=0) and t.report["entry"] == "0"
    t.hand(1, digit(3, 1))
    assert t.report["entry"] == "03"
    t.hand(1, digit(1, 1))
    assert t.said("set.number_set", "hand:1", number="031") and t.said("set.ready", "speaker", seat=1)
    assert t.report["numbers"] == {"1": "031", "2": None} and t.report["phase"] == "set"
    assert t.report["turn"] is None and t.report["step"] is None and t.report["calls_left"] is None


def test_set_phase_clear_empties_or_reopens_and_field_is_refused():
    t = Table()
    t.hand(2, digit(5, 2))
    t.hand(2, "ctl-clear")
    assert t.report["entry"] == "" and t.said("set.cleared", "hand:2")
    t.hand(2, "ctl-clear")
    assert t.said("clear.nothing", "hand:2")
    t.set_number(1, "123")
    t.hand(1, "ctl-clear")
    assert t.said("set.not_ready", "speaker", seat=1) and t.state.number(1) is None
    t.field(digit(1))
    assert t.said("set.field", "speaker") and t.state.phase == "set"
    t.set_number(1, "456")
    t.set_number(2, "789")
    assert t.said("play.start", "speaker", seat=1)
    r = t.report
    assert (r["phase"], r["turn"], r["step"], r["calls_left"]) == ("play", 1, "call", 1)


def test_first_names_the_first_caller():
    t = Table(first=2).start("123", "456")
    assert t.said("play.start", seat=2) and t.state.turn == 2


# -- A turn -------------------------------------------------------------------------------------------


def test_call_echo_repeat_and_clear():
    t = Table().start("123", "456")
    fx = t.field(digit(7))
    assert t.said("call.digit", "speaker", digit=7) and fx
    t.field(digit(7))
    assert t.said("call.repeated", "speaker") and t.report["entry"] == "7"
    assert "digit" not in t.says("call.repeated")[0].params  # the speaker never names a refused digit
    t.hand(1, "ctl-clear")
    assert t.said("call.cleared", "speaker", seat=1) and t.report["entry"] == ""
    t.hand(2, "ctl-clear")
    assert t.said("clear.not_now", "hand:2")


def test_numeron_wins_at_once_and_the_end_answers_game_over():
    t = Table().start("123", "456")
    t.call("456")
    assert t.said("call.numeron", call="456", seat=1)  # the winner, with the winning call
    assert t.said("game.numbers", number1="123", number2="456")
    over = [e for e in t.effects if isinstance(e, GameOver)]
    assert over and over[0].outcome.winners == (1,) and over[0].outcome.scores == {1: 1, 2: 0}
    assert t.report["result"] == {"winner": 1, "calls": {"1": 1, "2": 0}}
    t.field(digit(1))
    assert t.said("game.over", "speaker")
    t.hand(2, digit(1))
    assert t.said("game.over", "hand:2")
    t.hand(2, "ctl-repeat")
    assert t.said("repeat.number", "hand:2", number="456")


# -- Items ------------------------------------------------------------------------------------------


def items_table(n1: str = "3809", n2: str = "1673", items: int = 7, **kw) -> Table:
    return Table(digits=len(n1), items=items, **kw).start(n1, n2)


def test_high_low_example():
    t = items_table("1673", "3809")
    t.item(1, "high-low")
    answers = [(s.params["pos"], s.params["cls"]) for s in t.says("highlow.answer", "speaker")]
    assert answers == [("thousands", "low"), ("hundreds", "high"), ("tens", "low"), ("ones", "high")]
    assert t.report["item_log"] == [{"seat": 1, "item": "high-low", "answer": ["LOW", "HIGH", "LOW", "HIGH"]}]
    assert t.report["items_used"] == {"1": ["high-low"], "2": []}


def test_slash_example():
    t = items_table("1673", "6354")
    t.item(1, "slash")
    assert t.said("slash.answer", slash=3)
    assert t.report["item_log"][-1] == {"seat": 1, "item": "slash", "answer": 3}


def test_target_examples():
    t = items_table("1673", "0782")
    t.item(1, "target")
    assert t.report["step"] == "target"
    t.field("pos-1")
    assert t.said("tap.refused") and t.report["step"] == "target"  # a wrong tap: the step waits
    t.field(digit(2))
    assert t.said("target.in", digit=2, pos="ones")
    assert t.report["item_log"][-1] == {"seat": 1, "item": "target", "digit": 2, "place": 4}
    t.call("1234")
    t.call("5678")
    t.item(1, "target")
    assert t.said("item.used", item="target")
    t2 = items_table("1673", "0782")
    t2.item(1, "target")
    t2.field(digit(3))
    assert t2.said("target.out", digit=3)
    assert t2.report["item_log"][-1] == {"seat": 1, "item": "target", "digit": 3, "place": None}


def test_change_examples():
    t = items_table("1673", "0245")
    t.item(1, "change")
    t.field("pos-2")
    assert t.said("change.place", "speaker", pos="hundreds") and t.said("change.ask", "hand:1")
    t.hand(1, digit(2, 1))  # LOW for a HIGH place: refused, the step waits
    assert t.said("change.refused", "hand:1", digit=2) and t.report["step"] == "change_digit"
    t.hand(1, digit(7, 1))  # 7 is already in the number
    assert t.said("change.refused", "hand:1", digit=7)
    t.hand(1, digit(8, 1))
    assert t.state.number(1) == "1873" and t.said("change.private", "hand:1", number="1873")
    assert t.said("change.done", "speaker", seat=1, pos="hundreds", cls="high")
    assert t.report["item_log"][-1] == {"seat": 1, "item": "change", "place": 2, "class": "HIGH"}
    t2 = items_table("1673", "0245")
    t2.item(1, "change")
    t2.field("pos-1")
    t2.hand(1, digit(2, 1))
    assert t2.state.number(1) == "2673" and t2.said("change.done", pos="thousands", cls="low")


def test_change_impossible_is_cancelled():
    t = Table(digits=5, items=2).start("01234", "56789")
    t.item(1, "change")
    t.field("pos-3")
    assert t.said("change.place", "speaker") and t.said("change.impossible", "hand:1")
    for v in range(10):
        t.hand(1, digit(v, 1))
        assert t.report["step"] == "change_digit"
    t.hand(1, "ctl-clear")
    assert t.said("item.cancelled", "speaker", seat=1, item="change")
    assert t.report["items_used"]["1"] == [] and t.report["step"] == "call"
    t.item(1, "slash")  # cancelled unspent: an item may still be used this turn
    assert t.said("slash.answer", slash=4)


def test_move_example_and_the_amount_stays_private():
    t = items_table("1907", "2345")
    t.item(1, "move")
    t.field("pos-4")
    assert t.said("move.from", "speaker", pos="ones")
    t.field("pos-4")
    assert t.said("move.same_place") and t.report["step"] == "move_to"
    t.field("pos-1")
    assert t.said("move.to", "speaker", pos="thousands") and t.said("move.ask", "hand:1")
    t.hand(1, digit(1, 1))  # 1 gives 2906? no: 7-1=6, 1+1=2 -> 2906, legal; try an illegal one first
    assert t.state.number(1) == "2906"
    t2 = items_table("1907", "2345")
    t2.item(1, "move")
    t2.field("pos-4")
    t2.field("pos-1")
    t2.hand(1, digit(8, 1))  # 7 - 8 < 0
    assert t2.said("move.refused", "hand:1", digit=8) and t2.report["step"] == "move_amount"
    t2.hand(1, digit(2, 1))
    assert t2.state.number(1) == "3905"
    assert t2.said("move.done", "speaker", seat=1, pos="ones", pos2="thousands")
    assert all("digit" not in s.params for s in t2.says(to="speaker"))  # the 2 is never said
    assert t2.report["item_log"][-1] == {"seat": 1, "item": "move", "from": 4, "to": 1}


def test_move_without_a_legal_amount_is_cancelled():
    t = items_table("0789", "1234")
    t.item(1, "move")
    t.field("pos-1")  # the 0 cannot give anything
    t.field("pos-2")
    assert t.said("move.impossible", "hand:1")
    t.hand(1, "ctl-clear")
    assert t.said("item.cancelled", item="move") and t.report["items_used"]["1"] == []


def test_shuffle_reorders_privately_and_a_feint_is_legal():
    t = items_table("4091", "2345")
    t.item(1, "shuffle")
    assert t.said("shuffle.prompt", "hand:1") and t.report["step"] == "shuffle"
    t.hand(1, digit(0, 1))
    t.hand(1, digit(0, 1))
    assert t.said("shuffle.refused", "hand:1", digit=0)
    t.hand(1, digit(5, 1))
    assert t.said("shuffle.refused", "hand:1", digit=5) and t.report["entry"] == "0"
    t.hand(1, "pos-1")
    assert t.said("step.refused", "hand:1") and t.said("hear.place", "hand:1", pos="thousands", digit=4)
    for d in "914":
        t.hand(1, digit(d, 1))
    assert t.state.number(1) == "0914" and t.said("shuffle.private", "hand:1", number="0914")
    assert t.said("shuffle.done", "speaker", seat=1)
    assert t.report["item_log"][-1] == {"seat": 1, "item": "shuffle"}
    t2 = items_table("4091", "2345")
    t2.item(1, "shuffle")
    for d in "4091":
        t2.hand(1, digit(d, 1))
    assert t2.state.number(1) == "4091" and t2.said("shuffle.done")


def test_double_reveal_two_calls_and_no_item_between():
    t = items_table("1234", "5678")
    t.item(1, "double")
    assert t.said("double.prompt", "speaker", seat=2) and t.report["step"] == "double_choice"
    assert t.report["turn"] == 1
    t.field("pos-2")
    assert t.said("tap.refused", "speaker")  # any field tap is refused
    t.hand(2, digit(3, 2))
    assert t.said("double.refused", "hand:2") and t.said("hear.digit", "hand:2", digit=3)
    t.hand(2, "pos-2")
    assert t.said("double.reveal", "speaker", seat=1, pos="hundreds", digit=2)
    r = t.report
    assert r["revealed"] == {"1": {"2": 2}, "2": {}} and r["calls_left"] == 2
    assert r["item_log"] == [{"seat": 1, "item": "double", "place": 2, "digit": 2}]
    t.call("9012")
    assert t.said("call.again", seat=1) and t.report["calls_left"] == 1
    t.item(1, "slash")
    assert t.said("item.not_now")
    t.call("9013")
    assert t.said("call.judged_next", seat=2)


def test_double_numeron_on_the_first_call_ends_the_game():
    t = items_table("1234", "5678")
    t.item(1, "double")
    t.hand(2, "pos-1")
    t.call("5678")
    assert t.state.phase == "over" and t.report["result"]["winner"] == 1


def test_item_limits():
    t = items_table("1234", "5678", items=1)
    t.item(2, "slash")
    assert t.said("item.not_yours")
    t.field(digit(9))
    t.item(1, "slash")
    assert t.said("item.not_now")  # only before the call
    t.hand(1, "ctl-clear")
    t.item(1, "slash")
    assert t.said("slash.answer")
    t.item(1, "target")
    assert t.said("item.not_now")  # one per turn
    t.call("9012")
    t.call("9012")
    t.item(1, "target")
    assert t.said("item.no_more")  # at most `items` in all
    t0 = Table(digits=4).start("1234", "5678")
    t0.item(1, "slash")
    assert t0.said("item.none")


def test_ctl_clear_cancels_an_item_in_progress_unspent():
    t = items_table("1234", "5678")
    t.item(1, "double")
    t.hand(1, "ctl-clear")
    assert t.said("item.cancelled", item="double") and t.report["step"] == "call"
    assert t.report["items_used"]["1"] == [] and t.report["revealed"]["1"] == {}


# -- Turn timer (D14) ---------------------------------------------------------------------------------


def test_timeout_drops_the_call_and_passes():
    t = Table().start("123", "456")
    t.field(digit(7))
    t.referee("timeout")
    assert t.said("timeout.passed", seat=1) and t.said("turn.next", seat=2)
    assert t.report["turn"] == 2 and t.report["entry"] == "" and t.report["calls"] == []


def test_timeout_cancels_an_item_and_loses_doubles_second_call():
    t = items_table("1234", "5678")
    t.item(1, "move")
    t.field("pos-1")
    t.referee("timeout")
    assert t.report["items_used"]["1"] == [] and t.report["turn"] == 2
    t.item(1, "double")  # seat 1's tag on seat 2's turn
    assert t.said("item.not_yours")
    t.call("9876")
    t.item(1, "double")
    t.hand(2, "pos-3")
    t.call("9012")
    t.referee("timeout")
    assert t.report["turn"] == 2 and t.report["calls_left"] == 1
    assert t.report["items_used"]["1"] == ["double"]


def test_timeout_during_doubles_choice_chooses_the_first_place():
    t = items_table("1234", "5678")
    t.item(1, "double")
    t.referee("timeout")
    assert t.said("timeout.double", seat=2) and t.said("double.reveal", seat=1, pos="thousands", digit=1)
    assert t.report["calls_left"] == 2 and t.report["turn"] == 1


@pytest.mark.parametrize("when", ["set", "over", "no clock"])
def test_timeout_changes_nothing_in_set_after_the_end_or_without_clock(when):
    t = Table(turn_seconds=0 if when == "no clock" else 60)
    if when != "set":
        t.start("123", "456")
    if when == "over":
        t.call("456")
    before = t.state
    t.referee("timeout")
    assert t.state == before and t.says() == []


# -- Hearing (D15) --------------------------------------------------------------------------------------


def test_hearing_idle_hand_taps():
    t = items_table("1234", "5678", items=2)
    t.hand(2, digit(4, 2))
    assert t.said("hear.digit", "hand:2", digit=4)
    t.hand(2, "item-slash-2")
    assert t.said("hear.item", "hand:2", item="slash", seat=2)
    t.hand(2, "pos-3")
    assert t.said("hear.place", "hand:2", pos="tens", digit=7)
    t.item(1, "slash")
    t.hand(2, "item-slash-1")
    assert t.said("hear.item_spent", "hand:2", item="slash", seat=1)
    t0 = Table()
    t0.hand(1, "pos-1")
    assert t0.said("hear.place_not_set", "hand:1", pos="hundreds")


def test_ctl_repeat_number_and_last_five_calls():
    t = Table().start("123", "456")
    t.hand(1, "ctl-repeat")
    assert t.said("repeat.number", "hand:1", number="123") and t.said("repeat.no_calls")
    for call in ("789", "780", "781", "782", "783", "784"):
        t.call(call)
    t.hand(2, "ctl-repeat")
    said = t.says("repeat.call", "hand:2")
    assert [s.params["call"] for s in said] == ["780", "781", "782", "783", "784"]
    t.field("ctl-repeat")
    assert t.said("tap.refused", "speaker")
    Table().hand(1, "ctl-repeat")


def test_ctl_repeat_before_set():
    t = Table()
    t.hand(1, "ctl-repeat")
    assert t.said("repeat.not_set", "hand:1")


# -- The referee -------------------------------------------------------------------------------------


def test_referee_end_and_unknown_actions():
    t = Table().start("123", "456")
    t.referee("forgot")
    assert t.said("referee.refused") and any(isinstance(e, Alert) and e.key == "referee.refused" for e in t.effects)
    t.referee("end")
    over = [e for e in t.effects if isinstance(e, GameOver)]
    assert over and over[0].outcome.reason == "referee" and over[0].outcome.winners == ()
    assert t.said("game.numbers", number1="123", number2="456")
    assert t.report["result"] == {"winner": None, "calls": {"1": 0, "2": 0}}
    t.referee("end")
    assert t.said("referee.refused")


# -- The state report ----------------------------------------------------------------------------------


def test_report_keys_are_the_contracts():
    t = Table()
    assert set(t.report) >= {"game", "phase", "turn", "step", "calls_left", "entry", "digits", "numbers",
                             "calls", "items_used", "item_log", "revealed", "result"}
    import json

    json.dumps(t.report)


# -- Privacy --------------------------------------------------------------------------------------------


def test_the_privacy_check_catches_a_number_or_digit_out_of_place():
    from kikimimi.games.base import Say, Scan
    from kikimimi.games.numeron.invariants import privacy_leaks

    t = Table().start("123", "456")
    s = t.state
    tap = Scan("hand:1", "digit-9-1")
    assert privacy_leaks(s, tap, [Say("speaker", "repeat.number", {"number": "123"})], s)
    assert privacy_leaks(s, tap, [Say("speaker", "game.numbers", {"number1": "123", "number2": "456"})], s)
    assert privacy_leaks(s, tap, [Say("hand:2", "hear.digit", {"digit": 9})], s)
    assert privacy_leaks(s, tap, [Say("hand:1", "repeat.number", {"number": "456"})], s)
    assert privacy_leaks(s, tap, [Say("hand:1", "hear.place", {"pos": "ones", "digit": 6})], s)
    assert privacy_leaks(s, Scan("field", "digit-9-3"), [Say("speaker", "call.digit", {"digit": 4})], s)
    assert not privacy_leaks(s, tap, [Say("hand:1", "hear.digit", {"digit": 9})], s)


def test_item_secrets_stay_on_the_users_earphone():
    t = items_table("1907", "2345")
    t.item(1, "move")
    t.field("pos-4")
    t.field("pos-1")
    t.hand(1, digit(2, 1))
    t.call("1234")
    t.item(2, "shuffle")
    for d in "5432":
        t.hand(2, digit(d, 2))
    spoken = [s for s in t.all if getattr(s, "to", None) == "speaker"]
    assert not any(s.params.get("number") for s in spoken)
    assert not any("5432" in str(s.params) or "3905" in str(s.params) for s in spoken)
    assert not any(getattr(s, "to", "") == "hand:2" and "3905" in str(s.params) for s in t.all)
