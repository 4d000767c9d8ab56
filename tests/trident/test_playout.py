"""Whole games on the rules' moves (no taps, no phrases): they end, and the pieces always add up."""

from __future__ import annotations

import random

from kikimimi.games.base import Referee
from kikimimi.games.trident.invariants import check
from kikimimi.games.trident.playout import playout, random_policy, rule_policy
from kikimimi.games.trident.state import OVER, TridentState


def test_random_and_rule_based_games_end_with_a_result_and_the_invariants_hold():
    rnd = random.Random(3).random
    endings = set()
    for index in range(200):
        policy = random_policy if index % 2 else rule_policy
        s = TridentState(first=index % 3 + 1, rules="competition" if index % 4 == 0 else "standard")
        moves = playout(s, (None, policy, rule_policy, random_policy), rnd)
        assert s.phase == OVER and s.result is not None and moves > 15
        assert check(s, Referee("none"), []) == []
        endings.add(s.result.reason)
    assert endings == {"out", "crash"}
