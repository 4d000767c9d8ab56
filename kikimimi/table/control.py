"""The running table's control: what a console sees of it and may do to it, in this process or over a socket.

One table = one process (`TableLock`). A console in that process drives the table through `TableControl`;
a console in another process attaches to `<journal>.sock`, a Unix socket that `ControlServer` serves with
the same `TableControl`, so both reach the same loop, the same actions and the same journal.

Protocol: one JSON object per line, both ways (UTF-8).

    → {"id": 1, "op": "subscribe"}            ← {"id": 1, "ok": true, "facts": …, "view": …, "health": …,
                                                 "backlog": [step, …]}   then pushes, until the console leaves:
                                              ← {"push": "step", "step": …, "view": …}    after every step
                                              ← {"push": "health", "health": …}           when it changes
    → {"id": 2, "op": "submit", "event": {"referee": "undo"}}          ← {"id": 2, "ok": true}
    → {"id": 3, "op": "new_game", "setup": {"game": "nimmt"}}          ← {"id": 3, "ok": true, "setup": …}
    → {"id": 4, "op": "announce", "says": [{"say": "speaker", "key": …, "params": {}}]}
    → {"id": 5, "op": "pause", "paused": true}
    → {"id": 6, "op": "tap", "reader": "hand:1", "tag": "heart-3"}    (a simulated reader)  ← … "uid": …
    → {"id": 7, "op": "submit_tap", "reader": "hand:1", "tag": "ctl-pass"}  (on a seat's behalf)
    → {"id": 8, "op": "set_level", "output": "speaker", "volume": 0.5, "muted": false}
    → {"id": 9, "op": "view"}                 ← {"id": 9, "ok": true, "view": …, "health": …}
    anything wrong                            ← {"id": …, "error": "what was wrong"}   (the table goes on)

A step's event is a game event (a script line) or one of the table's own steps: {"table": "new", "setup": …},
{"table": "announce"} (what it said is the step's effects) or {"table": "pause", "paused": …}.

Privacy: the view holds the hands (the console hides them until the Priest reveals them), so the socket
is its owner's only (0600, and the peer's uid is checked); nothing private is ever logged here.
"""

from __future__ import annotations

import contextlib
import json
import logging
import operator
import os
import queue
import socket
import struct
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.devices.events import ReaderHealth
from kikimimi.games.base import Alert, Effect, Event, Say, Scan, seat_of
from kikimimi.games.codec import effect_from_json, effect_to_json, event_from_json, event_to_json
from kikimimi.games.registry import games
from kikimimi.shown import echoed
from kikimimi.table.loop import Step
from kikimimi.table.messages import Announcement, NewGame, PauseRequest, TableAction
from kikimimi.voice.router import OutputHealth

if TYPE_CHECKING:
    from kikimimi.table.live import LiveTable

log = logging.getLogger(__name__)

MAX_LINE = 1 << 20  # bytes of one request; a longer one is refused (and skipped)
OUTBOX = 2000  # messages queued for one console; a console that stops reading is let go, the table never waits
HEALTH_EVERY = 0.5  # seconds between health pushes (only sent when something changed: the turn clock does)
BACKLOG = 400  # steps of the current game kept for a console that attaches later
SHOWN_ALERTS = 50  # the latest alerts in a view (the console shows a dozen)


def socket_path(journal: str | Path) -> Path:
    """Where the table that writes `journal` listens: beside it, like its lock."""
    return Path(f"{journal}.sock")


# -- the wire format --------------------------------------------------------------------------------


def event_json(event: Event) -> dict[str, Any]:
    """An event with the tag's UID kept (the one codec's form)."""
    return event_to_json(event, keep_uid=True)


event_from = event_from_json  # the wire's names for the one codec's functions
effect_json = effect_to_json
effect_from = effect_from_json


def says_from(data: Any) -> list[Say]:
    if not isinstance(data, list) or not all(isinstance(d, dict) and isinstance(d.get("say"), str)
                                             and isinstance(d.get("key"), str) for d in data):
        raise ValueError('"says" is a list of {"say": OUTPUT, "key": PHRASE, "params": {…}}')
    return [Say(d["say"], d["key"], d.get("params") or {}) for d in data]


