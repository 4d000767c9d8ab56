"""Whole bot games with the invariants checked after every event."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from kikimimi.games.base import GameOver
from kikimimi.games.trident.bots import BotRates, BotTable
from kikimimi.games.trident.engine import Trident
from kikimimi.games.trident.invariants import check
from kikimimi.games.trident.state import TridentState

MAX_EVENTS = 5000  # a game that has not ended by then is a bug (the basket always runs out)


@dataclass
class Totals:
    games: int = 0
    events: int = 0
    wins: Counter[int] = field(default_factory=Counter)  # seat -> games won by going out
    crashes: Counter[int] = field(default_factory=Counter)  # seat -> games crashed
    ended_by: Counter[str] = field(default_factory=Counter)  # out / crash
    penalties: Counter[str] = field(default_factory=Counter)  # reason -> count
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def play_game(seed: int, rates: BotRates | None = None, first: int = 1, rules: str = "standard",
              checked: bool = True, totals: Totals | None = None) -> TridentState:
    """One whole bot game; with `checked`, every event's invariants go into `totals.violations`."""
    game = Trident()
    bots = BotTable(seed, rates)
    state = game.initial({"first": first, "rules": rules})
    totals = totals if totals is not None else Totals()
    events = 0
    while True:
        event = bots.next_event(state)
        if event is None:
            break
        try:
            state, effects = game.apply(state, event)
        except Exception as exc:  # noqa: BLE001 - the simulator reports any raise as a violation
            totals.violations.append(f"seed {seed} event {events}: {event} raised {exc!r}")
            break
        events += 1
        if checked:
            for problem in check(state, event, effects):
                totals.violations.append(f"seed {seed} event {events} {event}: {problem}")
        if events >= MAX_EVENTS:
            totals.violations.append(f"seed {seed}: no end after {MAX_EVENTS} events")
            break
        if effects and isinstance(effects[-1], GameOver):
            result = effects[-1].outcome
            if result.winner is not None:
                totals.wins[result.winner] += 1
            crashed = result.details.get("crashed")
            if isinstance(crashed, int):
                totals.crashes[crashed] += 1
            totals.ended_by[result.reason] += 1
    totals.games += 1
    totals.events += events
    for _, reason in state.penalties:
        totals.penalties[reason] += 1
    return state


def play_games(games: int, seed: int, rates: BotRates | None = None, checked: bool = True) -> Totals:
    totals = Totals()
    started = time.perf_counter()
    for index in range(games):
        play_game(seed * 1_000_003 + index, rates, first=index % 3 + 1, checked=checked, totals=totals)
    totals.seconds = time.perf_counter() - started
    return totals

