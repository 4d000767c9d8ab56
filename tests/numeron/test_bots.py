"""Bots play whole games through the same taps as players, from their seat's observation only."""

from __future__ import annotations

import pytest

from kikimimi.games.base import Scan
from kikimimi.games.numeron.bots import NumeronBots, next_call
from kikimimi.games.numeron.invariants import privacy_leaks
from kikimimi.games.numeron.judge import judge, tree, tree_calls
from kikimimi.games.numeron.solver import numbers
from kikimimi.games.registry import get_info

INFO = get_info("numeron")


def play(seed: int, humans=(), **raw):
    setup = INFO.prepare_setup(INFO.parse_setup(raw), __import__("random").Random(seed))
    game = INFO.game
    state = game.initial(setup)
    bots = INFO.new_bots(seed, setup)
    taps = []
    for _ in range(INFO.max_events):
        event = bots.next_event(state, humans)
        if event is None:
            break
        after, effects = game.apply(state, event)
        assert not privacy_leaks(state, event, effects, after)
        taps.append(event)
        state = after
    return state, taps


@pytest.mark.parametrize("raw", [{"digits": 3}, {"digits": 4}, {"digits": 4, "items": 3},
                                 {"digits": 5, "items": 7}, {"digits": 4, "practice": True}])
def test_bot_games_end_with_a_winner(raw):
    for seed in range(2):
        state, taps = play(seed, **raw)
        assert state.phase == "over" and state.winner in (1, 2), (raw, seed)
        assert all(isinstance(t, Scan) and t.reader in ("field", "hand:1", "hand:2") for t in taps)


def test_items_are_used_when_the_game_has_them():
    used = 0
    for seed in range(3):
        state, _ = play(seed, digits=4, items=3)
        used += len(state.used[0]) + len(state.used[1])
    assert used >= 3


def test_bots_wait_for_humans():
    state, taps = play(1, humans=(2,), digits=3)
    assert state.phase == "set" and all(t.reader == "hand:1" for t in taps)


def test_a_decision_does_not_depend_on_the_hidden_number():
    game = INFO.game
    setup = INFO.parse_setup({"digits": 4})
    calls = set()
    for other_number in ("0123", "9876", "5031"):
        state = game.initial(setup)
        for seat, number in ((1, "4567"), (2, other_number)):
            for d in number:
                state, _ = game.apply(state, Scan(f"hand:{seat}", f"digit-{d}-{seat}"))
        calls.add(NumeronBots(7, setup).next_event(state))
    assert len(calls) == 1


def test_the_shipped_trees_cover_every_secret_within_the_targets():
    for digits, average, worst in ((3, 5.00, 6), (4, 5.25, 7)):
        book = tree(digits)
        counts = [tree_calls(s, digits, book) for s in numbers(digits)]
        assert None not in counts
        assert sum(counts) / len(counts) <= average and max(counts) <= worst, digits


def test_the_runtime_rule_finds_a_number_after_items():
    log = [["item", 1, "high-low", {"answer": ["LOW", "HIGH", "LOW", "HIGH"]}]]
    secret = "3809"
    for _ in range(10):
        call = next_call(4, log, 1, __import__("random").Random(0))
        eat, bite = judge(secret, call)
        log.append(["call", 1, call, eat, bite])
        if eat == 4:
            break
    assert log[-1][2] == secret
