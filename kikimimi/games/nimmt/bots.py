"""Bots for empty seats: the taps a seat's player would make, decided from `observe(state, seat)` only.

The deal is not a seat's decision: the bots tap random cards not dealt yet (the driver may read the
state for that, as for whose move it is), for every seat they play and for the four starters. A
choice is a field tap of a hand card; a row choice is a field tap of the row's tag.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from typing import Any

from kikimimi.games.base import FIELD, Event, Scan, hand
from kikimimi.games.nimmt.engine import Nimmt
from kikimimi.games.nimmt.pieces import CARDS, card_id, row_tag
from kikimimi.games.nimmt.players import cheapest_row_choice, random_card, safest_card
from kikimimi.games.nimmt.state import CHOOSE, DEAL, HAND_SIZE, ROWS, TAKE_ROW, NimmtState

Observation = Mapping[str, Any]
CardPolicy = Callable[[Observation, random.Random], int]
RowPolicy = Callable[[Observation, random.Random], int]

_GAME = Nimmt()


class Player:
    """One seat's decisions: a card to choose, a row to take."""

    def __init__(self, card: CardPolicy, row: RowPolicy, name: str) -> None:
        self.card, self.row, self.name = card, row, name


def random_player() -> Player:
    return Player(random_card, cheapest_row_choice, "random")


def safest_player() -> Player:
    return Player(safest_card, cheapest_row_choice, "safest")


def monte_carlo_player(rng: random.Random, samples: int | None = None) -> Player:
    from kikimimi.games.nimmt.mc import SAMPLES, MonteCarlo

    mc = MonteCarlo(rng, samples or SAMPLES)
    return Player(lambda obs, _rng: mc.choose(obs), lambda obs, _rng: mc.take_row(obs), "bot")


class NimmtBots:
    """The registry's bots (kikimimi.games.registry.Bots): a player per seat; the deal for bot seats."""

    def __init__(self, seed: int, players: Mapping[int, Player]) -> None:
        self.rng = random.Random(seed)
        self._players = dict(players)

    def _seat_player(self, seat: int) -> Player:
        return self._players[seat]

    def next_event(self, state: NimmtState, humans: Collection[int] = ()) -> Event | None:
        phase = state.phase
        if phase == CHOOSE:
            for seat in state.seats:
                if state.chosen[seat - 1] is None and seat not in humans:
                    obs = _GAME.observe(state, seat)
                    return Scan(FIELD, card_id(self._seat_player(seat).card(obs, self.rng)))
            return None
        if phase == TAKE_ROW:
            taker = state.taker
            if taker is None or taker in humans:
                return None
            obs = _GAME.observe(state, taker)
            return Scan(FIELD, row_tag(self._seat_player(taker).row(obs, self.rng)))
        if phase == DEAL:
            return self._deal(state, humans)
        return None

    def _deal(self, state: NimmtState, humans: Collection[int]) -> Event | None:
        dealt = set().union(*state.hands, *state.rows)
        free = [card for card in CARDS if card not in dealt]
        card = free[int(self.rng.random() * len(free))]
        if len(state.rows) < ROWS:
            return Scan(FIELD, card_id(card))
        for seat in state.seats:
            if seat not in humans and len(state.hand(seat)) < HAND_SIZE:
                return Scan(hand(seat), card_id(card))
        return None


def _table(seed: int, setup: Mapping[str, Any], make: Callable[[random.Random], Player]) -> NimmtBots:
    players = int(setup.get("players", 4))
    rng = random.Random(seed ^ 0x6E696D6D74)
    return NimmtBots(seed, {seat: make(rng) for seat in range(1, players + 1)})


def table_bots(seed: int, setup: Mapping[str, Any]) -> NimmtBots:
    """The table's bot (Monte Carlo) in every seat it plays."""
    return _table(seed, setup, monte_carlo_player)


def random_bots(seed: int, setup: Mapping[str, Any]) -> NimmtBots:
    """The contract's random players (fast: the conformance suite's bot games)."""
    return _table(seed, setup, lambda rng: random_player())


def safest_bots(seed: int, setup: Mapping[str, Any]) -> NimmtBots:
    """The contract's safest-card players."""
    return _table(seed, setup, lambda rng: safest_player())
