"""The turn clock of the live table: the rules say whom the game waits for; the table keeps the time.

A game that has a clock (its game class's `clock`) answers, after every step, `(seat, seconds)` or None. The
clock restarts whenever that answer changes, warns the seat `warning_seconds` before the end (on its
earphone) and then asks the loop to apply `Referee("timeout")`, a journaled event like any other, so
a resumed game is the same game. Timers call back into the loop's queue; the loop drops a callback
whose token is no longer current (the seat moved in the meantime).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

WARNING_SECONDS = 10


class TurnClock:
    def __init__(self, notify: Callable[[str, int, int], None], warning_seconds: int = WARNING_SECONDS) -> None:
        self.notify = notify  # (kind "warning" | "timeout", seat, token) -> None; must only queue
        self.warning_seconds = warning_seconds
        self.demand: tuple[int, int] | None = None
        self.deadline = 0.0  # time.monotonic() of the timeout
        self._token = 0
        self._timers: list[threading.Timer] = []
        self._lock = threading.Lock()

    def follow(self, demand: tuple[int, int] | None) -> None:
        """The game now waits for `demand` = (seat, seconds), or for nobody (None)."""
        if demand is not None and demand[1] <= 0:
            demand = None
        if demand == self.demand:
            return
        self.stop()
        self.demand = demand
        if demand is None:
            return
        seat, seconds = demand
        self.deadline = time.monotonic() + seconds
        with self._lock:
            token = self._token
            if seconds > self.warning_seconds:
                self._start(seconds - self.warning_seconds, "warning", seat, token)
            self._start(seconds, "timeout", seat, token)

    def _start(self, after: float, kind: str, seat: int, token: int) -> None:
        timer = threading.Timer(after, self.notify, (kind, seat, token))
        timer.daemon = True
        timer.start()
        self._timers.append(timer)

    def remaining(self) -> tuple[int, float] | None:
        """The seat the clock runs for and its seconds left (for the Priest's console), None when stopped."""
        demand = self.demand
        if demand is None:
            return None
        return demand[0], max(0.0, self.deadline - time.monotonic())

    def current(self, token: int) -> bool:
        with self._lock:
            return token == self._token and self.demand is not None

    def stop(self) -> None:
        with self._lock:
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()
            self._token += 1
            self.demand = None
