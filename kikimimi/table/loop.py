"""The live table: one loop that owns the game, fed by the readers and the referee, speaking the effects.

Readers' taps (through the hub), the referee's actions (console, CLI), the turn clock and the
table's own announcements (reader health, meeting standings, the console's repeat) are put on one
queue; one thread takes them in order, resolves tags through the game's deck, appends each accepted
event to the journal *before* applying it, applies it with the pure engine and hands the effects to
the voice. Nothing else speaks. Listeners (the terminal log, the console, the demo's bots) are told
after every step. The loop knows no game: it asks the registry (`GameInfo`).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kikimimi.devices.events import ReaderEvent
from kikimimi.games.base import SPEAKER, Alert, Effect, Event, GameOver, Outcome, Referee, Say, Scan, hand, seat_of
from kikimimi.games.registry import GameInfo, UnknownGame, get_info
from kikimimi.games.session import Session
from kikimimi.table.alternation import AlternationWatch
from kikimimi.table.clock import TurnClock
from kikimimi.table.config import TableConfig
from kikimimi.table.journal import Journal
from kikimimi.table.messages import Announcement, ClockTick, NewGame, PauseRequest, Submitted, TableAction
from kikimimi.table.recording import GameRecorder
from kikimimi.table.steps import StepFeed
from kikimimi.words import counted

log = logging.getLogger(__name__)

REFUSED = "referee.refused"  # what a game says when it refuses a referee action


@dataclass(frozen=True)
class Step:
    """One thing the loop did: an event applied (seq > 0) or answered without changing the game (seq 0),
    or one of the table's own steps (a `TableAction`: seq 0, never journaled)."""

    seq: int
    event: Event | TableAction
    effects: list[Effect]
    uid: str | None = None
    received: float = 0.0  # time.monotonic() the reader saw the tap, or the referee acted
    journaled: bool = True


Listener = Callable[[Step], None]
_STOP = object()


LoopMessage = ReaderEvent | Submitted | TableAction | ClockTick  # the queue's items (kikimimi.table.messages)


class TableVoice(Protocol):
    """What the loop asks of the voice (kikimimi.voice.router's Voice)."""

    used: set[str] | None  # outputs the game uses (their faults are said); a voice may not track them

    def say(self, effect: Say) -> None: ...

    def use_catalog(self, namespace: str) -> None: ...


class TableHub(Protocol):
    """What the loop asks of the readers' hub (kikimimi.devices.hub's Hub)."""

    def start(self) -> None: ...

    def get(self, timeout: float | None = None) -> ReaderEvent | None: ...

    def stop(self) -> None: ...


@dataclass
class TableStatus:
    game_id: str | None = None
    resumed: bool = False
    # The latest alerts (the console shows them; the log keeps them all): bounded, for tables that run for days.
    alerts: deque[tuple[float, Alert]] = field(default_factory=lambda: deque(maxlen=500))
    removed: int = 0
    unknown_tags: int = 0
    unsaved: int = 0  # events refused because the journal could not be written (a fed script stops at one)

    def alert(self, key: str, **params: Any) -> None:
        """Show the Priest something (the console's alerts), stamped with the wall clock."""
        self.alerts.append((time.time(), Alert(key, params)))


