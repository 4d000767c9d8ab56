"""Players for Suhjong: the bot, and the two opponents its benchmark measures it against.

Each player decides from `game.observe(state, seat)` only and returns a plan for its turn (fold or
not, showdown or not, which values to discard, which to pick up from the other river); the driver
(`SuhjongBots`) turns plans into taps, one per call, and makes the taps that are nobody's decision:
which pile card is dealt or drawn (seeded, at random), `ctl-next` between rounds.

- `Bot`: discards and pick-ups by the expected best role they leave (the first draw weighted by the
  pile's actual make-up, which is open information; later draws by a fresh deck), less a heavy cost for
  discards that would let the other seat call a showdown (its pick-ups come from our river); in a grace
  turn, the plan most likely to beat the role the other hand already holds. It folds in its first turn
  only when that pays: in the last round when its lead outlasts the fold points, before it when its
  outlook trails the other hand's by more than the fold points. It calls a showdown when the role it
  can reach is at least what one more turn promises and the other seat's grace turn is unlikely to beat
  it (the odds it wants fall as the pile runs low).
- `RandomPlayer`: random discards (1 to the cap), a random handful of pick-ups, never folds or calls a
  showdown.
- `GreedyPlayer`: keeps the cards of its current best role: it discards one card only, the one whose
  loss keeps the best role reachable with one card, picks that card up if the other river has it (or
  draws), and calls a showdown whenever its hand has a role and a showdown keeps one at least as good.
Every player declares its hand's best role (the solver finds it; the table judges what is tapped).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any, Protocol

from kikimimi.games.base import FIELD, Event, Scan, hand
from kikimimi.games.suhjong import solver
from kikimimi.games.suhjong.engine import Suhjong
from kikimimi.games.suhjong.equation import tokens_of
from kikimimi.games.suhjong.pieces import (
    CARDS,
    CTL_CLEAR,
    CTL_DECLARE,
    CTL_FOLD,
    CTL_NEXT,
    CTL_NOROLE,
    CTL_SHOWDOWN,
    VALUE,
)
from kikimimi.games.suhjong.state import DEAL, HAND_SIZE, OVER, SCORED, SCORING, SEATS, TURN, SuhjongState

Digits = tuple[int, ...]
_GAME = Suhjong()


@dataclass(frozen=True)
class Plan:
    fold: bool = False
    showdown: bool = False
    discard: Digits = ()  # values to discard
    pick: Digits = ()  # values to pick up from the other river, before any draw


# -- what the bot knows of hands ------------------------------------------------------------------------


def _value(key: Digits) -> int:
    """A five-card hand's worth: its best role's points; no role is worth nothing."""
    v = solver.best_table()[key]
    return 0 if v is None else v


@cache
def _uniform() -> dict[Digits, float]:
    """Expected worth of a partial hand filled up to five from a fresh deck (each digit 1/10)."""
    table: dict[Digits, float] = {k: float(_value(k)) for k in combinations_with_replacement(range(10), 5)}
    for size in range(4, -1, -1):
        for key in combinations_with_replacement(range(10), size):
            table[key] = sum(table[_add(key, d)] for d in range(10)) / 10
    return table


def _add(key: Digits, d: int) -> Digits:
    return tuple(sorted((*key, d)))


def _remove(key: Digits, values: Digits) -> Digits:
    rest = list(key)
    for v in values:
        rest.remove(v)
    return tuple(rest)


def pool_odds(obs: Mapping[str, Any]) -> list[float]:
    """The chance that the next draw is each digit: the pile is what no one can see."""
    counts = [5] * 10
    seen = [*obs["hands"]["1"], *obs["hands"]["2"], *obs["rivers"]["1"], *obs["rivers"]["2"], *obs["sea"]]
    for card in seen:
        counts[VALUE[card]] -= 1
    total = sum(counts)
    return [c / total for c in counts] if total else [0.1] * 10


def expected(kept: Digits, odds: list[float], memo: dict[Digits, float]) -> float:
    """Expected worth of `kept` filled up to five: the first draw by the pile's odds, later ones uniform."""
    if len(kept) == HAND_SIZE:
        return _value(kept)
    got = memo.get(kept)
    if got is None:
        uniform = _uniform()
        got = sum(p * uniform[_add(kept, d)] for d, p in enumerate(odds) if p)
        memo[kept] = got
    return got


def _sub_multisets(values: Digits, sizes: range) -> set[Digits]:
    return {c for k in sizes for c in combinations(values, k)}


