"""What one seat can tell about the other hands from what it heard, step by step.

Every seat hears every play, draw (by its count), pass and accepted attack. Players play when they can,
so a seat that draws in its turn had no piece it would play: no basic piece of the required kind, no
change piece, no Unknown (rule ③). A seat that passes after its draw could not play the piece it drew. A
seat that takes an attack rather than answer it most likely held no attack piece. And after a
turn-around a seat knows the hand it handed on, piece by piece.

`HandNotes` keeps this as groups of pieces per hand: "n pieces of which none is one of these", the oldest
first. A draw adds a group nothing is known about; a play takes its piece from a group that allows it.
The Monte-Carlo player deals the unseen pieces into these groups (strong.world), so its look-ahead plays
against hands like the ones the others can hold.

`see(state)` is called at every step with the true state; it reads only what the seat heard (`heard`):
its own hand, the field, the counts and whose turn it is. Nothing of another hand reaches the notes.
"""

from __future__ import annotations

from dataclasses import dataclass

from kikimimi.games.trident.pieces import ANSWERS_MASK, BASIC_MASK, FULL_MASK, PIECE_AT, SUIT_MASK, UNKNOWN_MASK
from kikimimi.games.trident.playout import CHANGE_DRAW4, DRAW_ATTACKS, attacks_now
from kikimimi.games.trident.state import TURN, TridentState, next_seat, previous_seat

ALWAYS_PLAYABLE = (FULL_MASK & ~BASIC_MASK & ~ANSWERS_MASK) | UNKNOWN_MASK  # change pieces and the Unknowns
# How much less likely a piece is where the evidence is only a likelihood (a random player takes an attack it
# could answer 3 times in 10): the factor on its weight in the deal.
SOFT_FACTOR = 0.3


@dataclass(frozen=True, slots=True)
class Heard:
    """One seat's knowledge at one step: nothing of another hand but its count."""

    phase: str
    turn: int | None
    drew: bool  # the seat to move has drawn this turn
    pending: int
    required: str | None
    field_mask: int
    counts: tuple[int, int, int, int]  # [unused, seat 1, 2, 3]
    own: int  # the seat's own hand (its Unknowns are used only by count)


def heard(s: TridentState, seat: int) -> Heard:
    """The one place a seat's step-by-step knowledge is taken from the state."""
    m = s.masks
    return Heard(s.phase, s.turn, bool(s.drew_bit), s.pending, s.required, s.field_mask,
                 (0, m[1].bit_count(), m[2].bit_count(), m[3].bit_count()), m[seat])


@dataclass(slots=True)
class Group:
    """`count` pieces of one hand, none of them in `excluded`, those in `unlikely` less likely."""

    count: int
    excluded: int = 0
    unlikely: int = 0


def would_play(required: str | None, count: int) -> int:
    """The pieces a player holding `count` pieces plays rather than draw: a basic piece of the required kind,
    a change piece, an Unknown (never a non-basic piece as the last one)."""
    basics = SUIT_MASK[required]
    return basics if count <= 1 else basics | ALWAYS_PLAYABLE


