"""The Monte-Carlo and rule-based bots: they decide from their seat's view only, and play whole games
through the engine like any player."""

from __future__ import annotations

import random

from kikimimi.games.trident.bots import rule_bots, strong_bots
from kikimimi.games.trident.engine import Trident, legal_mask
from kikimimi.games.trident.invariants import check
from kikimimi.games.trident.pieces import BASIC_MASK, BIT, FULL_MASK, UNKNOWN_MASK
from kikimimi.games.trident.playout import DRAW, playout, random_policy
from kikimimi.games.trident.state import TURN, TridentState
from kikimimi.games.trident.strong import MonteCarlo, choices, seat_view, world


def _a_turn(seed: int) -> TridentState:
    """A random game stopped at some seat's turn."""
    rnd = random.Random(seed).random
    stop_at = 10 + seed % 20
    seen = []

    class Stop(Exception):
        pass

    def policy(s, seat, legal, r):
        seen.append(seat)
        if len(seen) >= stop_at:
            raise Stop
        return random_policy(s, seat, legal, r)

    s = TridentState(first=seed % 3 + 1)
    try:
        playout(s, (None, policy, policy, policy), rnd)
    except Stop:
        return s
    return _a_turn(seed + 100)


def test_the_decision_does_not_depend_on_the_other_hands():
    for seed in range(6):
        s = _a_turn(seed)
        seat = s.turn
        a, b = (seat % 3) + 1, ((seat + 1) % 3) + 1
        # Another deal of the same unseen pieces: the other two hands and the basket mixed, counts kept.
        swapped = s.copy()
        pool = [bit for bit in (1 << i for i in range(54)) if bit & (s.masks[a] | s.masks[b] | s.basket_mask)]
        random.Random(seed).shuffle(pool)
        swapped.masks[a] = sum(pool[:s.count(a)])
        swapped.masks[b] = sum(pool[s.count(a):s.count(a) + s.count(b)])
        assert swapped.masks != s.masks or not pool
        assert seat_view(swapped, seat) == seat_view(s, seat)
        assert MonteCarlo(worlds=6, seed=1).decide(seat_view(s, seat)) == \
            MonteCarlo(worlds=6, seed=1).decide(seat_view(swapped, seat))


def test_a_seat_knows_its_unknowns_only_as_unknown():
    s = _a_turn(1)
    seat = s.turn
    s.masks[seat] |= BIT["unknown-turn-left"]
    other = s.copy()
    other.masks[seat] = s.masks[seat] & ~BIT["unknown-turn-left"] | BIT["unknown-change-clover"]
    for x in (1, 2, 3):
        if x != seat:
            other.masks[x] &= ~BIT["unknown-change-clover"]
            other.masks[x] |= s.masks[x] & BIT["unknown-change-clover"] and BIT["unknown-turn-left"]
    assert seat_view(other, seat) == seat_view(s, seat)


def test_worlds_keep_what_the_seat_knows():
    s = _a_turn(3)
    view = seat_view(s, s.turn)
    for n in range(20):
        w = world(view, random.Random(n))
        assert [w.count(x) for x in (1, 2, 3)] == [s.count(x) for x in (1, 2, 3)]
        assert w.masks[s.turn] & ~UNKNOWN_MASK == s.masks[s.turn] & ~UNKNOWN_MASK
        assert w.field_mask == s.field_mask and w.basket_count == s.basket_count
        assert choices(w, s.turn)


def test_rule_based_and_monte_carlo_bots_play_whole_games_through_apply():
    game = Trident()
    for factory in (rule_bots, strong_bots):
        bots = factory(5, {})
        state = game.initial({"first": 2, "rules": "competition"})
        turns = 0
        for _ in range(3000):
            event = bots.next_event(state)
            if event is None:
                break
            turns += state.phase == TURN
            state, effects = game.apply(state, event)
            assert check(state, event, effects) == []
            assert not state.penalties, state.penalties  # they never make a wrong play
        assert game.is_over(state) and turns > 5


def test_a_draw_with_a_play_open_is_weighed_only_by_the_reference_search():
    for seed in range(10):
        s = _a_turn(seed)
        if s.pending or s.drew_bit or not legal_mask(s, s.turn) or not s.basket_count:
            continue
        assert DRAW in choices(s, s.turn, open_draw=True) and len(choices(s, s.turn, open_draw=True)) >= 2
        assert DRAW not in choices(s, s.turn)  # the player: no gain hiding hands, more points left
        return
    raise AssertionError("no turn with a play open among the seeds")


def test_the_deal_gives_opponents_fewer_always_playable_pieces_than_a_uniform_deal():
    """Players shed what they can always play; the bot's deal of the unseen pieces says so (HOLD_WEIGHT)."""
    s = _a_turn(4)
    view = seat_view(s, s.turn)
    rng = random.Random(0)
    pool = FULL_MASK & ~view.own_known & ~view.field_mask  # the unseen pieces, the seat's own Unknowns among them
    always_playable = pool & ~BASIC_MASK & ~UNKNOWN_MASK  # change, attack and Change Draw 4 pieces
    opponents = [x for x in (1, 2, 3) if x != s.turn]
    in_hands = sum(s.count(x) for x in opponents)
    uniform = always_playable.bit_count() * in_hands / (pool.bit_count() - view.own_unknowns)
    dealt = 0
    for _ in range(400):
        w = world(view, rng)
        dealt += sum((w.masks[x] & ~BASIC_MASK & ~UNKNOWN_MASK).bit_count() for x in opponents)
    assert dealt / 400 < 0.85 * uniform