def step_json(step: Step) -> dict[str, Any]:
    event = table_action_json(step.event) if isinstance(step.event, TableAction) else event_json(step.event)
    return {"seq": step.seq, "event": event, "effects": [effect_json(e) for e in step.effects],
            "uid": step.uid, "journaled": step.journaled}


def step_from(data: Mapping[str, Any]) -> Step:
    effects = [effect_from(e) for e in data["effects"]]
    journaled = bool(data.get("journaled", True))
    obj = data["event"]
    if isinstance(obj, Mapping) and "referee" in obj and obj["referee"] in _OLD_TABLE_ACTIONS and not journaled:
        # A table that predates the typed steps sent its own as referee lines: read them as what they were.
        obj = {"table": obj["referee"], "setup": {k: v for k, v in obj.items() if k != "referee"},
               "paused": obj.get("paused")}
    event = table_action_from(obj, effects) if isinstance(obj, Mapping) and "table" in obj else event_from_json(obj)
    return Step(int(data["seq"]), event, effects, data.get("uid"), journaled=journaled)


_OLD_TABLE_ACTIONS = ("new", "announce", "pause")


def table_action_json(action: TableAction) -> dict[str, Any]:
    """The table's own step on the wire: `{"table": "new", "setup": …}`, `{"table": "announce"}` (what it
    said is the step's effects) or `{"table": "pause", "paused": …}`."""
    if isinstance(action, NewGame):
        return {"table": "new", "setup": dict(action.setup)}
    if isinstance(action, Announcement):
        return {"table": "announce"}
    return {"table": "pause", "paused": action.paused}


def table_action_from(obj: Mapping[str, Any], effects: Sequence[Effect]) -> TableAction:
    """The inverse of `table_action_json`; ValueError for an unknown kind."""
    kind = obj.get("table")
    if kind == "new":
        return NewGame(dict(obj.get("setup") or {}))
    if kind == "announce":
        return Announcement(tuple(e for e in effects if isinstance(e, Say)))
    if kind == "pause":
        return PauseRequest(bool(obj.get("paused")))
    raise ValueError(f'a table step is {{"table": "new"|"announce"|"pause", …}}, not {kind!r}')


def to_line(message: Mapping[str, Any]) -> bytes:
    # default=str: a game may put a tuple or a set in its report; the console only shows it
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_plain) + "\n").encode()


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)


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


# -- the socket ---------------------------------------------------------------------------------------