class HandNotes:
    """One seat's notes on the other two hands (see the module's docstring)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hands: dict[int, list[Group]] = {x: [] for x in (1, 2, 3) if x != seat}
        self.last: Heard | None = None
        # Per player (by seat: a turn-around moves hands, not players): attacks played when nobody was close to
        # going out and the player had pieces to spare, which a careful player keeps for defence (`careless`).
        self.careless_attacks: dict[int, int] = dict.fromkeys(self.hands, 0)

    def careless(self, seat: int) -> bool:
        """Has `seat` played an attack a careful player would have kept?"""
        return self.careless_attacks[seat] > 0

    def see(self, s: TridentState) -> None:
        """The state after one more step (or the first one seen)."""
        now = heard(s, self.seat)
        if self.last is not None and now != self.last:
            self._step(self.last, now)
        self._reconcile(now)
        self.last = now

    def groups(self, seat: int) -> list[Group]:
        return self.hands[seat]

    # -- one step -------------------------------------------------------------------------------------

    def _step(self, b: Heard, a: Heard) -> None:
        if b.field_mask & ~a.field_mask:  # the field lost a piece: an undo; start over from the counts
            self.hands = {x: [] for x in self.hands}
            return
        mover = b.turn if b.phase == TURN else None
        gained = a.field_mask & ~b.field_mask
        if gained and mover is not None and gained & (gained - 1) == 0:
            self._played(b, a, mover, gained)
        elif not gained and mover is not None and mover != self.seat:
            self._no_play(b, a, mover)
        for x, groups in self.hands.items():  # draws: new pieces nobody knows anything about
            grown = a.counts[x] - sum(g.count for g in groups)
            if grown > 0:
                groups.append(Group(grown))

    def _played(self, b: Heard, a: Heard, mover: int, bit: int) -> None:
        from_hand = sum(a.counts) == sum(b.counts) - 1
        if mover != self.seat:
            groups = self.hands[mover]
            if not from_hand:  # a piece never seen in a hand, played at once: the seat's draw of 1
                if not b.drew and not b.pending:
                    _exclude(groups, would_play(b.required, b.counts[mover]))
            elif groups:
                # After a draw only the drawn piece may be played: the newest group. Otherwise the most
                # constrained group that allows the piece (what is left is then the less constrained).
                candidates = [g for g in groups if not g.excluded & bit] or groups
                group = groups[-1] if b.drew and not groups[-1].excluded & bit else max(
                    candidates, key=lambda g: g.excluded.bit_count())
                group.count -= 1
                self.hands[mover] = [g for g in groups if g.count > 0]
        if mover != self.seat and not b.pending and bit & (DRAW_ATTACKS | CHANGE_DRAW4):
            careful = attacks_now(bool(bit & CHANGE_DRAW4), b.counts[mover], b.counts[next_seat(mover)], b.drew)
            self.careless_attacks[mover] += not careful
        turn = PIECE_AT[bit].turn
        if turn:
            self._turned(b, mover, bit, turn)

    def _no_play(self, b: Heard, a: Heard, mover: int) -> None:
        groups = self.hands[mover]
        if b.pending and not a.pending:  # took the attack (a draw or a pass): most likely had no answer
            for g in groups:
                g.unlikely |= ANSWERS_MASK
        elif b.pending or a.phase != TURN:
            return  # a wrong play and its penalty, the suit choice, the end: nothing about the hand
        elif a.drew and not b.drew and a.turn == mover:  # drew in its turn: nothing it would play
            _exclude(groups, would_play(b.required, b.counts[mover]))
        elif b.drew and a.turn != mover and groups:  # passed after its draw: could not play the piece drawn
            groups[-1].excluded |= would_play(b.required, 2)

    def _turned(self, b: Heard, mover: int, bit: int, direction: int) -> None:
        """Every hand moved to the next (+1) or previous (-1) seat; the seat's own old hand is known."""
        receiver = next_seat if direction > 0 else previous_seat
        own_old = b.own & ~bit if mover == self.seat else b.own
        known = own_old & ~UNKNOWN_MASK
        mine = [Group(known.bit_count(), FULL_MASK & ~known)] if known else []
        unknowns = (own_old & UNKNOWN_MASK).bit_count()
        if unknowns:
            mine.append(Group(unknowns, FULL_MASK & ~UNKNOWN_MASK))
        old = {**self.hands, self.seat: mine}
        self.hands = {receiver(x): groups for x, groups in old.items() if receiver(x) != self.seat}

    def _reconcile(self, now: Heard) -> None:
        """Keep each hand's groups to its count (a step missed, a penalty returned, the deal)."""
        for x, groups in self.hands.items():
            extra = sum(g.count for g in groups) - now.counts[x]
            while extra > 0 and groups:  # drop from the least constrained first
                g = min(groups, key=lambda g: g.excluded.bit_count())
                take = min(extra, g.count)
                g.count -= take
                extra -= take
                if not g.count:
                    groups.remove(g)
            if extra < 0:
                groups.append(Group(-extra))


def _exclude(groups: list[Group], mask: int) -> None:
    for g in groups:
        g.excluded |= mask


__all__ = ["Group", "HandNotes", "Heard", "heard", "would_play", "SOFT_FACTOR"]
