"""The running table's control: what a console sees of it and may do to it, in this process.

One table = one process (`TableLock`). A console in that process drives the table through `TableControl`;
a console in another process reaches the same `TableControl` through the table's socket
(`kikimimi.table.server`), so both reach the same loop, the same actions and the same journal.

Privacy: the view holds the hands (the console hides them until the Priest reveals them); nothing private
is ever logged here.
"""

from __future__ import annotations

import contextlib
import operator
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from kikimimi.devices.events import ReaderHealth
from kikimimi.games.base import Alert, Event, Say, Scan, seat_of
from kikimimi.games.codec import event_from_json
from kikimimi.games.registry import games
from kikimimi.table.codec import event_json
from kikimimi.table.loop import Step
from kikimimi.voice.outputs import OutputHealth

if TYPE_CHECKING:
    from kikimimi.table.live import LiveTable

SHOWN_ALERTS = 50  # the latest alerts in a view (the console shows a dozen)


# -- what a console sees ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableFacts:
    """What does not change while the table runs."""

    language: str
    outputs: list[str]  # the voice's outputs, in the configuration's order
    sim_readers: list[str]  # simulated readers' roles: the console's virtual table taps them
    pid: int
    journal: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableFacts:
        return cls(str(data["language"]), list(data["outputs"]), list(data["sim_readers"]), int(data["pid"]),
                   str(data["journal"]))


@dataclass(frozen=True)
class TableView:
    """The game as the console draws it, taken on the loop's thread after a step (or when asked).

    `report` holds the hands: the console shows them only when the Priest reveals them; `public` is what
    the whole table may know (`observe(state, None)`). `guide` is the game's own guide (None: it has none,
    the console says whose turn it is); it needs the game's state, which never leaves the table."""

    game: str
    setup: dict[str, Any]
    report: dict[str, Any]
    public: dict[str, Any]
    guide: list[Any] | None  # lines: finished strings or [phrase key, params] of the console catalog
    guide_error: str
    events: int  # events of the game so far (undo needs one)
    last_event: Event | None
    over: bool
    paused: bool
    game_id: str | None
    alerts: list[tuple[float, Alert]] = field(default_factory=list)
    # What undo takes back: the last *accepted* event (refused taps after it go with it) and how many events
    # lead up to it (`Session.last_accepted`, 0: nothing to undo); an undo sent with that count is refused
    # by the table when it moved on meanwhile.
    undoable: Event | None = None
    undo_at: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "setup": self.setup, "report": self.report, "public": self.public,
                "guide": self.guide, "guide_error": self.guide_error, "events": self.events,
                "last_event": event_json(self.last_event) if self.last_event is not None else None,
                "over": self.over, "paused": self.paused, "game_id": self.game_id,
                "alerts": [[t, a.key, dict(a.params)] for t, a in self.alerts],
                "undoable": event_json(self.undoable) if self.undoable is not None else None,
                "undo_at": self.undo_at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableView:
        last, undoable = data.get("last_event"), data.get("undoable")
        return cls(str(data["game"]), dict(data["setup"]), dict(data["report"]), dict(data["public"]),
                   data.get("guide"), str(data.get("guide_error") or ""), int(data["events"]),
                   event_from_json(last) if last else None, bool(data["over"]), bool(data["paused"]),
                   data.get("game_id"), [(float(t), Alert(key, params)) for t, key, params in data["alerts"]],
                   event_from_json(undoable) if undoable else None, int(data.get("undo_at") or 0))


