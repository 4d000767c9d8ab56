"""Random taps (junk included) and referee actions: apply never raises or mutates, privacy holds,
the report stays JSON, and `revealed` matches what the speaker said."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numeron_table import Table

from kikimimi.games.base import Referee, Say, Scan
from kikimimi.games.numeron.pieces import CONTROLS, PIECES

TAGS = [*PIECES, *CONTROLS, None, "pos-9", "digit-x-1", "item-foo-1", "heart-1"]
READERS = ["field", "hand:1", "hand:2", "hand:3", "table"]
# Weighted toward what moves a game on: field digits, items, places.
events = st.one_of(
    st.builds(Scan, st.sampled_from(["field"] * 3 + READERS), st.sampled_from(TAGS), st.none()),
    st.builds(Scan, st.just("field"), st.sampled_from([f"digit-{v}-3" for v in range(10)]), st.none()),
    st.builds(Scan, st.sampled_from(["hand:1", "hand:2"]),
              st.sampled_from([f"digit-{v}-1" for v in range(10)] + [f"pos-{k}" for k in range(1, 6)]
                              + ["ctl-clear", "ctl-repeat"]), st.none()),
    st.builds(Referee, st.sampled_from(["timeout", "timeout", "end", "forgot", "undo"]), st.just({})),
)


def _check(t: Table, ev) -> None:
    before = t.state
    t.feed(ev)  # asserts no mutation and no privacy leak
    json.dumps(t.report)
    for say in t.effects:
        if isinstance(say, Say) and say.key == "double.reveal":
            seat = say.params["seat"]
            assert before.number(seat) is not None
            assert str(say.params["digit"]) in before.number(seat)
            assert say.params["digit"] in t.report["revealed"][str(seat)].values()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events, max_size=60), st.sampled_from([("1234", "5678"), ("01234", "56789"), ("1907", "3809")]))
def test_random_taps_in_play_with_items(evs, numbers):
    t = Table(digits=len(numbers[0]), items=7).start(*numbers)
    for ev in evs:
        _check(t, ev)


@settings(max_examples=200, deadline=None)
@given(st.lists(events, max_size=50))
def test_random_taps_from_the_set_phase(evs):
    t = Table(digits=3)
    for ev in evs:
        _check(t, ev)


@settings(max_examples=100, deadline=None)
@given(st.lists(events, max_size=40))
def test_random_taps_in_practice(evs):
    t = Table(digits=4, practice=True, secret="0319")
    for ev in evs:
        _check(t, ev)
    assert t.state.number(1) is None or t.state.phase != "play"
