"""Turns reader and output health into alerts for the Priest: a reader down, an audio device lost, back,
and a sound card running dry again and again (underruns), which only the Priest is told: never the speaker."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from kikimimi.games.base import Alert

UNDERRUN_BURST = 5  # more underruns than this ...
UNDERRUN_WINDOW = 60.0  # ... within this many seconds is a burst: clicks and gaps the players hear


class HealthWatch:
    """Compares each poll with the last; says when something goes down and when it comes back.

    A reader still starting ("reconnecting" before it was ever ok) is not an alert; a reader or an
    output that fails outright is, even if it was never ok. Underruns: see `_underrun_bursts`.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._seen: dict[str, str] = {}
        self._down: set[str] = set()
        self._clock = clock
        self._underruns: dict[str, deque[tuple[float, int]]] = {}  # output -> its (time, count) polls in the window
        self._last_underrun: dict[str, float] = {}  # output -> when its count last grew
        self._bursting: set[str] = set()

    def check(self, readers: Mapping[str, Any], outputs: Mapping[str, Any]) -> list[Alert]:
        alerts: list[Alert] = []
        for role, h in readers.items():
            alerts += self._one(f"reader {role}", h.status, "reader", role, h.detail)
        for name, h in outputs.items():
            alerts += self._one(f"output {name}", h.status, "output", name, h.detail)
        return alerts + self._underrun_bursts(outputs, self._clock())

    def _one(self, key: str, status: str, kind: str, name: str, detail: str) -> list[Alert]:
        before = self._seen.get(key)
        self._seen[key] = status
        if status == "ok":
            if key in self._down:
                self._down.discard(key)
                return [Alert(f"{kind}.back", {kind: name})]
            return []
        if key in self._down or not (before == "ok" or status == "failed"):
            return []
        self._down.add(key)
        down = "reader.down" if kind == "reader" else "output.lost"
        return [Alert(down, {kind: name, "status": status, "detail": detail})]

    def _underrun_bursts(self, outputs: Mapping[str, Any], now: float) -> list[Alert]:
        """One alert when an output's underruns grow by more than UNDERRUN_BURST within UNDERRUN_WINDOW s;
        not again until the burst is over (a whole window without one), so a card that keeps running dry
        is said once, not every poll. The count at the first poll (since the stream opened) is the baseline.

        Outputs on one sound card share its count (Voice.health() reads one stream's counter), so the
        outputs starting a burst at the same poll with the same count are one card: one alert naming them.
        """
        starting: dict[int, list[str]] = {}
        growth: dict[int, int] = {}
        for name, health in outputs.items():
            count = int(getattr(health, "underruns", 0) or 0)
            polls = self._underruns.setdefault(name, deque())
            if polls and count < polls[-1][1]:
                polls.clear()  # the stream was reopened: its count starts again
            if polls and count > polls[-1][1]:
                self._last_underrun[name] = now
            polls.append((now, count))
            while now - polls[0][0] > UNDERRUN_WINDOW:
                polls.popleft()
            if name in self._bursting:
                if now - self._last_underrun.get(name, now) >= UNDERRUN_WINDOW:
                    self._bursting.discard(name)  # quiet for a whole window: the burst is over
                continue
            grew = count - polls[0][1]
            if grew > UNDERRUN_BURST:
                self._bursting.add(name)
                starting.setdefault(count, []).append(name)
                growth[count] = grew
        return [Alert("output.underruns", {"output": ", ".join(names), "count": growth[count],
                                           "seconds": round(UNDERRUN_WINDOW)})
                for count, names in starting.items()]
