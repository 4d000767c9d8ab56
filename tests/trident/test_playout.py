"""Whole games on the rules' moves (no taps, no phrases): they end, and the pieces always add up."""

from __future__ import annotations

import random

from kikimimi.games.base import FIELD, Referee, Scan, hand
from kikimimi.games.trident.engine import Trident, legal_mask
from kikimimi.games.trident.invariants import check
from kikimimi.games.trident.pieces import PIECE_AT
from kikimimi.games.trident.playout import DRAW, basket_bit, best_suit, playout, random_policy, rule_policy
from kikimimi.games.trident.state import (
    CHOOSE_SUIT,
    DEAL,
    DRAWING,
    HAND_SIZE,
    OVER,
    SEATS,
    START,
    TridentState,
)


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


def _by_taps(seed: int, first: int, policies, rules: str = "competition") -> TridentState:
    """The same game as `playout(TridentState(...), policies, Random(seed).random)`, but every move made as the
    table makes it: a tap through `Trident.apply`, phrases and all. The random stream is consumed in the
    playout's order, so that the two paths see the same pieces and the same decisions."""
    rnd = random.Random(seed).random
    game = Trident()
    s = game.initial({"first": first, "rules": rules})
    while s.phase != OVER:
        if s.phase == DEAL:
            seat = next(x for x in SEATS if s.count(x) < HAND_SIZE)
            event = Scan(hand(seat), PIECE_AT[basket_bit(s, rnd)].id)
        elif s.phase == START:
            event = Scan(FIELD, PIECE_AT[basket_bit(s, rnd)].id)
        elif s.phase == DRAWING:
            event = Scan(hand(s.drawer), PIECE_AT[basket_bit(s, rnd)].id)
        elif s.phase == CHOOSE_SUIT:
            event = Scan(hand(s.turn), f"ctl-{best_suit(s.masks[s.turn])}")
        else:
            seat = s.turn
            if s.count(seat) <= 2 and not s.declared[seat - 1]:
                s, _ = game.apply(s, Scan(hand(seat), "ctl-trident"))
            choice = policies[seat](s, seat, legal_mask(s, seat), rnd)
            if choice > 0:
                event = Scan(FIELD, PIECE_AT[choice].id)
            elif choice == DRAW and (bit := basket_bit(s, rnd)):
                event = Scan(hand(seat), PIECE_AT[bit].id)
            else:
                event = Scan(hand(seat), "ctl-pass")
        s, effects = game.apply(s, event)
        assert check(s, event, effects) == []
    return s


def test_a_playout_ends_every_game_as_the_table_would():
    """The look-ahead's games (moves in place, no phrases) against the same games tapped through the engine:
    the same end, ranking, points and final state, or the bot would be optimising a different game."""
    mixes = ((random_policy,) * 3, (rule_policy,) * 3, (rule_policy, random_policy, rule_policy))
    for seed in range(150):
        mix = mixes[seed % 3]
        policies = (None, *mix)
        fast = TridentState(first=seed % 3 + 1, rules="competition")
        playout(fast, policies, random.Random(seed).random)
        tapped = _by_taps(seed, seed % 3 + 1, policies)
        assert fast.result == tapped.result, seed
        assert fast == tapped, seed
