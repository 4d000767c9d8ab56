"""What every registered game must satisfy, checked over whole bot games (as OpenSpiel does over its registry).

Pure and fast: used by `kikimimi simulate --game G` (many games) and by the conformance tests (a few
per game). A problem is a sentence naming the seed and the event; nothing here raises on a bad game.
"""

from __future__ import annotations

import copy
import json
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.games.base import Effect, Event, GameOver, Outcome, Say
from kikimimi.games.registry import GameInfo


@dataclass
class BotGame:
    """One whole bot game: its events, final state, outcome and every problem found."""

    seed: int
    setup: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    says: list[Say] = field(default_factory=list)
    state: Any = None
    outcome: Outcome | None = None
    problems: list[str] = field(default_factory=list)
    checks: int = 0  # invariant checks run (one per event for a game with invariants)


class StepChecks:
    """What must hold after every event of one game: nothing said on an output the game does not have, the
    game's privacy and its invariants. The one check of a step, for bot games here and for the tests' tables."""

    def __init__(self, info: GameInfo, setup: Mapping[str, Any], outputs: Collection[str] | None = None) -> None:
        """`outputs`: where the game may speak; by default the set-up's own (a test table may tap a bigger
        table's reader, whose earphone the game may answer)."""
        self.privacy = info.privacy_check()
        self.invariants = info.invariant_check()
        self.outputs = set(info.outputs(setup) if outputs is None else outputs)
        self.checks = 0  # invariant checks run (one per event for a game with invariants)

    def __call__(self, before: Any, event: Event, effects: Sequence[Effect], after: Any) -> list[str]:
        """One sentence per problem of this step (empty: all holds)."""
        problems = [f"{effect.key} said on {effect.to}, not an output of this game"
                    for effect in effects if isinstance(effect, Say) and effect.to not in self.outputs]
        if self.privacy is not None:
            problems += self.privacy(before, event, effects, after)
        if self.invariants is not None:
            self.checks += 1
            problems += self.invariants(before, event, effects, after)
        return problems


def play_bot_game(info: GameInfo, seed: int, setup: dict[str, Any] | None = None, *, deep: bool = False,
                  bots: str | None = None) -> BotGame:
    """Bots play one game; every step is checked (with `deep`, also that apply leaves its input as it was,
    which costs a deep copy per event)."""
    game = info.game
    setup = info.parse_setup(setup or {})
    run = BotGame(seed, setup)
    players = info.new_bots(seed, setup, bots)
    check = StepChecks(info, setup)
    state = game.initial(setup)
    for _ in range(info.max_events):
        event = players.next_event(state)
        if event is None:
            break
        before = copy.deepcopy(state) if deep else None
        try:
            after, effects = game.apply(state, event)
        except Exception as exc:  # noqa: BLE001 - any raise is a finding, not a crash of the checker
            run.problems.append(f"seed {seed} event {len(run.events) + 1} {event}: apply raised {exc!r}")
            break
        if deep and state != before:
            run.problems.append(f"seed {seed} event {len(run.events) + 1} {event}: apply changed its input state")
        run.events.append(event)
        for effect in effects:
            if isinstance(effect, Say):
                run.says.append(effect)
            elif isinstance(effect, GameOver):
                run.outcome = effect.outcome
        run.problems += [f"seed {seed} event {len(run.events)} {event}: {problem}"
                         for problem in check(state, event, effects, after)]
        state = after
    else:
        run.problems.append(f"seed {seed}: no end after {info.max_events} events")
    run.checks = check.checks
    run.state = state
    if not game.is_over(state) and not any("no end" in p for p in run.problems):
        run.problems.append(f"seed {seed}: the bots stopped before the end (phase {game.report(state).get('phase')})")
    if game.is_over(state):
        run.problems += check_outcome(info, setup, run.outcome, seed)
    try:
        json.dumps(game.report(state))
    except (TypeError, ValueError) as exc:
        run.problems.append(f"seed {seed}: the report is not JSON: {exc}")
    return run


def check_outcome(info: GameInfo, setup: dict[str, Any], outcome: Outcome | None, seed: int) -> list[str]:
    seats = set(range(1, info.seat_count(setup) + 1))
    if outcome is None:
        return [f"seed {seed}: the game is over but no GameOver effect was given"]
    problems = []
    if sorted(outcome.ranking) != sorted(seats):
        problems.append(f"seed {seed}: ranking {list(outcome.ranking)} does not name each seat {sorted(seats)} once")
    if not set(outcome.winners) <= seats:
        problems.append(f"seed {seed}: winners {list(outcome.winners)} are not seats")
    try:
        json.dumps(outcome.to_json())
    except (TypeError, ValueError) as exc:
        problems.append(f"seed {seed}: the outcome is not JSON: {exc}")
    return problems


@dataclass
class Totals:
    games: int = 0
    events: int = 0
    seconds: float = 0.0
    checks: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    details: dict[str, Counter[Any]] = field(default_factory=dict)  # each plain detail of the outcomes, counted
    problems: list[str] = field(default_factory=list)

    def summary(self, info: GameInfo) -> dict[str, Any]:
        return {
            "game": info.id,
            "games": self.games,
            "wins_by_seat": {str(seat): self.wins[seat] for seat in sorted(self.wins)},
            "ended_by": dict(self.reasons),
            "mean_events_per_game": round(self.events / max(self.games, 1), 1),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else 0.0,
            **{f"{name}_by_value": {str(value): count for value, count in sorted(counts.items(), key=str)}
               for name, counts in sorted(self.details.items())},
            "invariant_checks": self.checks,
            "invariant_violations": len(self.problems),
        }


def simulate(info: GameInfo, games: int, seed: int, setup: dict[str, Any] | None = None) -> Totals:
    """Many checked bot games in a row."""
    totals = Totals()
    started = time.perf_counter()
    for index in range(games):
        run = play_bot_game(info, seed * 1_000_003 + index, setup)
        totals.games += 1
        totals.events += len(run.events)
        totals.checks += run.checks
        totals.problems += run.problems
        if run.outcome is not None:
            totals.wins.update(run.outcome.winners)
            totals.reasons[run.outcome.reason or "end"] += 1
            for name, value in run.outcome.details.items():
                if value is None or isinstance(value, int | str):  # a plain detail (the Trident's `crashed`)
                    totals.details.setdefault(name, Counter())[value] += 1
    totals.seconds = time.perf_counter() - started
    return totals
