"""Bots that play empty seats through the taps a player makes, knowing only `observe(state, seat)`.

A bot sets a random number on its hand reader, then calls on the field what the solver chooses: the
shipped opening tree while only calls have been made (it covers every secret), else the run-time rule
over the candidates its knowledge leaves. With items it uses them sensibly: HIGH&LOW and SLASH early,
TARGET when a handful of candidates remain, DOUBLE when two calls are sure to win (or the other seat is
about to win), and a defence item when the other seat nearly knows its number.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from kikimimi.games.base import FIELD, Event, Scan, hand
from kikimimi.games.numeron.engine import Numeron
from kikimimi.games.numeron.judge import token, tree
from kikimimi.games.numeron.knowledge import _lookup, after_change, after_move, after_shuffle, candidates
from kikimimi.games.numeron.solver import _arrays, choose
from kikimimi.games.numeron.state import (
    CALL,
    CHANGE_DIGIT,
    CHANGE_PLACE,
    DOUBLE_CHOICE,
    MOVE_AMOUNT,
    MOVE_FROM,
    MOVE_TO,
    OVER,
    PLAY,
    SET,
    SHUFFLE,
    TARGET,
    NumeronState,
    other,
)

GAME = Numeron()
MOVE_PAIRS = 6  # MOVE's (from, to) pairs a defence weighs
RUNTIME_LIMIT = 300_000  # guesses x candidates scored per decision (the 50 ms budget)


def digit_tag(value: int | str, copy: int) -> str:
    return f"digit-{value}-{copy}"


def tree_call(digits: int, log: list[list[Any]], seat: int) -> str | None:
    """The opening tree's next call while the record holds only this seat's calls and its judgements."""
    book = tree(digits)
    key = ""
    for record in log:
        if record[0] != "call":
            return None
        if record[1] != seat:
            continue
        if book.get(key) != record[2]:
            return None
        key += token(record[3], record[4])
    return book.get(key)


def next_call(digits: int, log: list[list[Any]], seat: int, rng: random.Random,
              cands: np.ndarray | None = None) -> str:
    """The solver's call for `seat` from the public record (`cands`: its candidates, when known)."""
    if not any(r[0] == "item" for r in log):
        call = tree_call(digits, log, seat)
        if call is not None:
            return call
    if cands is None:
        cands = candidates(digits, log, seat)
    if len(cands) == 0:  # an impossible record (a human's stray taps): any number
        return "".join(rng.sample("0123456789", digits))
    return choose(digits, cands, RUNTIME_LIMIT)


def _entropy(values: np.ndarray) -> float:
    _, counts = np.unique(values, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log2(p)).sum())