class ControlServer:
    """Serves `TableControl` on `<journal>.sock` to every console of the same user, each on its own thread.

    A console that sends garbage gets an error reply; one that disconnects or stops reading is dropped;
    neither ever reaches the table loop other than through its queue."""

    def __init__(self, control: TableControl, path: Path) -> None:
        self.control = control
        self.path = path
        self._sock: socket.socket | None = None
        self._clients: set[_Client] = set()
        self._lock = threading.Lock()  # clients, backlog, and the view each push carries
        self._backlog: deque[Step] = deque(maxlen=BACKLOG)
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._last_health = b""

    def start(self) -> None:
        """Bind (replacing a stale socket file: the caller holds the table lock) and accept."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with _short_path(self.path) as where:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(where)  # a killed table's: ours now that the lock is ours
                sock.bind(where)
                os.chmod(where, 0o600)  # before listen(): nobody can have connected yet
            sock.listen(socket.SOMAXCONN)  # a burst of consoles and scripts is queued, not refused (EAGAIN)
        except OSError:
            sock.close()
            raise
        self._sock = sock
        self.control.subscribe(self._on_step)
        for name, target in (("control-accept", self._accept), ("control-health", self._tick)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def close(self) -> None:
        """Stop accepting, let every console go, remove the socket file."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self.control.unsubscribe(self._on_step)
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
            with contextlib.suppress(OSError), _short_path(self.path) as where:
                os.unlink(where)
        with self._lock:
            clients = list(self._clients)
            self._clients.clear()
        for client in clients:
            client.close()
        for thread in self._threads:
            thread.join(timeout=2)

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    # -- accepting, reading requests (one thread per console) ---------------------------------------

    def _accept(self) -> None:
        while not self._stopping.is_set():
            sock = self._sock
            if sock is None:
                return
            try:
                conn, _ = sock.accept()
            except OSError:
                if self._stopping.is_set():
                    return
                continue
            if not _same_user(conn):
                log.warning("control socket: refused a connection from another user")
                conn.close()
                continue
            client = _Client(conn, self._drop)
            threading.Thread(target=self._serve, args=(client,), name="control-client", daemon=True).start()

    def _serve(self, client: _Client) -> None:
        reader = client.conn.makefile("rb")
        try:
            while not self._stopping.is_set() and not client.closed:
                line = reader.readline(MAX_LINE + 1)
                if not line:
                    return
                if len(line) > MAX_LINE:  # not read whole: the rest of it is skipped, the next line served
                    while line and not line.endswith(b"\n"):
                        line = reader.readline(MAX_LINE)
                    client.send(to_line({"id": None, "error": f"request longer than {MAX_LINE} bytes"}))
                    continue
                if line.strip():
                    self._request(client, line)
        except OSError:
            return  # the console went away
        finally:
            reader.close()
            self._drop(client)

    def _request(self, client: _Client, line: bytes) -> None:
        ident: Any = None
        try:
            try:
                request = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise ValueError(f"not a JSON line (not UTF-8 at byte {exc.start + 1})") from None
            except json.JSONDecodeError as exc:
                raise ValueError(f"not a JSON line ({exc.msg} at column {exc.colno})") from None
            except RecursionError:
                raise ValueError("not a request (JSON nested too deeply)") from None
            if not isinstance(request, dict):
                raise ValueError('a request is a JSON object: {"id": 1, "op": "subscribe"}')
            ident = request.get("id")
            op = request.get("op")
            if op == "subscribe":
                self._subscribe(client, ident)
                return
            handler = _OPS.get(op) if isinstance(op, str) else None
            if handler is None:
                raise ValueError(f"unknown op {echoed(op)}; known: subscribe, {', '.join(_OPS)}")
            reply = handler(self.control, request)
        except (ValueError, KeyError, TypeError) as exc:  # the console's mistake: said to it, the table goes on
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            client.send(to_line({"id": ident, "error": str(message)}))
            return
        except Exception as exc:  # the table's own failure: logged in one line, said to the console
            log.warning("control socket: %s failed: %s", echoed(request.get("op")), exc)
            client.send(to_line({"id": ident, "error": f"the table could not do it: {exc}"}))
            return
        client.send(to_line({"id": ident, "ok": True, **reply}))

    def _subscribe(self, client: _Client, ident: Any) -> None:
        with self._lock:
            reply = {"id": ident, "ok": True, "facts": self.control.describe().to_json(),
                     "view": self.control.view().to_json(), "health": self.control.health().to_json(),
                     "backlog": [step_json(step) for step in self._backlog]}
            client.send(to_line(reply))  # queued before any push: the console starts from this
            self._clients.add(client)

    def _drop(self, client: _Client) -> None:
        with self._lock:
            self._clients.discard(client)
        client.close()

    # -- pushing (the loop's thread and the health thread) -----------------------------------------

    def _on_step(self, step: Step) -> None:
        with self._lock:
            if isinstance(step.event, NewGame):
                self._backlog.clear()  # the backlog is the current game's
            self._backlog.append(step)
            if not self._clients:
                return
            line = to_line({"push": "step", "step": step_json(step), "view": self.control.view().to_json()})
            for client in list(self._clients):
                client.send(line)

    def _tick(self) -> None:
        while not self._stopping.wait(HEALTH_EVERY):
            if not self.clients:
                continue
            try:
                line = to_line({"push": "health", "health": self.control.health().to_json()})
            except Exception as exc:  # a health poll must never stop the pushes
                log.warning("control socket: health poll failed: %s", exc)
                continue
            if line == self._last_health:
                continue
            self._last_health = line
            with self._lock:
                for client in list(self._clients):
                    client.send(line)