def best_plan(mine: Digits, river: Digits, cap: int, odds: list[float], memo: dict[Digits, float],
              pickups: bool = True, theirs: Digits | None = None, wary: float = 0.0) -> tuple[float, Plan]:
    """The discards and pick-ups whose kept hand has the highest expected worth; with `theirs`, less
    `wary` times the role a showdown from our discards would give the other seat."""
    best: tuple[float, Plan] = (-1.0e9, Plan())
    for out in sorted(_sub_multisets(mine, range(1, cap + 1))):
        kept = _remove(mine, out)
        cost = 0.0
        if theirs is not None and wary:
            given = solver.showdown_best(theirs, out, cap)
            cost = wary * (given + 1) if given is not None else 0.0
        picks = _sub_multisets(river, range(0, len(out) + 1)) if pickups else {()}
        for pick in sorted(picks):
            worth = expected(tuple(sorted(kept + pick)), odds, memo) - cost
            if worth > best[0] + 1e-9:
                best = (worth, Plan(discard=out, pick=pick))
    return best


def below(kept: Digits, v: int, odds: list[float], memo: dict[Digits, float]) -> float:
    """The chance that `kept`, filled up to five by draws at these odds, ends worth less than `v`
    (a tie counts half)."""
    if len(kept) == HAND_SIZE:
        worth = _value(kept)
        return 1.0 if worth < v else 0.5 if worth == v else 0.0
    got = memo.get(kept)
    if got is None:
        got = sum(p * below(_add(kept, d), v, odds, memo) for d, p in enumerate(odds) if p)
        memo[kept] = got
    return got


def grace_odds(theirs: Digits, v: int, cap: int, odds: list[float]) -> float:
    """The chance that the other seat ends its grace turn below `v`, if it plays its best expectation."""
    _, plan = best_plan(theirs, (), cap, odds, {}, pickups=False)
    return below(_remove(theirs, plan.discard), v, odds, {})


def _showdown_plan(mine: Digits, river: Digits, cap: int) -> tuple[int | None, Plan]:
    found: tuple[int | None, Plan] = (None, Plan())
    for out, pick, new in solver.exchanges(mine, river, cap):
        v = solver.best_table()[new]
        if v is not None and (found[0] is None or v > found[0]):
            found = (v, Plan(showdown=True, discard=out, pick=pick))
    return found


def _digits(cards: Iterable[str]) -> Digits:
    return tuple(sorted(VALUE[c] for c in cards))


def _turn_facts(obs: Mapping[str, Any], seat: int) -> tuple[Digits, Digits, Digits, int]:
    other = 3 - seat
    return (_digits(obs["hands"][str(seat)]), _digits(obs["rivers"][str(other)]), _digits(obs["hands"][str(other)]),
            int(obs["discard_max"]))


# -- players ------------------------------------------------------------------------------------------


class Bot:
    """Expected best role, one turn ahead."""

    name = "bot"
    thresholds = (0.7, 0.6, 0.5)  # the chance of winning a showdown wants, by pile left (>20, >10, less)
    margin = 0.0
    wary = 5.0  # how much a showdown our discards would offer the other seat costs, per point it scores

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def plan(self, obs: Mapping[str, Any], seat: int) -> Plan:
        mine, river, theirs, cap = _turn_facts(obs, seat)
        odds = pool_odds(obs)
        if obs["grace"]:
            # The other hand is final: play for the chance of beating what it will declare.
            target = solver.best_table()[theirs]
            return winning_plan(mine, river, cap, odds, -1 if target is None else target)
        memo: dict[Digits, float] = {}
        worth, plan = best_plan(mine, river, cap, odds, memo)
        if self.wary and obs["showdown_by"] is None:
            _, plan = best_plan(mine, river, cap, odds, memo, theirs=theirs, wary=self.wary)
        first_turn = obs["turn_count"][str(seat)] == 1
        may_showdown = obs["turn_count"][str(seat)] >= 2 and obs["showdown_by"] is None
        if first_turn and self._fold_pays(obs, seat, worth, theirs, cap, odds):
            return Plan(fold=True)
        if may_showdown:
            value, showdown = _showdown_plan(mine, river, cap)
            if value is not None and value >= worth - self.margin:
                pile = int(obs["pile_count"])
                need = self.thresholds[0] if pile > 20 else self.thresholds[1] if pile > 10 else self.thresholds[2]
                if grace_odds(theirs, value, cap, odds) >= need:
                    return showdown
        return plan

    @staticmethod
    def _fold_pays(obs: Mapping[str, Any], seat: int, worth: float, theirs: Digits, cap: int,
                   odds: list[float]) -> bool:
        """In the last round a fold pays only when the lead survives the fold points; before it, when
        the outlook trails the other hand's by more than the fold points."""
        lead: int = obs["totals"][str(seat)] - obs["totals"][str(3 - seat)]
        fold_points: int = obs["fold_points"]
        if obs["round"] >= obs["rounds"]:
            return lead > fold_points
        theirs_worth, _ = best_plan(theirs, (), cap, odds, {}, pickups=False)
        return worth < theirs_worth - fold_points


