"""Seeded bots that tap as players do, mistakes included, so that every rule gets exercised.

A bot table looks at the state as the players would know it (each seat its own hand, which it has
heard) and produces the next tap. Mistake rates are configurable; with the default rates a game
meets forgotten declarations, wrong plays, draws with a legal piece in hand and stray taps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.games.base import FIELD, Event, Referee, Scan, hand
from kikimimi.games.trident.engine import legal_mask
from kikimimi.games.trident.pieces import BIT, CONTROLS, CTL_PASS, CTL_TRIDENT, ID_OF, PIECES, SUIT_MASK, SUITS, ids_of
from kikimimi.games.trident.playout import DRAW, Policy, nth_bit, rule_policy
from kikimimi.games.trident.state import (
    CHOOSE_SUIT,
    DEAL,
    DRAWING,
    HAND_SIZE,
    OVER,
    SEATS,
    START,
    TURN,
    TridentState,
)

_ORDERED_IDS = tuple(PIECES)  # a fixed order, so that a seed gives the same game on every machine
_HAND: tuple[str, ...] = ("", *(hand(seat) for seat in SEATS))  # seat -> its hand reader ([0] unused)
# Taps are immutable values: made once per reader and tag, since a bot produces one per event.
_TAPS: dict[tuple[str, str | None], Scan] = {
    (reader, tag): Scan(reader, tag) for reader in (FIELD, *_HAND[1:]) for tag in (*PIECES, *CONTROLS)
}


@dataclass(frozen=True)
class BotRates:
    forget_declaration: float = 0.15  # play down to the last piece without declaring
    wrong_play: float = 0.04  # play a piece that may not be played (own turn or out of turn)
    draw_with_legal: float = 0.10  # draw although a legal piece is in hand
    stray_tap: float = 0.03  # a tap the rules refuse (6th piece, pass before drawing, foreign piece...)
    referee_forgot: float = 0.002  # the "everyone forgot" procedure

    @classmethod
    def perfect(cls) -> BotRates:
        return cls(0.0, 0.0, 0.0, 0.0, 0.0)


def _tap(reader: str, tag: str | None) -> Scan:
    return _TAPS.get((reader, tag)) or Scan(reader, tag)


class BotTable:
    """Three bots at one table; `next_event(state)` is the next thing someone does."""

    def __init__(self, seed: int, rates: BotRates | None = None) -> None:
        self.rng = random.Random(seed)
        self.rates = rates or BotRates()

    def _basket_piece(self, s: TridentState) -> str | None:
        """A random piece from the basket (a few random picks first: the basket is usually large)."""
        _, h1, h2, h3 = s.masks
        taken = h1 | h2 | h3 | s.field_mask
        rng = self.rng
        draw = rng.random
        for _ in range(8):
            p = _ORDERED_IDS[int(draw() * 54)]  # randrange() is several times slower; the engine bench needs speed
            if not BIT[p] & taken:
                return p
        basket = [p for p in _ORDERED_IDS if not BIT[p] & taken]
        return rng.choice(basket) if basket else None

    def next_event(self, s: TridentState) -> Event | None:
        """The next tap or referee action; None when the game is over."""
        phase = s.phase
        if phase == OVER:
            return None
        rng, rates = self.rng, self.rates
        if rates.stray_tap and rng.random() < rates.stray_tap:
            return self._stray(s)
        if phase == TURN:  # the most frequent first
            return self._turn(s)
        if s.phase == DEAL:
            seat = next(seat for seat in SEATS if s.count(seat) < HAND_SIZE)
            return _tap(_HAND[seat], self._basket_piece(s))
        if s.phase == START:
            return _tap(FIELD, self._basket_piece(s))
        if s.phase == DRAWING:
            assert s.drawer is not None
            return _tap(_HAND[s.drawer], self._basket_piece(s))
        if s.phase == CHOOSE_SUIT:
            return Scan(hand(s.turn or 1), f"ctl-{self._best_suit(s, s.turn or 1)}")
        return self._turn(s)  # not reached: every phase is handled above

    def _turn(self, s: TridentState) -> Event:
        rng, rates = self.rng, self.rates
        seat = s.turn
        assert seat is not None
        if rates.referee_forgot and rng.random() < rates.referee_forgot:
            return Referee("forgot")
        if s.masks[seat].bit_count() <= 2 and not s.declared_mask & (1 << (seat - 1)) and not (
            rates.forget_declaration and rng.random() < rates.forget_declaration
        ):
            return _tap(_HAND[seat], CTL_TRIDENT)
        legal = legal_mask(s, seat)  # computed once; the engine checks the tap against the same rule
        if rates.wrong_play and rng.random() < rates.wrong_play:
            return self._wrong_play(s, seat, ids_of(legal))
        if s.pending:
            if legal and rng.random() < 0.7:
                return _tap(FIELD, _random_piece(legal, rng.random()))
            return _tap(_HAND[seat], CTL_PASS) if rng.random() < 0.5 else self._draw(s, seat)
        if legal and (s.drew_bit or not (rates.draw_with_legal and rng.random() < rates.draw_with_legal)):
            return _tap(FIELD, _random_piece(legal, rng.random()))
        if s.drew_bit:
            return _tap(_HAND[seat], CTL_PASS)
        return self._draw(s, seat)

    def _draw(self, s: TridentState, seat: int) -> Event:
        piece = self._basket_piece(s)
        if piece is None:
            return _tap(_HAND[seat], CTL_PASS)  # nothing to draw: a pass, which crashes
        return _tap(_HAND[seat], piece)

    def _wrong_play(self, s: TridentState, seat: int, legal: list[str]) -> Event:
        rng = self.rng
        if rng.random() < 0.3:  # out of turn: another seat plays
            other = rng.choice([x for x in SEATS if x != seat])
            if s.hand(other):
                return Scan(FIELD, rng.choice(sorted(s.hand(other))))
        illegal = sorted(s.hand(seat) - set(legal))
        if illegal:
            return Scan(FIELD, rng.choice(illegal))
        return self._draw(s, seat)

    def _stray(self, s: TridentState) -> Event:
        rng = self.rng
        seat = rng.choice(SEATS)
        choice = rng.randrange(4)
        if choice == 0:
            return _tap(_HAND[seat], CTL_PASS)
        if choice == 1:
            return _tap(_HAND[seat], CTL_TRIDENT)
        if choice == 2 and s.field:
            return Scan(rng.choice((FIELD, hand(seat))), rng.choice(s.field))
        piece = self._basket_piece(s)
        return _tap(_HAND[seat], piece) if piece else _tap(FIELD, None)

    def _best_suit(self, s: TridentState, seat: int) -> str:
        held = s.masks[seat]
        return max(SUITS, key=lambda suit: (held & SUIT_MASK[suit]).bit_count())


def _random_piece(mask: int, r: float) -> str:
    """One piece of a mask, uniformly by `r` in [0, 1): the same pick as indexing the sorted ids."""
    return ID_OF[nth_bit(mask, int(r * mask.bit_count())).bit_length() - 1]


def seat_to_move(s: TridentState) -> int | None:
    """The seat whose tap the game waits for (the deal: the first seat still short of five)."""
    if s.phase == OVER:
        return None
    if s.phase == DEAL:
        return next((seat for seat in SEATS if s.count(seat) < HAND_SIZE), None)
    if s.phase == DRAWING:
        return s.drawer
    return s.turn


class TridentBots:
    """The registry's bots (kikimimi.games.registry.Bots): a BotTable that leaves human seats alone."""

    def __init__(self, seed: int, rates: BotRates | None = None) -> None:
        self.table = BotTable(seed, rates)

    def next_event(self, state: TridentState, humans: Collection[int] = ()) -> Event | None:
        # The bots hand out the deal to every seat (a person would only take what they are given).
        if humans and state.phase != DEAL and seat_to_move(state) in humans:
            return None
        return self.table.next_event(state)