class NumeronBots:
    """The bots of one table; `next_event(state, humans)` is the next tap any bot seat makes."""

    def __init__(self, seed: int, setup: Mapping[str, Any] | None = None) -> None:
        self.rng = random.Random(seed)
        self.setup = dict(setup or {})
        self.plans: dict[int, str] = {}  # seat -> the number it sets
        self.decisions: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.cancelled: set[tuple[Any, ...]] = set()
        # Load the opening tree and the number tables now, not inside the first decision (its 50 ms).
        digits = int(self.setup.get("digits", 3))
        tree(digits)
        _arrays(digits)
        if self.setup.get("items"):
            _lookup(digits)

    def next_event(self, state: NumeronState, humans: Collection[int] = ()) -> Event | None:
        if state.phase == OVER:
            return None
        if state.phase == SET:
            return self._set(state, humans)
        if state.phase != PLAY or state.turn is None:
            return None
        x = state.turn
        if state.step == DOUBLE_CHOICE:
            o = other(x)
            return None if o in humans else self._double_choice(GAME.observe(state, o), o)
        if x in humans:
            return None
        return self._turn(GAME.observe(state, x), x)

    # -- set ----------------------------------------------------------------------------------------

    def _set(self, state: NumeronState, humans: Collection[int]) -> Event | None:
        for seat in (1, 2):
            if seat in humans or (state.practice and seat == 1):
                continue
            obs = GAME.observe(state, seat)
            if obs["ready"][seat]:
                continue
            plan = self.plans.setdefault(seat, "".join(self.rng.sample("0123456789", obs["digits"])))
            entry = obs["entry"]
            if not plan.startswith(entry):
                return Scan(hand(seat), "ctl-clear")
            return Scan(hand(seat), digit_tag(plan[len(entry)], seat))
        return None

    # -- a turn ---------------------------------------------------------------------------------------

    def _turn(self, obs: dict[str, Any], seat: int) -> Event:
        step = obs["step"]
        key = (seat, len(obs["log"]), obs["item_this_turn"], obs["calls_left"])
        decision = self.decisions.get(key)
        if decision is None:
            decision = self._decide(obs, seat)
            self.decisions = {key: decision}  # one decision in flight per table
        kind = decision[0]
        if step == CALL:
            if kind == "item" and obs["item"] is None and not obs["item_this_turn"] and not obs["call"] \
                    and key not in self.cancelled:
                self.cancelled.add(key)  # tapped once: if it comes back cancelled, call instead
                return Scan(FIELD, f"item-{decision[1]}-{seat}")
            call = decision[1] if kind == "call" else self._replan_call(obs, seat, key)
            done = obs["call"]
            if not call.startswith(done):
                return Scan(hand(seat), "ctl-clear")
            return Scan(FIELD, digit_tag(call[len(done)], 3))
        if kind != "item" or obs["item"] != decision[1]:
            # An item this bot did not start (bots taking over a game in progress, a tap by hand): cancel it.
            return Scan(hand(seat), "ctl-clear")
        plan = decision[2]
        work = obs["work"]
        if step == TARGET:
            return Scan(FIELD, digit_tag(plan[0], 3))
        if step == SHUFFLE:
            done = work[0] if work else ""
            return Scan(hand(seat), digit_tag(plan[0][len(done)], seat))
        if step == CHANGE_PLACE:
            return Scan(FIELD, f"pos-{plan[0]}")
        if step == CHANGE_DIGIT:
            return Scan(hand(seat), digit_tag(plan[1], seat)) if plan else Scan(hand(seat), "ctl-clear")
        if step == MOVE_FROM:
            return Scan(FIELD, f"pos-{plan[0]}")
        if step == MOVE_TO:
            return Scan(FIELD, f"pos-{plan[1]}")
        if step == MOVE_AMOUNT:
            return Scan(hand(seat), digit_tag(plan[2], seat)) if plan else Scan(hand(seat), "ctl-clear")
        return Scan(hand(seat), "ctl-clear")  # an item the bot did not start: cancel it

    def _replan_call(self, obs: dict[str, Any], seat: int, key: tuple[Any, ...]) -> str:
        call = next_call(obs["digits"], obs["log"], seat, self.rng)
        self.decisions = {key: ("call", call)}
        return call

    def _decide(self, obs: dict[str, Any], seat: int) -> tuple[Any, ...]:
        """("item", name, plan) or ("call", number)."""
        digits, log = obs["digits"], obs["log"]
        mine = None
        if obs["items"] and obs["step"] == CALL and not obs["item_this_turn"] and not obs["call"] \
                and obs["calls_left"] == 1:
            mine = candidates(digits, log, seat)
            item = self._item(obs, seat, mine)
            if item is not None:
                return item
        if mine is not None and not any(r[0] == "item" for r in log) and tree_call(digits, log, seat):
            mine = None  # the tree applies: no candidates needed
        return ("call", next_call(digits, log, seat, self.rng, mine))

    # -- items ---------------------------------------------------------------------------------------

    def _item(self, obs: dict[str, Any], seat: int, mine: np.ndarray) -> tuple[Any, ...] | None:
        """An item worth using now, with its taps; `mine`: the other seat's candidates as this seat knows."""
        digits, log = obs["digits"], obs["log"]
        used = obs["used"][seat]
        left = obs["items"] - len(used)
        if left <= 0:
            return None

        def may(name: str) -> bool:
            return name not in used

        theirs = candidates(digits, log, other(seat))  # this seat's number, as the other seat knows it
        n, m = len(mine), len(theirs)
        my_calls = sum(1 for r in log if r[0] == "call" and r[1] == seat)
        number = obs["number"]
        if n == 1:
            return None  # a sure win: just call
        if may("double") and (n == 2 or (m <= 2 and n <= 6)):
            return ("item", "double", ())
        if m <= 3 and number:  # the other seat nearly knows this number: defend
            defence = self._defence(digits, theirs, number, used)
            if defence is not None:
                return defence
        reserve = 1 if may("double") and left > 1 else 0  # keep a slot for DOUBLE's sure win
        if left - reserve <= 0:
            return None
        if may("high-low") and my_calls == 0:
            return ("item", "high-low", ())
        if may("slash") and n > 60:
            return ("item", "slash", ())
        if may("target") and 3 <= n <= 60:
            arr, _ = _arrays(digits)
            sub = arr[mine]
            best = max(range(10), key=lambda d: (_entropy(np.where((sub == d).any(axis=1),
                                                                   (sub == d).argmax(axis=1), -1)), -d))
            return ("item", "target", (best,))
        return None

    def _defence(self, digits: int, theirs: np.ndarray, number: str, used: list[str]) -> tuple[Any, ...] | None:
        """The defence item that leaves the other seat the most candidates, with its taps."""
        options: list[tuple[int, tuple[Any, ...]]] = []
        if "shuffle" not in used:
            orders = ["".join(p) for p in _orders(number, self.rng)]
            options.append((len(after_shuffle(digits, theirs)), ("item", "shuffle", (orders[0],))))
        if "change" not in used:
            for k in range(1, digits + 1):
                old = int(number[k - 1])
                fits = [d for d in (range(5) if old <= 4 else range(5, 10)) if str(d) not in number]
                if fits:
                    cls = "low" if old <= 4 else "high"
                    size = len(after_change(digits, theirs, k, cls))
                    options.append((size, ("item", "change", (k, self.rng.choice(fits)))))
        if "move" not in used:
            pairs = [(f, t) for f in range(1, digits + 1) for t in range(1, digits + 1)
                     if f != t and _move_amounts(number, f, t)]
            for f, t in self.rng.sample(pairs, min(len(pairs), MOVE_PAIRS)):  # a few: the 50 ms budget
                size = len(after_move(digits, theirs, f, t))
                options.append((size, ("item", "move", (f, t, self.rng.choice(_move_amounts(number, f, t))))))
        if not options:
            return None
        size, best = max(options, key=lambda o: o[0])
        return best if size > max(3, len(theirs)) else None

    def _double_choice(self, obs: dict[str, Any], seat: int) -> Event:
        """The place of the other seat's number whose digit this seat knows least."""
        digits = obs["digits"]
        arr, _ = _arrays(digits)
        sub = arr[candidates(digits, obs["log"], seat)]
        if len(sub) == 0:
            return Scan(hand(seat), "pos-1")
        k = max(range(digits), key=lambda i: (_entropy(sub[:, i]), -i))
        return Scan(hand(seat), f"pos-{k + 1}")


def _orders(number: str, rng: random.Random) -> list[tuple[str, ...]]:
    digits = list(number)
    for _ in range(20):
        rng.shuffle(digits)
        if "".join(digits) != number:
            break
    return [tuple(digits)]


def _move_amounts(number: str, f: int, t: int) -> list[int]:
    from kikimimi.games.numeron.engine import _move_options

    return _move_options(number, f, t)


def numeron_bots(seed: int, setup: Mapping[str, Any] | None = None) -> NumeronBots:
    """The registry's bot factory."""
    return NumeronBots(seed, setup)


__all__ = ["NumeronBots", "next_call", "numeron_bots", "tree_call"]