def winning_plan(mine: Digits, river: Digits, cap: int, odds: list[float], target: int) -> Plan:
    """The discards and pick-ups most likely to end above `target` (a tie counts half)."""
    memo: dict[Digits, float] = {}
    best: tuple[float, Plan] = (-1.0, Plan())
    for out in sorted(_sub_multisets(mine, range(1, cap + 1))):
        kept = _remove(mine, out)
        for pick in sorted(_sub_multisets(river, range(0, len(out) + 1))):
            chance = 1.0 - below(tuple(sorted(kept + pick)), target, odds, memo)  # above, a tie half
            if chance > best[0] + 1e-9:
                best = (chance, Plan(discard=out, pick=pick))
    return best[1]


class RandomPlayer:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def plan(self, obs: Mapping[str, Any], seat: int) -> Plan:
        mine, river, _, cap = _turn_facts(obs, seat)
        rng = self.rng
        out = tuple(sorted(rng.sample(mine, rng.randint(1, min(cap, len(mine))))))
        pick = tuple(sorted(rng.sample(river, rng.randint(0, min(len(out), len(river))))))
        return Plan(discard=out, pick=pick)


class GreedyPlayer:
    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def plan(self, obs: Mapping[str, Any], seat: int) -> Plan:
        mine, river, _, cap = _turn_facts(obs, seat)
        table = solver.best_table()
        current = table[mine]
        if current is not None and obs["turn_count"][str(seat)] >= 2 and not obs["grace"] \
                and obs["showdown_by"] is None:
            value, showdown = _showdown_plan(mine, river, cap)
            if value is not None and value >= current:
                return showdown

        def reach(kept: Digits) -> int:
            return max(_value(_add(kept, d)) for d in range(10))

        out = max(sorted(set(mine)), key=lambda c: (reach(_remove(mine, (c,))), -c))
        kept = _remove(mine, (out,))
        picks = [d for d in sorted(set(river)) if table[_add(kept, d)] is not None]
        pick = (max(picks, key=lambda d: _value(_add(kept, d))),) if picks else ()
        return Plan(discard=(out,), pick=pick)


class Player(Protocol):
    def plan(self, obs: Mapping[str, Any], seat: int) -> Plan: ...


PLAYERS: dict[str, Callable[[random.Random], Player]] = {"bot": Bot, "random": RandomPlayer, "greedy": GreedyPlayer}


# -- the driver ---------------------------------------------------------------------------------------------


