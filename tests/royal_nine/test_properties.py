"""Random taps (junk included) and referee actions from states that bot play reaches: apply never
raises, never changes its input, and every invariant holds, privacy above all."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kikimimi.games.base import Referee, Scan
from kikimimi.games.royal_nine.bots import chatty_bots
from kikimimi.games.royal_nine.cards import CARDS, CONTROLS
from kikimimi.games.royal_nine.engine import RoyalNine
from kikimimi.games.royal_nine.invariants import phrase_problems, privacy_leaks, state_problems

GAME = RoyalNine()
READERS = ("field", "hand:1", "hand:2", "hand:3", "table")
TAGS = (*CARDS, *CONTROLS, None, "heart-3", "cell-10")
taps = st.builds(Scan, st.sampled_from(READERS), st.sampled_from(TAGS), st.none() | st.just("04a1b2"))
referees = st.builds(Referee, st.sampled_from(("end", "reveal", "next", "undo", "forgot", "move")),
                     st.just({}))
events = st.lists(st.one_of(taps, taps, taps, referees), max_size=25)

_REACHED: dict[tuple[int, int, bool], object] = {}


def reached(seed: int, steps: int, tens: bool):
    """The state after `steps` chatty-bot events of a seeded game (cached: hypothesis revisits seeds)."""
    key = (seed, steps, tens)
    if key not in _REACHED:
        bots = chatty_bots(seed, {})
        state = GAME.initial({"tens": tens, "rounds": 2})
        for _ in range(steps):
            event = bots.next_event(state)
            if event is None:
                break
            state, _ = GAME.apply(state, event)
        _REACHED[key] = state
    return _REACHED[key]


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 5), st.integers(0, 120), st.booleans(), events)
def test_random_taps_keep_every_invariant(seed, steps, tens, evs):
    state = reached(seed, steps, tens)
    for event in evs:
        before = copy.deepcopy(state)
        new, effects = GAME.apply(state, event)
        assert state == before and state.result == before.result  # the input is never changed
        problems = privacy_leaks(state, event, effects, new) + phrase_problems(effects) + state_problems(new)
        assert not problems, (event, problems)
        summary = GAME.summary(new)  # said after an undo or on resuming: public, and as private as the rest
        assert not privacy_leaks(new, Referee("undo"), summary, new) + phrase_problems(summary)
        report = GAME.report(new)
        assert set(report) >= {"game", "phase", "result"}
        if not new.opened and new.common is not None:
            for seat in (1, 2, None):
                view = GAME.observe(new, seat)
                assert view["common"] is None
        state = new


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_bot_games_end_and_never_leak(seed):
    bots = chatty_bots(seed, {})
    state = GAME.initial({"rounds": 1, "tens": seed % 2 == 1})
    for _ in range(400):
        event = bots.next_event(state)
        if event is None:
            break
        new, effects = GAME.apply(state, event)
        assert not privacy_leaks(state, event, effects, new) + phrase_problems(effects) + state_problems(new)
        state = new
    assert GAME.is_over(state)
