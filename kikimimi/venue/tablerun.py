"""A live table playing its share of a meeting over several tables, reporting each game to the host.

The table's games are driven as a one-table meeting drives them (`records.ontable.table_games`: each
game with the meeting's set-up, its outcome and journal game id when it ends); what differs is where a
result goes: to the journal first (the table's loop writes the end before anything else), then to the
host through the outbox (`client.Reporter`), which keeps trying while the host is away. Play never
waits for the host.

A table restarted mid-meeting (power, crash, kill) resumes the game the journal holds and carries on
from the number of meeting games its journal has finished; the reporter sends whatever the host has not
acknowledged. With `bots`, the game's bots play every seat through the simulated readers (the demo's
way), so a meeting needs no one at the table (tests, the scale bench, a rehearsal).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

from kikimimi.records.ontable import table_games
from kikimimi.table.feed import FeedError, SimTapper
from kikimimi.table.journal import Journal
from kikimimi.table.live import LiveTable
from kikimimi.venue.client import (
    BACKOFF_MOST,
    Assignment,
    Heartbeat,
    HostLink,
    HostRefused,
    HostUnreachable,
    Outbox,
    Reporter,
    meeting_games,
)

log = logging.getLogger(__name__)

SayLine = Callable[[str], None]  # prints one line to the person at the command (not the core Say effect)


class MeetingRefused(RuntimeError):
    """The host will not have this table (wrong token, unknown table, meeting closed): nothing to play."""


def join_or_resume(link: HostLink, outbox: Outbox, say: SayLine, stop: threading.Event) -> Assignment:
    """Join the host's meeting; when the host does not answer, play on with the meeting this table
    joined before (kept in the outbox), else wait for the host (a table that never joined has no players)."""
    delay = 1.0
    warned = False
    while True:
        try:
            return outbox.remember(link.url, link.join())
        except HostRefused as exc:
            raise MeetingRefused(str(exc)) from None
        except HostUnreachable as exc:
            known = outbox.assignment(link.table, link.meeting)
            if known is not None:
                link.meeting = known.meeting
                link.use_credential(known.credential)
                say(f"{exc}; playing on with meeting {known.meeting} as joined before (results wait)")
                return known
            if not warned:
                say(f"{exc}; waiting for it (this table has not joined a meeting yet)")
                warned = True
        if stop.wait(delay):
            raise KeyboardInterrupt
        delay = min(delay * 2, BACKOFF_MOST)


class BotSeats:
    """The game's bots play every seat of the table's current game while `playing` is set."""

    def __init__(self, table: LiveTable, seed: int, pace: float = 0.0) -> None:
        self.table = table
        self.seed = seed
        self.pace = pace  # seconds between taps after the table has spoken (0: as fast as it takes them)
        self.playing = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="venue-bots", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.playing.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        loop = self.table.loop
        tapper = SimTapper(loop, self.table.hub, timeout=10)
        bots, bots_for = None, None
        while not self._stop.is_set():
            self.playing.wait()
            game_id = loop.status.game_id
            if self._stop.is_set() or game_id is None or loop.game.is_over(loop.state):
                time.sleep(0.005)
                continue
            if bots_for != game_id:  # a new game (or one resumed from the journal): fresh bots, own seed
                bots = loop.info.new_bots(self.seed + zlib.crc32(game_id.encode()), loop.session.setup)
                bots_for = game_id
            event = bots.next_event(loop.state, ()) if bots is not None else None
            if event is None:
                time.sleep(0.005)
                continue
            try:
                tapper.perform(event)
            except FeedError as exc:  # the game changed under the bots: they start again on the new one
                log.debug("bots: %s", exc)
                bots_for = None
            if self.pace:  # a rehearsal at human pace, as the demo plays: the table speaks, then a pause
                self.table.voice.wait_idle(timeout=15)
                self._stop.wait(self.pace)


class TableRun:
    """One table's meeting: the games, the heartbeat, the reporter."""

    def __init__(self, table: LiveTable, link: HostLink, outbox: Outbox, assignment: Assignment,
                 say: SayLine, bots: int | None = None, game_timeout: float | None = None, pace: float = 0.0) -> None:
        self.table = table
        self.link = link
        self.outbox = outbox
        self.assignment = assignment
        self.say = say
        self.round = 0
        self.phase = "joining"
        self.reporter = Reporter(link, outbox, assignment)
        self.heartbeat = Heartbeat(link, self.state, on_answer=self.reporter.host_answers)
        self.bots = BotSeats(table, bots, pace) if bots is not None else None
        self.game_timeout = game_timeout
        self._ended = threading.Event()
        self._journal = Journal(table.config.journal)  # a reading connection of the main thread's own

    # -- what the host sees -------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        loop = self.table.loop
        phase = self.phase
        if phase == "play":
            phase = str(loop.report().get("phase") or phase)  # the game's own phase (deal, play, over)
        return {"round": self.round, "phase": phase, "game_id": loop.status.game_id,
                "health": {"readers": {role: h.status for role, h in self.table.hub.health().items()},
                           "outputs": {name: h.status for name, h in self.table.voice.health().items()},
                           "unsent": self.reporter.pending}}

    # -- the meeting --------------------------------------------------------------------------------

    def finished_games(self) -> int:
        return len(meeting_games(self._journal, self.assignment))

    def run(self) -> int:
        """Play the table's remaining games, then wait until the host has every result. 0 when all were
        acknowledged, 1 when the host refused some (they stay in the outbox)."""
        a = self.assignment
        due = a.games_due
        if due is None:
            raise MeetingRefused(f"meeting {a.meeting} is a contest with no number of games per table: "
                                 "start the host with --games N")
        loop = self.table.loop
        play_one_game = table_games(self.table, timeout=self.game_timeout, game=a.game)
        told = loop.on_game_over

        def game_over(game_id: str, outcome: Any) -> None:
            if told is not None:
                told(game_id, outcome)
            self._ended.set()
            self.reporter.wake()  # the journal has the end already: the reporter may send it now
            self.heartbeat.beat()

        loop.on_game_over = game_over
        self.reporter.start()
        self.heartbeat.start()
        if self.bots is not None:
            self.bots.start()
        try:
            self._resume_game_under_way()
            while (done := self.finished_games()) < due:
                self.round, self.phase = done + 1, "play"
                self.heartbeat.beat()
                self._fresh_game()
                self.say(f"table {a.table}, game {self.round} of {due}: "
                         + ", ".join(f"seat {s} {n}" for s, n in a.seat_players.items()))
                self._playing(True)
                try:
                    play_one_game(a.seat_players)
                finally:
                    self._playing(False)
            self.round, self.phase = due, "reporting"
            self.heartbeat.beat()
            if self.reporter.pending or not self.reporter.wait_drained(timeout=0.5):
                self.say(f"table {a.table}: every game played; waiting for the host to take "
                         f"{self.reporter.pending} result(s)")
            self.reporter.wait_drained()
            self.phase = "done"
            self.heartbeat.stop()
            with contextlib.suppress(HostUnreachable, HostRefused):
                self.link.send_state(self.state())  # the host shows the table done, not lost
            return 1 if self.reporter.refused else 0
        finally:
            if self.bots is not None:
                self.bots.stop()
            self.heartbeat.stop()
            self.reporter.stop()
            self._journal.close()

    def _playing(self, on: bool) -> None:
        if self.bots is not None:
            (self.bots.playing.set if on else self.bots.playing.clear)()

    def _current_record(self) -> Any:
        game_id = self.table.loop.status.game_id
        return self._journal.game(game_id) if game_id else None

    def _resume_game_under_way(self) -> None:
        """A meeting game the journal resumed (the table was stopped mid-game) is played to its end,
        not abandoned for a new one."""
        loop = self.table.loop
        record = self._current_record()
        if record is None or record.ended_at is not None or not self.assignment.is_meeting_game(record) \
                or loop.game.is_over(loop.state) or not loop.journaled_events:
            return
        self.round, self.phase = self.finished_games() + 1, "play"
        self.say(f"table {self.assignment.table}: game {self.round} resumed from the journal")
        self._ended.clear()
        self._playing(True)
        try:
            while not self._ended.wait(0.5):
                if loop.game.is_over(loop.state):
                    break
        finally:
            self._playing(False)

    def _fresh_game(self) -> None:
        """Start the round's game unless the table holds a fresh one of the meeting begun after joining
        (the game a table shows when it opens began before the meeting and is not one of its games)."""
        loop = self.table.loop
        record = self._current_record()
        if record is not None and not loop.journaled_events and not loop.game.is_over(loop.state) \
                and self.assignment.is_meeting_game(record):
            return
        count = loop.processed
        loop.new_game(self.assignment.setup)
        loop.wait_processed(count + 1)