class SuhjongBots:
    """Players at one table; `next_event(state, humans)` is the next tap a non-human seat makes."""

    def __init__(self, seed: int, players: Mapping[int, str] | None = None) -> None:
        self.rng = random.Random(seed)
        kinds = players or {1: "bot", 2: "bot"}
        self.players = {seat: PLAYERS[kinds[seat]](self.rng) for seat in SEATS}
        self._plans: dict[tuple[int, int, int, bool], tuple[Plan, frozenset[str]]] = {}

    def _pile_card(self, state: SuhjongState) -> str:
        pile = state.pile()  # the driver's own tap (a card taken blind), not the player's decision
        return self.rng.choice([c for c in CARDS if c in pile])

    def next_event(self, state: SuhjongState, humans: Collection[int] = ()) -> Event | None:
        phase = state.phase
        if phase == OVER:
            return None
        if phase == DEAL:
            seat = next((x for x in SEATS if len(state.hand(x)) < HAND_SIZE and x not in humans), None)
            return None if seat is None else Scan(hand(seat), self._pile_card(state))
        if phase == SCORED:
            return None if all(x in humans for x in SEATS) else Scan(FIELD, CTL_NEXT)
        if phase == SCORING:
            seat = state.declaring
            if seat is None or seat in humans:
                return None
            return self._declare(_GAME.observe(state, seat), seat)
        if phase == TURN:
            seat = state.turn
            if seat is None or seat in humans:
                return None
            return self._turn(state, _GAME.observe(state, seat), seat)
        return None

    def _turn(self, state: SuhjongState, obs: Mapping[str, Any], seat: int) -> Event:
        key = (obs["round"], seat, obs["turn_count"][str(seat)], obs["grace"])
        held = frozenset(obs["hands"][str(seat)])
        if key not in self._plans or (obs["step"] == "start" and self._plans[key][1] != held):
            # A turn already under way with no plan (an undo, a human's taps) goes on without one.
            plan = self.players[seat].plan(obs, seat) if obs["step"] == "start" else Plan()
            self._plans[key] = (_progress(plan, obs, seat), held)
        plan, start_hand = self._plans[key]
        mine = obs["hands"][str(seat)]
        if obs["step"] == "start":
            if plan.fold:
                return Scan(hand(seat), CTL_FOLD)
            if plan.showdown and obs["showdown_by"] is None:
                return Scan(hand(seat), CTL_SHOWDOWN)
        if obs["step"] in ("start", "discard"):
            done = sorted(VALUE[c] for c in obs["rivers"][str(seat)])
            todo = list(plan.discard)
            for v in done:
                if v in todo:
                    todo.remove(v)
            card = next((c for v in todo for c in sorted(mine) if VALUE[c] == v), None)
            if card is not None:
                return Scan(FIELD, card)
            if obs["discarded"] == 0:  # no plan (or it no longer fits): discard the lowest card
                return Scan(FIELD, min(mine, key=lambda c: (VALUE[c], c)))
        # Refill: the planned pick-ups still in the other river, then draws.
        if not obs["drew"]:
            new = [VALUE[c] for c in mine if c not in start_hand]
            wanted = list(plan.pick)
            for v in new:
                if v in wanted:
                    wanted.remove(v)
            river = obs["rivers"][str(3 - seat)]
            card = next((c for v in wanted for c in river if VALUE[c] == v), None)
            if card is not None:
                return Scan(hand(seat), card)
        river = obs["rivers"][str(3 - seat)]
        if obs["showdown_by"] == seat and not obs["grace"] and river:
            return Scan(hand(seat), river[0])  # a showdown turn refills from the other river only
        return Scan(hand(seat), self._pile_card(state))

    def _declare(self, obs: Mapping[str, Any], seat: int) -> Event:
        mine = obs["hands"][str(seat)]
        role = solver.best_role(_digits(mine))
        if role is None:
            return Scan(hand(seat), CTL_NOROLE)
        tokens = tokens_of(role.text, sorted(mine)) or []
        taps = list(obs["taps"])
        if taps != tokens[:len(taps)]:
            return Scan(hand(seat), CTL_CLEAR)
        if len(taps) < len(tokens):
            return Scan(FIELD, tokens[len(taps)])
        return Scan(hand(seat), CTL_DECLARE)


PROGRESS_TURN = 8  # from this turn on, every ordinary turn draws at least one card


def _progress(plan: Plan, obs: Mapping[str, Any], seat: int) -> Plan:
    """Two players swapping cards through their rivers could play for ever (the rules allow it): from
    PROGRESS_TURN on, an ordinary turn keeps one draw, so the pile runs out and the round ends."""
    if plan.showdown or plan.fold or obs["grace"] or obs["turn_count"][str(seat)] < PROGRESS_TURN:
        return plan
    if plan.discard and len(plan.pick) >= len(plan.discard):
        return Plan(discard=plan.discard, pick=plan.pick[:len(plan.discard) - 1])
    return plan


def table_bots(seed: int, setup: Mapping[str, Any]) -> SuhjongBots:
    """Two bots."""
    return SuhjongBots(seed)


def random_bots(seed: int, setup: Mapping[str, Any]) -> SuhjongBots:
    return SuhjongBots(seed, {1: "random", 2: "random"})


def greedy_bots(seed: int, setup: Mapping[str, Any]) -> SuhjongBots:
    return SuhjongBots(seed, {1: "greedy", 2: "greedy"})


def play_game(seed: int, players: Mapping[int, str], setup: Mapping[str, Any] | None = None,
              max_events: int = 4000) -> SuhjongState:
    """One whole game between two kinds of player; the final state."""
    game = _GAME
    state = game.initial(setup or {})
    bots = SuhjongBots(seed, players)
    for _ in range(max_events):
        event = bots.next_event(state)
        if event is None:
            break
        state, _ = game.apply(state, event)
    return state


def play_match(kind: str, opponent: str, games: int, seed: int) -> dict[str, int]:
    """`kind` against `opponent` over seeded games, seats swapped every other game: wins, draws, losses
    of `kind`."""
    tally = {"wins": 0, "draws": 0, "losses": 0}
    for index in range(games):
        seat = 1 + index % 2
        players = {seat: kind, 3 - seat: opponent}
        state = play_game(seed + index, players)
        winner = state.result.winner if state.result is not None else None
        key = "draws" if winner is None else "wins" if winner == seat else "losses"
        tally[key] += 1
    return tally
