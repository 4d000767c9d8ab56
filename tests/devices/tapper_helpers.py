"""Feeding a whole game to the live table through emulated readers: a tap on an emulated role is a tag
put on that reader (and lifted once the table took it); the other roles stay simulated."""

from __future__ import annotations

import time
from collections.abc import Callable

from kikimimi.table.feed import SimTapper

Place = Callable[[str], Callable[[], None]]  # put a tag with this UID on the reader; returns how to lift it


class ReaderTapper(SimTapper):
    def __init__(self, loop, hub, readers: dict[str, Place], same_tag_gap: float) -> None:
        super().__init__(loop, hub, timeout=10.0)
        self.readers = readers
        self.same_tag_gap = same_tag_gap  # the reader's removal delay: the same tag again waits it out
        self._lift: Callable[[], None] | None = None

    def perform(self, event) -> None:
        super().perform(event)
        if self._lift is not None:  # the table took it: lift the tag
            self._lift()
            self._lift = None

    def _tap(self, reader: str, uid: str) -> None:
        if reader not in self.readers:
            return super()._tap(reader, uid)
        key = (reader, uid)
        last = self._last_tap.get(key)
        if last is not None:  # the same tag again on the same reader: past the debounce of its removal
            time.sleep(max(0.0, self.debounce + self.same_tag_gap - (time.monotonic() - last)))
        # A hand puts the next tag down after the last one left the reader: wait until the reader saw it go
        # (pcscd's vpcd would otherwise take a card swapped within one of its polls for the same card).
        end = time.monotonic() + 5.0
        while self.hub.held(reader) is not None and time.monotonic() < end:
            time.sleep(0.01)
        self._lift = self.readers[reader](uid)
        self._last_tap[key] = time.monotonic()
