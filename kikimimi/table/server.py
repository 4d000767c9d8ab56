"""The table's control socket: `TableControl` served to consoles of other processes on `<journal>.sock`.

A console in another process attaches to `<journal>.sock`, a Unix socket that `ControlServer` serves with
the table's `TableControl`, so it reaches the same loop, the same actions and the same journal as a console
in the table's own process. The wire format (lines, steps) is `kikimimi.table.codec`'s.

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
import os
import queue
import socket
import struct
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.shown import echoed
from kikimimi.table.codec import event_from, says_from, step_json, to_line
from kikimimi.table.control import TableControl
from kikimimi.table.loop import Step
from kikimimi.table.messages import NewGame

if TYPE_CHECKING:
    from kikimimi.table.live import LiveTable

log = logging.getLogger(__name__)

MAX_LINE = 1 << 20  # bytes of one request; a longer one is refused (and skipped)
OUTBOX = 2000  # messages queued for one console; a console that stops reading is let go, the table never waits
HEALTH_EVERY = 0.5  # seconds between health pushes (only sent when something changed: the turn clock does)
BACKLOG = 400  # steps of the current game kept for a console that attaches later


def socket_path(journal: str | Path) -> Path:
    """Where the table that writes `journal` listens: beside it, like its lock."""
    return Path(f"{journal}.sock")



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
def _short_path(path: Path) -> Iterator[str]:
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
