"""The turn clock hook, practice mode (prepare, the table's number, the solver's count), replay scripts,
undo through the generic Session, the console view."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from numeron_table import Table, digit

from kikimimi.games.base import GameOver, Referee, Scan
from kikimimi.games.numeron.clock import turn_clock
from kikimimi.games.numeron.judge import tree_calls
from kikimimi.games.numeron.practice import prepare
from kikimimi.games.registry import SetupError, get_info
from kikimimi.games.session import Session
from kikimimi.games.tableview import table_model

INFO = get_info("numeron")
SCRIPTS = Path(__file__).parent.parent / "scripts"


# -- the turn clock ----------------------------------------------------------------------------------


def test_clock_waits_for_the_seat_to_move_and_stops_otherwise():
    assert INFO.clock_function() is turn_clock
    t = Table(digits=4, items=2, turn_seconds=45)
    assert turn_clock(t.state) is None  # set phase
    t.start("1234", "5678")
    assert turn_clock(t.state) == (1, 45)
    t.item(1, "double")
    assert turn_clock(t.state) == (2, 45)  # DOUBLE's choice waits for the other seat
    t.hand(2, "pos-1")
    assert turn_clock(t.state) == (1, 45)
    t.call("9012")
    t.call("9013")
    assert turn_clock(t.state) == (2, 45)
    t.call("1234")
    assert turn_clock(t.state) is None  # over
    t0 = Table(turn_seconds=0).start("123", "456")
    assert turn_clock(t0.state) is None


# -- practice mode ----------------------------------------------------------------------------------------


def test_prepare_draws_the_secret_only_when_practice_has_none():
    setup = INFO.parse_setup({"digits": 4, "practice": True})
    drawn = INFO.prepare_setup(setup, random.Random(5))
    assert len(drawn["secret"]) == 4 and len(set(drawn["secret"])) == 4
    assert INFO.parse_setup(drawn) == drawn  # the drawn set-up is a valid journal line
    assert prepare({**setup, "secret": "0319"}, random.Random(1))["secret"] == "0319"
    plain = INFO.parse_setup({"digits": 4})
    assert INFO.prepare_setup(plain, random.Random(1)) == plain


@pytest.mark.parametrize("raw, why", [
    ({"secret": "012"}, "practice = true"),
    ({"practice": True, "secret": "0011"}, "distinct digits"),
    ({"practice": True, "digits": 4, "items": 2}, "no items"),
    ({"practice": True, "first": 2}, "first = 1"),
])
def test_practice_setup_checks(raw, why):
    with pytest.raises(SetupError, match=why):
        INFO.parse_setup(raw)


def test_practice_the_player_calls_the_table_judges_and_the_end_compares_with_the_solver():
    t = Table(digits=4, practice=True, secret="0319")
    assert t.report["phase"] == "play" and t.report["turn"] == 1 and t.report["numbers"]["2"] == "0319"
    t.call("1234")
    assert t.said("call.judged_next", eat=0, bite=2, seat=1)
    assert not any("0319" in str(s.params) for s in t.all)  # never spoken before the end
    t.referee("timeout")
    assert t.report["turn"] == 1
    assert turn_clock(t.state) is None
    t.call("0319")
    solver = tree_calls("0319", 4)
    assert solver is not None and t.said("practice.solver", count=solver) and t.said("practice.calls", count=2)
    assert t.said("game.number", seat=2, number="0319") and not t.said("game.number", seat=1)
    assert t.report["practice"] is True and t.report["solver_calls"] == solver
    over = [e for e in t.effects if isinstance(e, GameOver)][0]
    assert over.outcome.details["solver_calls"] == solver


def test_practice_without_a_drawn_secret_waits_for_the_tables_number_on_seat_2():
    t = Table(digits=3, practice=True)
    assert t.report["phase"] == "set"
    t.hand(1, digit(1, 1))
    assert t.said("hear.digit", "hand:1") and t.report["phase"] == "set"
    t.set_number(2, "031")
    assert t.said("practice.start") and t.report["turn"] == 1


# -- replay, undo, view ---------------------------------------------------------------------------------


def _play_script(name: str) -> Table:
    lines = [json.loads(line) for line in (SCRIPTS / name).read_text().splitlines() if line.strip()]
    setup = {k: v for k, v in lines[0].items() if k != "game"}
    t = Table(**setup)
    for line in lines[1:]:
        t.feed(Referee(line["referee"]) if "referee" in line else Scan(line["scan"], line["piece"]))
    return t


def test_seed_example_script():
    t = _play_script("numeron_seed_example.jsonl")
    r = t.report
    assert r["calls"][0] == {"seat": 1, "call": "930", "eat": 1, "bite": 1}
    assert r["calls"][4] == {"seat": 1, "call": "071", "eat": 2, "bite": 0}
    assert r["result"] == {"winner": 1, "calls": {"1": 4, "2": 3}}


def test_items_script():
    r = _play_script("numeron_items.jsonl").report
    assert [e["item"] for e in r["item_log"]] == ["high-low", "change", "double", "target"]
    assert r["numbers"]["2"] == "3609" and r["revealed"] == {"1": {"3": 7}, "2": {}}
    assert r["result"] == {"winner": 1, "calls": {"1": 4, "2": 1}}


def test_undo_through_the_session_restores_the_state():
    session = Session(INFO.game, INFO.parse_setup({"digits": 4, "items": 2}))
    for seat, number in ((1, "1234"), (2, "5678")):
        for d in number:
            session.feed(Scan(f"hand:{seat}", digit(d, seat)))
    before = session.state
    session.feed(Scan("field", "item-double-1"))
    session.feed(Scan("hand:2", "pos-2"))
    assert session.state.revealed[0] == ((2, 2),)
    session.feed(Referee("undo"))
    session.feed(Referee("undo"))
    assert session.state == before
    assert any(getattr(e, "key", "") == "turn.next" for e in INFO.game.summary(session.state))


def test_view_hides_numbers_unless_revealed():
    t = Table(digits=4, items=2).start("1234", "5678")
    t.item(1, "slash")
    t.call("9012")
    hidden, shown = drawn(t, reveal=False), drawn(t, reveal=True)
    assert "1234" not in hidden and "5678" not in hidden and "9012" in hidden
    assert "['1', '2', '3', '4']" in shown and "['5', '6', '7', '8']" in shown
    t2 = Table()
    t2.hand(1, digit(4, 1))
    assert "4" not in drawn(t2, reveal=False).replace("'digits', {'count': 3}", "")  # a number being set is private


def drawn(t, *, reveal: bool) -> str:
    """Numeron's view model (what both consoles draw) with its words' parameters, as text."""
    return repr(table_model(INFO.model_function(), t.report, INFO.game.observe(t.state, None), reveal=reveal,
                            seats=2))
