"""Whole Trident games played on the rules' moves, in place, without taps or phrases.

The engine's moves (`draw`, `play`, `pass_turn`, ...) take `fx=None` when nobody listens; here they are
driven by policies, one per seat: the engine bench plays random-legal games this way (the loop RLCard's
UNO game runs), and the bot (strong.py) plays its look-ahead games this way, every seat at random.

A policy is `policy(state, seat, legal_mask, random) -> int`: a piece's bit to play (one of `legal_mask`),
DRAW or PASS. It is asked only in the seat's own turn, after the declaration (every policy declares
whenever it may: the declaration costs nothing and saves a penalty).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kikimimi.games.trident.engine import choose_suit, declare, draw, legal_mask, pass_turn, play, start_piece
from kikimimi.games.trident.pieces import (
    ANSWERS_MASK,
    BASIC_MASK,
    BIT,
    FULL_MASK,
    PIECE_AT,
    PIECES,
    SUIT_MASK,
    SUITS,
    UNKNOWN_MASK,
)
from kikimimi.games.trident.state import CHOOSE_SUIT, DEAL, DRAWING, HAND_SIZE, START, TURN, TridentState

DRAW = 0
PASS = -1
Policy = Callable[[TridentState, int, int, Callable[[], float]], int]


def nth_bit(mask: int, n: int) -> int:
    """The n-th lowest set bit of `mask` (0-based), as a bit."""
    for _ in range(n):
        mask &= mask - 1
    return mask & -mask


def random_bit(mask: int, random: Callable[[], float]) -> int:
    """One set bit of a non-empty mask, uniformly."""
    return nth_bit(mask, int(random() * mask.bit_count()))


def basket_bit(s: TridentState, random: Callable[[], float]) -> int:
    """A random piece of the basket (0 when it is empty): a few picks first, the basket is usually large."""
    _, h1, h2, h3 = s.masks
    taken = h1 | h2 | h3 | s.field_mask
    for _ in range(6):
        bit = _BITS[int(random() * 54)]
        if not bit & taken:
            return bit
    basket = FULL_MASK & ~taken
    return random_bit(basket, random) if basket else 0


_BITS = tuple(1 << i for i in range(54))


def best_suit(held: int) -> str:
    """The suit of which the hand holds the most basic pieces (the suit a change should name)."""
    return max(SUITS, key=lambda suit: (held & SUIT_MASK[suit]).bit_count())


def playout(s: TridentState, policies: Sequence[Policy | None], random: Callable[[], float],
            watch: Callable[[TridentState], None] | None = None) -> int:
    """Play `s` to the end in place (`policies[seat]` for each seat 1-3); returns the number of moves.
    `watch`, if given, sees the state before every step and at the end (a player's notes of what it heard)."""
    moves = 0
    pieces, legal_of, basket = PIECE_AT, legal_mask, basket_bit  # locals: this loop is the bench's hot path
    while True:
        moves += 1
        if watch is not None:
            watch(s)
        phase = s.phase
        if phase == TURN:
            seat: int = s.turn  # type: ignore[assignment]  # a turn always has a seat to move
            if s.masks[seat].bit_count() <= 2 and not s.declared_mask & (1 << (seat - 1)):
                declare(s, seat)
            choice = policies[seat](s, seat, legal_of(s, seat), random)  # type: ignore[misc]  # seats 1-3 are set
            if choice > 0:
                play(s, seat, pieces[choice])
            elif choice == DRAW and (bit := basket(s, random)):
                draw(s, seat, pieces[bit])
            else:
                pass_turn(s, seat)  # a pass with nothing to draw is a crash
        elif phase == DRAWING:
            draw(s, s.drawer, pieces[basket(s, random)])  # type: ignore[arg-type]  # drawing has a drawer
        elif phase == CHOOSE_SUIT:
            choose_suit(s, best_suit(s.masks[s.turn]))  # type: ignore[index]  # the Change Draw 4's player
        elif phase == START:
            start_piece(s, pieces[basket(s, random)])
        elif phase == DEAL:
            for deal_seat in (1, 2, 3):  # each seat takes its five
                while s.phase == DEAL and s.masks[deal_seat].bit_count() < HAND_SIZE:
                    draw(s, deal_seat, pieces[basket(s, random)])
                    moves += 1
            moves -= 1
        else:
            return moves - 1


# -- policies ---------------------------------------------------------------------------------------


def random_policy(s: TridentState, seat: int, legal: int, random: Callable[[], float]) -> int:
    """A random legal play, as the table's `perfect` bots play (RLCard's random agent, for the Trident)."""
    if s.pending:
        if not legal or random() >= 0.7:
            return PASS if random() < 0.5 else DRAW
    elif not legal:
        return PASS if s.drew_bit else DRAW
    for _ in range(int(random() * legal.bit_count())):  # random_bit, inline
        legal &= legal - 1
    return legal & -legal


_BY_KIND: dict[str, int] = {}
for _p in PIECES.values():
    _BY_KIND[_p.kind] = _BY_KIND.get(_p.kind, 0) | BIT[_p.id]
DRAW_ATTACKS = _BY_KIND["draw2"] | _BY_KIND["draw4"]
CHANGE_DRAW4 = _BY_KIND["change-draw4"]
CHANGES = {suit: _BY_KIND[f"change-{suit}"] for suit in SUITS}  # the change pieces a hand reader names
KNOWN_CHANGES = CHANGES["heart"] | CHANGES["diamond"] | CHANGES["spade"] | CHANGES["clover"]
assert DRAW_ATTACKS | CHANGE_DRAW4 | UNKNOWN_MASK == ANSWERS_MASK


def rule_policy(s: TridentState, seat: int, legal: int, random: Callable[[], float]) -> int:
    """A fair rule-based player: sheds basic pieces first, changes to the suit it holds most, keeps attack
    pieces to answer attacks (and to hit a seat about to go out), plays the Change Draw 4 late.

    It knows what its seat has heard: an Unknown in its hand is only "Unknown" (one of them, at random,
    when it plays one), the other seats' hands only by their counts.
    """
    unknowns = legal & UNKNOWN_MASK
    if s.pending:
        if legal & DRAW_ATTACKS:
            attacks = legal & DRAW_ATTACKS
            return attacks & -attacks  # a Draw 2 before a Draw 4
        if unknowns:
            return random_bit(unknowns, random)
        return CHANGE_DRAW4 if legal else PASS  # else accept
    if not legal:
        return PASS if s.drew_bit else DRAW
    held = s.masks[seat]
    basics = legal & BASIC_MASK
    if basics:
        return basics & -basics
    changes = legal & KNOWN_CHANGES
    if changes:
        want = changes & CHANGES[best_suit(held)]
        return want & -want if want else changes & -changes
    if unknowns:
        return random_bit(unknowns, random)
    following, count, drew = s.masks[seat % 3 + 1].bit_count(), held.bit_count(), bool(s.drew_bit)
    attacks = legal & DRAW_ATTACKS
    if attacks and attacks_now(False, count, following, drew):
        return attacks & -attacks
    if legal & CHANGE_DRAW4 and attacks_now(True, count, following, drew):
        return CHANGE_DRAW4
    if drew:
        return PASS  # keep the drawn attack piece for defence
    return DRAW


def attacks_now(change_draw4: bool, held: int, following: int, drew: bool) -> bool:
    """Whether a careful player (the rule-based one) plays an attack piece with no draw pending, holding `held`
    pieces, the next seat `following`: a Draw 2 or 4 when the next seat is close to going out, or it is itself
    (or its hand is large, or the piece was just drawn); the Change Draw 4 only late. Otherwise it keeps the
    piece to answer attacks. The Monte-Carlo bot's notes use the same test to tell careless players."""
    if change_draw4:
        return following <= 2 or held <= 3
    return following <= 3 or held <= 3 or drew or held >= 7


__all__ = ["DRAW", "PASS", "Policy", "playout", "random_policy", "rule_policy", "attacks_now", "nth_bit", "random_bit",
           "basket_bit", "best_suit"]