class PolicyBots:
    """Mistake-free bots that play each seat's turn by a policy (playout.py): the rule-based player or the
    Monte-Carlo one. The deal, start pieces, owed draws and suit choices come as a BotTable makes them.
    `watch`, if given, is shown every state the bots are asked about (the Monte-Carlo players' notes of what
    they heard the others do: every step, as the table calls `next_event` after each one)."""

    def __init__(self, seed: int, policy: Callable[[int], Policy],
                 watch: Callable[[TridentState], None] | None = None) -> None:
        self.table = BotTable(seed, BotRates.perfect())
        self.rng = random.Random(seed * 7919 + 1)
        self.policies = {seat: policy(seat) for seat in SEATS}
        self.watch = watch

    def next_event(self, state: TridentState, humans: Collection[int] = ()) -> Event | None:
        if self.watch is not None:
            self.watch(state)
        if humans and state.phase != DEAL and seat_to_move(state) in humans:
            return None
        if state.phase != TURN:
            return self.table.next_event(state)
        seat = state.turn
        assert seat is not None
        if state.masks[seat].bit_count() <= 2 and not state.declared_mask & (1 << (seat - 1)):
            return _tap(_HAND[seat], CTL_TRIDENT)
        choice = self.policies[seat](state, seat, legal_mask(state, seat), self.rng.random)
        if choice > 0:
            return _tap(FIELD, ID_OF[choice.bit_length() - 1])
        if choice == DRAW:
            return self.table._draw(state, seat)
        return _tap(_HAND[seat], CTL_PASS)


def rule_bots(seed: int, setup: Mapping[str, Any]) -> PolicyBots:
    """The rule-based player at every seat (a fair opponent: it knows only what its seat has heard)."""
    return PolicyBots(seed, lambda seat: rule_policy)


def strong_bots(seed: int, setup: Mapping[str, Any]) -> PolicyBots:
    """The tree-search player at every seat (strong.py): it decides from what its seat has heard."""
    from kikimimi.games.trident.inference import HandNotes
    from kikimimi.games.trident.strong import mc_policy, player

    notes = {seat: HandNotes(seat) for seat in SEATS}

    def watch(state: TridentState) -> None:
        for seat_notes in notes.values():
            seat_notes.see(state)

    return PolicyBots(seed, lambda seat: mc_policy(player(seed * 3 + seat), notes[seat]), watch)


def table_bots(seed: int, setup: Mapping[str, Any]) -> TridentBots:
    """Bots that make players' mistakes at the default rates (every rule gets exercised)."""
    return TridentBots(seed)


def perfect_bots(seed: int, setup: Mapping[str, Any]) -> TridentBots:
    """Bots that make no mistakes."""
    return TridentBots(seed, BotRates.perfect())