@dataclass(frozen=True)
class TableHealth:
    """Readers, outputs (with the Priest's volume and mute) and the turn clock, polled."""

    readers: dict[str, ReaderHealth]
    outputs: dict[str, OutputHealth]
    levels: dict[str, tuple[float, bool]]
    clock: tuple[int, float] | None = None  # the seat the turn clock runs for, seconds left

    def to_json(self) -> dict[str, Any]:
        return {"readers": {k: asdict(v) for k, v in self.readers.items()},
                "outputs": {k: asdict(v) for k, v in self.outputs.items()},
                "levels": {k: list(v) for k, v in self.levels.items()},
                "clock": list(self.clock) if self.clock is not None else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableHealth:
        clock = data.get("clock")
        return cls({k: ReaderHealth(**v) for k, v in data["readers"].items()},
                   {k: OutputHealth(**v) for k, v in data["outputs"].items()},
                   {k: (float(v[0]), bool(v[1])) for k, v in data["levels"].items()},
                   (int(clock[0]), float(clock[1])) if clock else None)


def volume_level(volume: float) -> float:
    """A volume as the table keeps and shows it: 0 to 1, in hundredths."""
    return round(min(1.0, max(0.0, float(volume))), 2)


def guide_lines(info: Any, report: Mapping[str, Any], state: Any) -> tuple[list[Any] | None, str]:
    """The game's own guide lines (None when it has none), and why it failed ("" when it did not)."""
    try:
        game_guide = info.guide_function()
    except Exception:  # a guide that cannot be imported: the console's generic lines, as without one
        return None, ""
    if game_guide is None:
        return None, ""
    try:
        # A line is a finished string or [phrase key, params] (said by each console in its language).
        return [line if isinstance(line, list) else str(line) for line in game_guide(report, state)], ""
    except Exception as exc:  # a game's guide bug must not stop the table or the console
        return [], repr(exc)


# -- the table side ----------------------------------------------------------------------------------


class TableControl:
    """Everything a console does to a live table, on that table (in its process).

    Every action goes through the loop's queue (`submit`, `new_game`, `announce`, `pause`) and so into
    the journal like a tap; `tap` taps a simulated reader, which goes through the hub and the deck."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.loop = table.loop
        volumes = {spec.name: spec.volume for spec in table.config.outputs}
        names = list(table.voice.health()) if table.voice is not None else []
        self._levels: dict[str, tuple[float, bool]] = {name: (volumes.get(name, 1.0), False) for name in names}
        self._cached: tuple[tuple[Any, ...], tuple[Any, ...], TableView] | None = None

    def describe(self) -> TableFacts:
        config = self.table.config
        return TableFacts(config.language, list(self._levels),
                          [spec.role for spec in config.readers if spec.protocol == "sim"], os.getpid(),
                          str(config.journal))

    def view(self) -> TableView:
        """The game now. Cached while nothing changed: the console asks often (to enable its keys)."""
        loop = self.loop
        session, alerts = loop.session, loop.status.alerts
        info = loop.info
        if info.game is not session.game:  # asked while the loop switches game: the session's own game
            info = next((i for i in games() if i.game is session.game), info)
        # Objects by identity (a game may answer a refused tap with the very same state: the count tells),
        # plain values by value.
        objects = (session, session.state, info, alerts[-1] if alerts else None)
        values = (len(session.events), loop.paused, loop.status.game_id)
        cached = self._cached
        if cached is not None and cached[1] == values and all(map(operator.is_, cached[0], objects)):
            return cached[2]
        view = self._take(session, info)
        self._cached = (objects, values, view)
        return view

    def _take(self, session: Any, info: Any) -> TableView:
        state = session.state
        game = session.game
        report = game.report(state)
        try:
            public = dict(game.observe(state, None))
        except Exception:  # no observation: no more than the phase and whose turn it is
            public = {key: report.get(key) for key in ("phase", "turn")}
        guide, error = guide_lines(info, report, state)
        events = list(session.events)
        undo_at = session.last_accepted()
        return TableView(info.id, dict(session.setup), report, public, guide, error, len(events),
                         events[-1] if events else None, bool(game.is_over(state)), bool(self.loop.paused),
                         self.loop.status.game_id, list(self.loop.status.alerts)[-SHOWN_ALERTS:],
                         events[undo_at - 1] if undo_at else None, undo_at)

    def health(self) -> TableHealth:
        hub, voice = self.table.hub, self.table.voice
        return TableHealth(hub.health() if hub is not None else {}, voice.health() if voice is not None else {},
                           dict(self._levels), self.loop.clock.remaining())

    def subscribe(self, listener: Callable[[Step], None]) -> None:
        """`listener(step)` after every step, on the loop's thread (post, never draw, from there)."""
        self.loop.listeners.append(listener)

    def unsubscribe(self, listener: Callable[[Step], None]) -> None:
        with contextlib.suppress(ValueError):
            self.loop.listeners.remove(listener)

    def submit(self, event: Event) -> None:
        self.loop.submit(event)

    def new_game(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """ValueError says why the table cannot play it; nothing changes then."""
        return self.loop.new_game(dict(setup))

    def announce(self, says: Sequence[Say]) -> None:
        self.loop.announce(list(says))

    def pause(self, paused: bool) -> None:
        self.loop.pause(bool(paused))

    def uid(self, reader: str, tag: str) -> str | None:
        """The deck's tag for `tag` (a control: the seat's own, as a player would tap it)."""
        uids = self.loop.deck.uids_of(tag)
        if not uids:
            return None
        seat = seat_of(reader)
        return uids[seat - 1] if tag in self.loop.info.controls and seat and len(uids) >= seat else uids[0]

    def tap(self, reader: str, tag: str) -> str:
        """Tap `tag` on the simulated `reader` (hub → deck → loop, as hardware would); returns the UID.
        KeyError: no such tag in the deck, or the reader is not simulated."""
        uid = self.uid(reader, tag)
        if uid is None:
            raise KeyError(f"the deck has no tag for {tag}")
        if self.table.hub is None:
            raise KeyError("this table has no readers")
        self.table.hub.simulated(reader).tap_and_remove(uid)
        return uid

    def submit_tap(self, reader: str, tag: str) -> None:
        """A tap on a seat's behalf, straight on the loop's queue (journaled like a player's tap)."""
        self.loop.submit(Scan(reader, tag, self.uid(reader, tag)))

    def set_level(self, output: str, volume: float, muted: bool) -> None:
        if output not in self._levels:
            raise KeyError(f"no output {output!r} (outputs: {', '.join(self._levels)})")
        volume = volume_level(volume)
        self.table.voice.set_volume(output, volume)
        self.table.voice.mute(output, bool(muted))
        self._levels[output] = (volume, bool(muted))

