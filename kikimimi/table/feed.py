"""Tapping simulated readers as players would: from an event script (`play --feed`) or from bots (the demo).

Every tap goes through the real path (simulated reader -> hub with its debounce -> deck -> loop), and
the tapper waits until the loop has handled it, so that taps on different readers keep their order.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Iterable, Sequence

from kikimimi.devices.deck import Deck
from kikimimi.devices.hub import Hub
from kikimimi.games.base import Event, Referee, Scan, seat_of
from kikimimi.games.codec import event_to_json
from kikimimi.shown import echoed
from kikimimi.table.loop import TableLoop
from kikimimi.table.script import read_script

log = logging.getLogger(__name__)


class FeedError(RuntimeError):
    """A tap the table did not take (no simulated reader for that role, no UID for that piece...)."""


class SimTapper:
    def __init__(self, loop: TableLoop, hub: Hub, timeout: float = 5.0) -> None:
        self.loop = loop
        self.hub = hub
        self.timeout = timeout
        self.debounce = loop.config.debounce
        self._last_tap: dict[tuple[str, str], float] = {}

    @property
    def deck(self) -> Deck:
        """The current game's deck (it changes with a new game of another game)."""
        return self.loop.deck

    def uid_for(self, reader: str, tag: str) -> str:
        """The UID of a tag; for a control with one tag per seat, the tapping seat's own tag."""
        uids = self.deck.uids_of(tag)
        if not uids:
            raise FeedError(f"the deck {self.deck.source} has no tag for {echoed(tag)}")
        seat = seat_of(reader)
        if len(uids) > 1 and seat is not None and seat <= len(uids):
            return sorted(uids)[seat - 1]
        return sorted(uids)[0]

    def perform(self, event: Event) -> None:
        """A scan as a tap on its simulated reader; a referee action straight to the loop. Waits for it."""
        count = self.loop.processed
        unsaved = self.loop.status.unsaved
        if isinstance(event, Referee):
            self.loop.submit(event)
        elif event.piece is None:
            self._tap(event.reader, event.uid or "00000000")
        else:
            self._tap(event.reader, event.uid or self.uid_for(event.reader, event.piece))
        if not self.loop.wait_processed(count + 1, self.timeout):
            raise FeedError(f"the table did not take {event} within {self.timeout:.0f} s")
        if self.loop.status.unsaved != unsaved:
            # Going on would play later lines onto a game that lacks this one: stop here, resume from the journal.
            raise FeedError("not saved (the journal could not be written); the feed stops here: make room "
                            "(or fix the journal) and run the same command again, it resumes after the saved events")

    def _tap(self, reader: str, uid: str) -> None:
        # The same tag again on the same reader within the debounce window would count once: wait it out.
        key = (reader, uid)
        last = self._last_tap.get(key)
        if last is not None:
            wait = self.debounce + 0.05 - (time.monotonic() - last)
            if wait > 0:
                time.sleep(wait)
        try:
            sim = self.hub.simulated(reader)
        except KeyError as exc:
            raise FeedError(str(exc)) from None
        sim.tap_and_remove(uid)
        self._last_tap[key] = time.monotonic()


def feed_script(tapper: SimTapper, lines: Iterable[str], pace: float = 0.0, saved: Sequence[Event] = (),
                source: str = "feed") -> int:
    """Tap a script's events in order; returns how many were sent. `saved` is what the resumed game's journal
    already holds: the script's lines that match it, in order, are not tapped again (matched by content, not
    counted: a clock's timeout is in the journal and not in the script). A set-up line starts a new game
    when nothing was played. FeedError names the line where the feed stopped; `source` names the script in the
    lines refused."""
    sent = 0
    pending = deque(saved)
    for line in read_script(lines, tapper.deck):
        if line.error is not None and line.setup is not None:
            # A feed whose set-up is wrong would play into the wrong game: refuse it whole.
            raise FeedError(f"line {line.number}: {line.error}; nothing was fed")
        if line.error is not None:
            log.error("%s:%d: refused: %s", source, line.number, line.error)
            continue
        if line.setup is not None:
            current = {"game": tapper.loop.info.id, **tapper.loop.session.setup}
            if not saved and tapper.loop.journaled_events == 0 and current != line.setup:
                count = tapper.loop.processed
                tapper.loop.new_game(line.setup)
                tapper.loop.wait_processed(count + 1, tapper.timeout)
            continue
        assert line.event is not None
        if _already_saved(pending, line.event, line.number):
            continue
        try:
            tapper.perform(line.event)
        except FeedError as exc:
            raise FeedError(f"line {line.number}: {exc}") from None
        sent += 1
        if pace:
            time.sleep(pace)
    if pending:
        log.warning("feed: the journal holds %d event(s) after the script's last line (%s first); "
                    "they stay", len(pending), event_to_json(pending[0]))
    return sent


def _already_saved(pending: deque[Event], event: Event, number: int) -> bool:
    """Whether a script line is the next event the journal holds (then it is taken off `pending`)."""
    while pending and not _same(pending[0], event) and _is_timeout(pending[0]):
        pending.popleft()  # the turn clock's, not the script's
    if not pending:
        return False
    if _same(pending[0], event):
        pending.popleft()
        return True
    raise FeedError(f"line {number}: the journal's game went another way here (it holds "
                    f"{json.dumps(event_to_json(pending[0]))}, the script says {json.dumps(event_to_json(event))}); "
                    "nothing was fed: feed this script to a table with a fresh journal")


def _is_timeout(event: Event) -> bool:
    return isinstance(event, Referee) and event.action == "timeout"


def _same(saved: Event, event: Event) -> bool:
    """The journal's event is the script's: the same reader and piece (and UID when the script gives one), or the
    same referee action with the same parameters."""
    if isinstance(saved, Scan) and isinstance(event, Scan):
        return (saved.reader, saved.piece) == (event.reader, event.piece) and event.uid in (None, saved.uid)
    if isinstance(saved, Referee) and isinstance(event, Referee):
        return saved.action == event.action and dict(saved.params or {}) == dict(event.params or {})
    return False
