"""A seat's notes of what the others did (inference.py): true of the real hands, taken only from what the
seat heard, and used by the bot's deal of the unseen pieces."""

from __future__ import annotations

import contextlib
import random

from kikimimi.games.trident.engine import play
from kikimimi.games.trident.inference import HandNotes, heard, would_play
from kikimimi.games.trident.pieces import BIT, FULL_MASK, PIECES, UNKNOWN_MASK
from kikimimi.games.trident.playout import playout, random_policy, rule_policy
from kikimimi.games.trident.state import TURN, TridentState
from kikimimi.games.trident.strong import TreeSearch, look_ahead_players, seat_view, world


def _misfits(policy, games: int) -> tuple[int, int, int]:
    """Over `games` games of `policy` at every seat, watched by one seat's notes: how many groups at the seats'
    turns could not be filled from the real hand's pieces they allow, how many were checked, how many pieces
    the groups ruled out in all."""
    misfits = checked = ruled_out = 0
    for index in range(games):
        notes = HandNotes(index % 3 + 1)

        def watch(s: TridentState, notes: HandNotes = notes) -> None:
            nonlocal misfits, checked, ruled_out
            notes.see(s)
            if s.phase != TURN:
                return
            for seat, groups in notes.hands.items():
                assert sum(g.count for g in groups) == s.count(seat)
                for g in groups:
                    checked += 1
                    ruled_out += g.excluded.bit_count()
                    misfits += (s.masks[seat] & ~g.excluded).bit_count() < g.count

        playout(TridentState(first=index % 3 + 1), (None, policy, policy, policy), random.Random(index).random, watch)
    return misfits, checked, ruled_out


def test_the_notes_hold_for_the_real_hands_of_random_legal_players():
    misfits, checked, ruled_out = _misfits(random_policy, 40)
    assert checked > 1000 and ruled_out > 5 * checked  # the notes say something: several pieces ruled out a group
    assert misfits == 0


def test_the_notes_rarely_miss_for_rule_based_players():
    # Which group a played piece came from is a guess when several allow it; a rule-based player, who keeps
    # attack pieces and draws, now and then shows the guess wrong (3 groups of 60,623 over 300 games).
    misfits, checked, _ = _misfits(rule_policy, 40)
    assert checked > 1000 and misfits <= checked // 1000


def test_what_a_seat_heard_does_not_depend_on_the_other_hands():
    s = TridentState(phase=TURN, turn=1, required="heart")
    s.masks = [0, BIT["heart-1"] | BIT["spade-2"], BIT["clover-3"] | BIT["draw2-1"], BIT["diamond-4"]]
    other = s.copy()
    other.masks = [0, s.masks[1], BIT["clover-5"] | BIT["change-draw4"], BIT["diamond-6"]]
    assert heard(other, 1) == heard(s, 1)
    assert heard(other, 2) != heard(s, 2)


def test_a_seat_that_draws_in_its_turn_had_nothing_it_would_play():
    s = TridentState(phase=TURN, turn=2, required="spade")
    s.masks = [0, BIT["heart-1"] | BIT["heart-2"], BIT["clover-3"] | BIT["heart-4"] | BIT["draw4-1"], BIT["diamond-4"]]
    notes = HandNotes(1)
    notes.see(s)
    after = s.copy()
    after.masks[2] |= BIT["spade-5"]
    after.drew_bit = BIT["spade-5"]
    notes.see(after)
    old, drawn = notes.groups(2)
    assert (old.count, drawn.count) == (3, 1)
    assert old.excluded == would_play("spade", 3) and not old.excluded & BIT["draw4-1"]  # attacks may be kept
    assert drawn.excluded == 0
    # The world the bot deals never gives seat 2's three old pieces a spade, a change or an Unknown.
    view = seat_view(after, 1)
    for n in range(30):
        hand = world(view, random.Random(n), notes).masks[2]
        assert hand.bit_count() == 4 and (hand & would_play("spade", 3)).bit_count() <= 1


def test_after_a_turn_around_the_seat_knows_the_hand_it_handed_on():
    s = TridentState(phase=TURN, turn=1, required="heart")
    mine = BIT["heart-1"] | BIT["clover-2"] | BIT["unknown-change-spade"] | BIT["unknown-turn-right"]
    s.masks = [0, mine, BIT["spade-3"] | BIT["spade-4"], BIT["diamond-5"]]
    notes = HandNotes(1)
    notes.see(s)
    after = s.copy()
    play(after, 1, PIECES["unknown-turn-right"])  # every hand to the left neighbour: seat 1's goes to seat 2
    notes.see(after)
    known, unknown = notes.groups(2)
    assert (known.count, known.excluded) == (2, FULL_MASK & ~(BIT["heart-1"] | BIT["clover-2"]))
    assert (unknown.count, unknown.excluded) == (1, FULL_MASK & ~UNKNOWN_MASK)


def test_the_tree_search_decides_from_the_seat_view_and_its_notes_only():
    rnd = random.Random(3).random
    for seed in range(3):
        s = TridentState(first=seed + 1)
        notes = HandNotes(1)
        stops: list[TridentState] = []

        def stop(state, seat, legal, r, stops=stops):
            stops.append(state.copy())
            raise StopIteration

        with contextlib.suppress(StopIteration):
            playout(s, (None, stop, random_policy, random_policy), rnd, notes.see)
        at = stops[0]
        swapped = at.copy()
        pool = [1 << i for i in range(54) if (1 << i) & (at.masks[2] | at.masks[3] | at.basket_mask)]
        random.Random(seed).shuffle(pool)
        swapped.masks[2] = sum(pool[:at.count(2)])
        swapped.masks[3] = sum(pool[at.count(2):at.count(2) + at.count(3)])
        assert seat_view(swapped, 1) == seat_view(at, 1)
        assert TreeSearch(iterations=24, seed=1).decide(seat_view(at, 1), notes) == \
            TreeSearch(iterations=24, seed=1).decide(seat_view(swapped, 1), notes)


def test_careless_attacks_tell_random_players_from_careful_ones():
    """The look-ahead plays the others as careful players until they throw an attack a careful player keeps."""
    shown = {}
    for name, policy in (("random", random_policy), ("rules", rule_policy)):
        careless = 0
        for index in range(60):
            notes = HandNotes(index % 3 + 1)
            playout(TridentState(first=index % 3 + 1), (None, policy, policy, policy), random.Random(index).random,
                    notes.see)
            careless += sum(notes.careless(x) for x in notes.hands)
        shown[name] = careless / 120
    assert shown["rules"] == 0  # the rule-based player keeps its attacks by the same test
    assert shown["random"] > 0.25  # a third of random players show it by the end of a game (0.33 here)
    s = TridentState(phase=TURN, turn=1, required="heart")
    notes = HandNotes(1)
    assert look_ahead_players(1, notes) == (None, random_policy, rule_policy, rule_policy)
    notes.careless_attacks[3] = 1
    assert look_ahead_players(1, notes) == (None, random_policy, rule_policy, random_policy)
    assert look_ahead_players(s.turn, None) == (None, random_policy, random_policy, random_policy)
