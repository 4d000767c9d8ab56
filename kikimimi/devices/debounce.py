"""The hub's debounce: a tag lifted and put back on the same reader within the window counts once.

Removals are held back for the window. If the same tag comes back on that reader in time, the
removal and the new tap cancel out (a flicker, or a player's hand wobbling). A different tag, or
the window running out, lets the removal through. So every presentation gives exactly one tap and
one removal, and a quick tap of two different tags in a row gives two taps.
"""

from __future__ import annotations

from kikimimi.devices.events import ReaderEvent


class Debouncer:
    def __init__(self, window: float) -> None:
        if window < 0:
            raise ValueError(f"debounce window must be 0 or more seconds, not {window}")
        self.window = window
        self._pending: dict[str, ReaderEvent] = {}  # reader role -> its held-back removal

    def push(self, event: ReaderEvent) -> list[ReaderEvent]:
        """The events to pass on now, in order, after `event` arrived."""
        pending = self._pending.pop(event.reader, None)
        out: list[ReaderEvent] = []
        if event.kind == "tap" and pending is not None:
            if pending.uid == event.uid and event.t - pending.t <= self.window:
                return []  # lifted and back in time: still the same tap
            out.append(pending)
        elif pending is not None:
            out.append(pending)
        if event.kind == "removed" and self.window > 0:
            self._pending[event.reader] = event
        else:
            out.append(event)
        return out

    def expire(self, now: float) -> list[ReaderEvent]:
        """Removals whose window has passed by `now`."""
        due = [e for e in self._pending.values() if e.t + self.window <= now]
        for event in due:
            del self._pending[event.reader]
        return sorted(due, key=lambda e: e.t)

    def next_deadline(self) -> float | None:
        return min((e.t + self.window for e in self._pending.values()), default=None)

    def flush(self) -> list[ReaderEvent]:
        due = sorted(self._pending.values(), key=lambda e: e.t)
        self._pending.clear()
        return due
