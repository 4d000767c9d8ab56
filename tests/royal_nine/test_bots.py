"""Bots: reproducible, deciding from their seat's observation, leaving human seats alone."""

from __future__ import annotations

from game_table import play_bots

from kikimimi.games.base import Scan
from kikimimi.games.registry import get_info
from kikimimi.games.royal_nine.bots import expectimax_bots, greedy_bots, random_bots
from kikimimi.games.royal_nine.engine import RoyalNine
from kikimimi.games.royal_nine.solver import solve

GAME = RoyalNine()


def play(factory, seed, setup, humans=(), limit=600):
    return play_bots(GAME, factory(seed, setup), setup, humans, limit)


def test_the_same_seed_plays_the_same_game():
    a, ea = play(expectimax_bots, 7, {"rounds": 2})
    b, eb = play(expectimax_bots, 7, {"rounds": 2})
    assert ea == eb and GAME.report(a) == GAME.report(b) and GAME.is_over(a)


def test_every_bot_kind_finishes_a_game():
    for name in ("bot", "chatty", "greedy", "random"):
        info = get_info("royal-nine")
        bots = info.new_bots(3, {"first": 2, "tens": True, "rounds": 1}, name)
        state = GAME.initial({"first": 2, "tens": True, "rounds": 1})
        for _ in range(info.max_events):
            event = bots.next_event(state)
            if event is None:
                break
            state, _ = GAME.apply(state, event)
        assert GAME.is_over(state), name


def test_the_bot_places_the_solvers_best_placement():
    setup = {"rounds": 1}
    bots = expectimax_bots(11, setup)
    state = GAME.initial(setup)
    while state.phase != "place1":
        state, _ = GAME.apply(state, bots.next_event(state))
    hand = sorted(state.hand(1))
    best = solve({}, hand, state.unseen(), 4).best()
    while state.phase == "place1":
        state, _ = GAME.apply(state, bots.next_event(state))
    assert {card: state.grid(1).index(card) for card in hand} == best


def test_bots_decide_from_the_observation_only():
    # Two states that differ only in the face-down common card give the same placement taps.
    setup = {"rounds": 1}
    state, _ = play(expectimax_bots, 5, setup, limit=18)  # common + 16 dealt + 1st selection
    assert state.phase == "place1"
    other_common = next(c for c in state.unseen() if c != state.common)
    twin = state.__class__(**{**{f: getattr(state, f) for f in state.__dataclass_fields__}, "common": other_common})
    assert expectimax_bots(1, setup).next_event(state) == expectimax_bots(1, setup).next_event(twin)


def test_human_seats_are_left_alone_and_nobody_deals_for_them():
    state, events = play(expectimax_bots, 2, {}, humans=(1,))
    assert events == [] and state.phase == "common"
    # Once people have dealt, the bot places for seat 2 only.
    state = GAME.initial({})
    taps = [Scan("field", "red-9")] + [Scan("hand:1", c) for c in ("red-1", "red-2", "red-3", "red-4")]
    taps += [Scan("hand:2", c) for c in ("blue-1", "blue-2", "blue-3", "blue-4")]
    for tap in taps:
        state, _ = GAME.apply(state, tap)
    bots = greedy_bots(1, {})
    seen = []
    while (event := bots.next_event(state, humans=(1,))) is not None:
        seen.append(event)
        state, _ = GAME.apply(state, event)
    assert {e.reader for e in seen} == {"hand:2"} and state.placed(2) == 4 and state.placed(1) == 0


def test_random_bots_play_legal_taps():
    state, events = play(random_bots, 3, {"rounds": 1})
    assert GAME.is_over(state) and len(events) == 1 + 16 + 32 + 1