class TableLoop:
    """Owns the session; every change goes through `_handle` on the loop's own thread."""

    def __init__(self, config: TableConfig, journal: Journal | None = None, voice: TableVoice | None = None,
                 hub: TableHub | None = None,
                 on_game_over: Callable[[str, Outcome], None] | None = None) -> None:
        self.config = config
        self.voice = voice
        self.hub = hub
        self.on_game_over = on_game_over
        self.info: GameInfo = config.info
        self.game = self.info.game
        self.deck = config.deck
        self.session: Session[Any] = Session(self.game, _without_game(config.setup))
        self.clock = TurnClock(self._queue_clock)
        self.two_tags = AlternationWatch()
        self._simulated = {spec.role for spec in config.readers if spec.protocol == "sim"}
        self.paused = False
        self.status = TableStatus()
        self.recorder = GameRecorder(journal, self.status)
        self.steps = StepFeed()
        self.listeners = self.steps.listeners  # told after every step (append and remove; never replaced)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()

    # -- life cycle ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Resume the unfinished game from the journal, or begin a new one; then listen."""
        self._resume_or_begin()
        if self.hub is not None:
            self.hub.start()
            pump = threading.Thread(target=self._pump, name="table-pump", daemon=True)
            pump.start()
            self._threads.append(pump)
        loop = threading.Thread(target=self._run, name="table-loop", daemon=True)
        loop.start()
        self._threads.append(loop)

    def stop(self) -> None:
        if self._stopping.is_set():
            return
        self._stopping.set()
        self.clock.stop()
        self._queue.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=2)
        if self.hub is not None:
            self.hub.stop()

    def _resume_or_begin(self) -> None:
        journal = self.recorder.journal
        record = journal.unfinished() if journal is not None else None
        problem = self.config.cannot_play(record.game, record.setup) if record is not None else None
        if record is not None and problem is not None:
            log.warning("journal: game %s (%s) cannot be resumed on this table: %s", record.id, record.game, problem)
        if journal is not None and record is not None and problem is None:
            self._use_game(get_info(record.game))
            session = Session(self.game, _without_game(record.setup))
            outcome = None
            for event in journal.events(record.id):
                for effect in session.feed(event):  # silent: the table already said it
                    if isinstance(effect, GameOver):
                        outcome = effect.outcome
            if self.game.is_over(session.state):
                # Killed between the last event and writing the end: finish it now, then a new game.
                journal.finish(record.id, outcome)
                log.info("game %s had ended before the stop; finished it in the journal", record.id)
                self._begin({"game": record.game, **record.setup})
                return
            self.session = session
            self.recorder.resume(record.id)
            self.status.game_id = record.id
            self.status.resumed = True
            log.info("resuming %s game %s after %s", record.game, record.id, counted(len(session.events), "event"))
            summary = [e for e in self.game.summary(session.state) if isinstance(e, Say)]  # phrases only
            self._speak([Say(SPEAKER, "table.resuming"), *summary])
            self._clock_after_step()
        else:
            self._begin(self.config.setup)

    def _use_game(self, info: GameInfo) -> None:
        """Switch the table to another game: its engine, deck and phrases (on the loop's thread)."""
        if info is self.info:
            return
        self.info = info
        self.game = info.game
        self.deck = self.config.deck_for(info.id)
        if self.voice is not None:
            self.voice.use_catalog(info.catalog)

    def _begin(self, setup: Mapping[str, Any]) -> None:
        self.clock.stop()
        info = get_info(str(setup.get("game", self.info.id)))
        self._use_game(info)
        setup = info.prepare_setup(_without_game(setup), random.Random())
        session = Session(self.game, setup)
        if self.voice is not None and getattr(self.voice, "used", None) is not None:
            self.voice.used = set(info.outputs(setup))  # a later audio fault is said for these outputs only
        game_id = self.recorder.begin(info.id, session.setup)
        # Other threads read these without a lock: the new id and session first, the count that says
        # "a new game has begun" last.
        self.status.game_id = game_id
        self.session = session
        self.recorder.seq = 0
        self._clock_after_step()

    # -- inputs (any thread) -------------------------------------------------------------------------

    def submit(self, event: Event) -> None:
        """A referee action, or a tap on a seat's behalf, from the console or a script."""
        self._queue.put(Submitted(event, time.monotonic()))

    def new_game(self, setup: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """End the current game (kept in the journal as abandoned if unfinished) and start another.

        `setup` may name another `game`; keys not given keep the current game's values (or the new
        game's defaults). ValueError says why the table cannot play it (bad key, no deck, a seat's
        reader or earphone missing); nothing changes then. Returns the complete set-up.
        """
        setup = dict(setup or {})
        game = str(setup.pop("game", self.info.id))
        try:
            info = get_info(game)
        except UnknownGame as exc:
            raise ValueError(str(exc)) from None
        base = dict(self.session.setup) if info is self.info else {}
        complete = {"game": info.id, **info.parse_setup({**base, **setup})}  # SetupError is a ValueError
        problem = self.config.cannot_play(info.id, complete)
        if problem:
            raise ValueError(problem)
        self._queue.put(NewGame(complete))
        return complete

    def announce(self, says: Sequence[Say]) -> None:
        """Speak phrases that are not the game's (reader health, meeting standings, a repeat) from the
        loop's thread, in order with the game's own speech; listeners see them as a step (seq 0)."""
        self._queue.put(Announcement(tuple(says)))

    def pause(self, paused: bool = True) -> None:
        """The Priest's pause: the turn clock stops; taps are still heard and applied."""
        self._queue.put(PauseRequest(paused))

    def _queue_clock(self, kind: str, seat: int, token: int) -> None:
        self._queue.put(ClockTick(kind, seat, token))

    @property
    def processed(self) -> int:
        return self.steps.handled

    @property
    def journaled_events(self) -> int:
        return self.recorder.seq

    def wait_processed(self, count: int, timeout: float = 5.0) -> bool:
        """Wait until `count` steps have been handled (taps, referee actions, unknown tags; not removals)."""
        return self.steps.wait_for(count, timeout)

    # -- the loop -------------------------------------------------------------------------------------

    def _pump(self) -> None:
        hub = self.hub
        assert hub is not None  # started only with a hub
        while not self._stopping.is_set():
            event = hub.get(timeout=0.1)
            if event is not None:
                self._queue.put(event)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            try:
                self._dispatch(item)
            except Exception:  # the game goes on: one bad input must not stop the table
                log.exception("table loop: could not handle %r", item)

    def _dispatch(self, item: LoopMessage) -> None:
        if isinstance(item, ReaderEvent):
            self._reader_event(item)
        elif isinstance(item, NewGame):
            if not self.game.is_over(self.session.state):
                self.recorder.finish(None)  # abandoned
            self._begin(item.setup)
            self.steps.tell(Step(0, item, [], received=time.monotonic(), journaled=False))
        elif isinstance(item, Announcement):
            self._speak(list(item.says))
            self.steps.tell(Step(0, item, list(item.says), received=time.monotonic(), journaled=False))
        elif isinstance(item, PauseRequest):
            self.paused = item.paused
            says = [Say(SPEAKER, "table.paused" if self.paused else "table.unpaused")]
            self._speak(says)
            self._clock_after_step()
            self.steps.tell(Step(0, item, [*says], received=time.monotonic(), journaled=False))
        elif isinstance(item, ClockTick):
            self._clock_event(item.kind, item.seat, item.token)
        else:
            self._apply(item.event, None, item.received)

    def _clock_after_step(self) -> None:
        """Restart, keep or stop the turn clock after the state changed (the game says whom it waits for)."""
        clock = self.info.clock_function()
        demand = clock(self.session.state) if clock is not None and not self.paused else None
        self.clock.follow(demand)

    def _clock_event(self, kind: str, seat: int, token: int) -> None:
        if not self.clock.current(token):
            return  # the seat moved (or the game changed) since this was scheduled
        if kind == "warning":
            self._speak([Say(hand(seat), "table.clock_warning", {"count": self.clock.warning_seconds})])
        else:
            self._apply(Referee("timeout", {"seat": seat}), None, time.monotonic())

    def _reader_event(self, event: ReaderEvent) -> None:
        if event.kind == "unreadable":  # a card that gave no UID: the Priest is told, the game goes on
            log.warning("reader %s: %s", event.reader, event.detail)
            self.status.alert("reader.unreadable", reader=event.reader, detail=event.detail)
            return
        if event.kind != "tap":
            self.status.removed += 1
            return
        # Only a real reader can have a piece lying on it; a simulated one is tapped by bots, feeds and the
        # console's virtual table, which may tap A, B, A faster than any hand and mean it.
        if event.reader not in self._simulated and self.two_tags.tap(event.reader, event.uid, event.t):
            # The table cannot tell which tag was meant: the Priest checks the reader (no tag names here).
            log.warning("reader %s: two tags take turns on it; is a piece lying on the reader?", event.reader)
            self.status.alert("reader.two_tags", reader=event.reader)
        tag = self.deck.resolve(event.uid)
        if tag is None:
            # Not in the deck: answered on that reader's own output, logged with its UID, nothing changes.
            self.status.unknown_tags += 1
            _, effects = self.game.apply(self.session.state, Scan(event.reader, None, event.uid))
            self._effects(effects)
            self.steps.tell(Step(0, Scan(event.reader, None, event.uid), effects, event.uid, event.t, journaled=False))
            return
        self._apply(Scan(event.reader, tag, event.uid), event.uid, event.t)

    def _apply(self, event: Event, uid: str | None, received: float) -> None:
        journaled = self.recorder.writing
        if self.recorder.append(event) is not None:
            # Not saved, so not applied: the table stops taking taps (each one says why) until the
            # journal can be written again or the Priest decides; nothing is applied twice on resume.
            not_saved = Say(_output_of(event), "table.not_saved")
            self._speak([not_saved])
            self.steps.tell(Step(0, event, [not_saved], uid, received, journaled=False))
            return
        effects = self.session.feed(event)
        self._effects(effects, priest=isinstance(event, Referee) and event.action != "timeout")
        self._clock_after_step()
        self.steps.tell(Step(self.recorder.seq, event, effects, uid, received, journaled))

    def _effects(self, effects: list[Effect], priest: bool = False) -> None:
        # A referee action the game refuses is the Priest's business: the console shows it (an alert),
        # the players do not hear it.
        self._speak([e for e in effects if isinstance(e, Say) and not (priest and e.key == REFUSED)])
        for effect in effects:
            if isinstance(effect, Alert):
                self.status.alerts.append((time.time(), effect))  # the game's own alert, as it is
                # The log may be on a screen players see: a piece that is in a hand is not named here
                # (the console shows it when the Priest reveals the hands).
                public = {k: v for k, v in effect.params.items() if k != "piece"}
                log.warning("referee alert: %s %s", effect.key, public)
            elif isinstance(effect, GameOver):
                self.recorder.finish(effect.outcome)
                if self.on_game_over is not None and self.status.game_id:
                    self.on_game_over(self.status.game_id, effect.outcome)

    def _speak(self, says: list[Say]) -> None:
        if self.voice is None:
            return
        for say in says:
            self.voice.say(say)

    # -- views -------------------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.session.state

    def report(self) -> dict[str, Any]:
        return self.game.report(self.session.state)


def _without_game(setup: Mapping[str, Any]) -> dict[str, Any]:
    """A set-up as its game takes it: the table's `game` key is the table's."""
    return {k: v for k, v in setup.items() if k != "game"}


def _output_of(event: Event) -> str:
    """Where a refusal of this event is said: a hand reader's own earphone, else the speaker."""
    reader = getattr(event, "reader", None)
    return reader if isinstance(reader, str) and seat_of(reader) is not None else SPEAKER