class _Client:
    """One attached console: its socket and the messages waiting for it, written by its own thread."""

    def __init__(self, conn: socket.socket, drop: Callable[[_Client], None]) -> None:
        self.conn = conn
        self.closed = False
        self._drop = drop
        self._outbox: queue.Queue[bytes | None] = queue.Queue(maxsize=OUTBOX)
        threading.Thread(target=self._write, name="control-writer", daemon=True).start()

    def send(self, line: bytes) -> None:
        """Never blocks: a console that stopped reading is let go rather than hold up the table."""
        if self.closed:
            return
        try:
            self._outbox.put_nowait(line)
        except queue.Full:
            log.warning("control socket: a console stopped reading; it is disconnected")
            self.close()

    def _write(self) -> None:
        while True:
            line = self._outbox.get()
            if line is None or self.closed:
                break
            try:
                self.conn.sendall(line)
            except OSError:
                break
        self._drop(self)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.conn.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(None)
        self.conn.close()


def _same_user(conn: socket.socket) -> bool:
    """The socket is 0600 already; the peer's uid is checked too, in case someone widened it."""
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return True  # no SO_PEERCRED here: the file's mode is the guard
    _, uid, _ = struct.unpack("3i", creds)
    return uid in (os.getuid(), 0)


def _text(request: Mapping[str, Any], name: str) -> str:
    value = request.get(name)
    if not isinstance(value, str) or not value:
        raise ValueError(f'"{name}" must be a non-empty string')
    return value


def _op_submit(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    control.submit(event_from(request.get("event")))
    return {}


def _op_new_game(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    setup = request.get("setup") or {}
    if not isinstance(setup, dict):
        raise ValueError('"setup" must be an object of set-up keys, e.g. {"game": "trident"}')
    return {"setup": control.new_game(setup)}


def _op_announce(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    control.announce(says_from(request.get("says")))
    return {}


def _op_pause(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(request.get("paused"), bool):
        raise ValueError('"paused" must be true or false')
    control.pause(request["paused"])
    return {}


def _op_tap(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"uid": control.tap(_text(request, "reader"), _text(request, "tag"))}


def _op_submit_tap(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    control.submit_tap(_text(request, "reader"), _text(request, "tag"))
    return {}


def _op_set_level(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    volume, muted = request.get("volume"), request.get("muted")
    if not isinstance(volume, int | float) or isinstance(volume, bool) or not isinstance(muted, bool):
        raise ValueError('"volume" must be a number from 0 to 1 and "muted" true or false')
    control.set_level(_text(request, "output"), float(volume), muted)
    return {}


def _op_view(control: TableControl, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"view": control.view().to_json(), "health": control.health().to_json()}


_OPS: dict[str, Callable[[TableControl, Mapping[str, Any]], dict[str, Any]]] = {
    "submit": _op_submit, "new_game": _op_new_game, "announce": _op_announce, "pause": _op_pause,
    "tap": _op_tap, "submit_tap": _op_submit_tap, "set_level": _op_set_level, "view": _op_view,
}


@contextlib.contextmanager
def _short_path(path: Path):  # noqa: ANN202 - a context manager of str
    """A name for `path` that fits a Unix socket address (108 bytes): the path itself, or one through the
    folder's descriptor (/proc/self/fd/N/name) when a deep data folder makes it too long."""
    if len(os.fsencode(path)) < 100:
        yield str(path)
        return
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield f"/proc/self/fd/{folder}/{path.name}"
    finally:
        os.close(folder)


def connect(path: Path, timeout: float | None = None) -> socket.socket:
    """A connected socket to the table at `path` (OSError when nobody answers there)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        with _short_path(path) as where:
            sock.connect(where)
    except OSError:
        sock.close()
        raise
    return sock


def serve_control(table: LiveTable) -> ControlServer | None:
    """Start the table's control socket; a table that cannot serve one still plays (it says why)."""
    path = socket_path(table.config.journal)
    server = ControlServer(TableControl(table), path)
    try:
        server.start()
    except OSError as exc:
        log.warning("control socket %s: %s; `kikimimi console` cannot attach to this table",
                    path, exc.strerror or exc)
        return None
    return server
