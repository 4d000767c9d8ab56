"""Seeded bots: the table's dealer and the seats' placements.

Dealing is not a seat's decision: the dealer lays a random common card, deals random cards from the
deck (it knows which card lies face down, as a dealer holding the deck does), opens the common card
once all are placed and taps next. Seats decide their placements from `observe(state, seat)` only:
the expectimax solver (the table's "bot"), a greedy player (each half for the outer lines it
completes) or a random one. With human seats the dealer does nothing: people deal real cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from typing import Any

from kikimimi.games.base import FIELD, Event, Scan, hand
from kikimimi.games.royal_nine.cards import CELL_TAGS, CONTROLS, CTL_GRID, CTL_HINT, CTL_NEXT, CTL_OPEN, deck
from kikimimi.games.royal_nine.engine import RoyalNine
from kikimimi.games.royal_nine.policies import POLICIES, Policy
from kikimimi.games.royal_nine.state import COMMON, DEALS, HALF, OVER, PLACES, REVEAL, SCORED, SEATS

_GAME = RoyalNine()


class RoyalNineBots:
    """The registry's bots (kikimimi.games.registry.Bots) for both seats and the dealer."""

    def __init__(self, seed: int, policy: Policy, chatter: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.policy = policy
        self.chatter = chatter  # the chance of a listening or stray tap before a move

    def next_event(self, state: Any, humans: Collection[int] = ()) -> Event | None:
        phase = state.phase
        if phase == OVER:
            return None
        if phase in PLACES:
            return self._place(state, humans)
        if humans:  # people deal, lay and open real cards; the bots only place for their seats
            return None
        if self.chatter and self.rng.random() < self.chatter:
            return self._chat(state)
        if phase == COMMON:
            return Scan(FIELD, self.rng.choice(deck(state.tens)))
        if phase in DEALS:
            seat = next(x for x in SEATS if len(state.hand(x)) < HALF)
            return Scan(hand(seat), self.rng.choice(self._undealt(state)))
        if phase == REVEAL:
            return Scan(FIELD, CTL_OPEN)
        if phase == SCORED:
            return Scan(FIELD, CTL_NEXT)
        return None

    @staticmethod
    def _undealt(state: Any) -> list[str]:
        """The dealer's deck: every card not dealt and not the face-down one."""
        used = state.dealt() | {state.common}
        return [card for card in deck(state.tens) if card not in used]

    def _place(self, state: Any, humans: Collection[int]) -> Event | None:
        for seat in SEATS:
            if seat in humans:
                continue
            view = _GAME.observe(state, seat)
            mine = sorted(view["hands"][str(seat)])
            if not mine:
                continue
            if self.chatter and self.rng.random() < self.chatter:
                return self._chat(state, seat)
            placement = self.policy(view, seat, self.rng)
            selected = view["selected"]
            if selected in placement:
                return Scan(hand(seat), CELL_TAGS[placement[selected]])
            return Scan(hand(seat), min(placement))
        return None

    def _chat(self, state: Any, seat: int | None = None) -> Event:
        """A listening tap (grid, cell, hint) or a stray one the rules refuse: exercises every answer."""
        rng = self.rng
        seat = seat or rng.choice(SEATS)
        roll = rng.random()
        if roll < 0.3:
            return Scan(hand(seat), CTL_GRID)
        if roll < 0.5 and state.phase in PLACES:
            return Scan(hand(seat), CTL_HINT)
        if roll < 0.7:
            return Scan(rng.choice((FIELD, hand(seat))), rng.choice(CONTROLS))
        return Scan(rng.choice((FIELD, hand(seat))), rng.choice(deck(True)))


def _factory(name: str, chatter: float = 0.0) -> Callable[[int, Mapping[str, Any]], RoyalNineBots]:
    def make(seed: int, setup: Mapping[str, Any]) -> RoyalNineBots:
        return RoyalNineBots(seed, POLICIES[name], chatter)
    return make


expectimax_bots = _factory("expectimax")
chatty_bots = _factory("expectimax", chatter=0.08)
greedy_bots = _factory("greedy")
random_bots = _factory("random")

__all__ = ["RoyalNineBots", "expectimax_bots", "chatty_bots", "greedy_bots", "random_bots"]
