"""The console's one way to the table: `TableLink`, whether the table runs in this process or another.

    LocalLink(table)        # a LiveTable opened here (`kikimimi play --console`, or `kikimimi console`
                            #   when no table runs): the table's own `TableControl`
    RemoteLink.attach(path) # the table another process runs, over its control socket (`<journal>.sock`)

The app draws from `view()` and `health()` and acts through the rest; it never knows which one it has.
Listeners are called after every step the table reports, on a thread that is not the app's (post, never
draw, from there). A lost table (the socket closed) is said once to `on_lost`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any, Protocol

from kikimimi.games.base import Event, Say
from kikimimi.table.codec import effect_json, event_json, step_from, to_line
from kikimimi.table.control import TableControl, TableFacts, TableHealth, TableView, volume_level
from kikimimi.table.live import LiveTable
from kikimimi.table.loop import Step
from kikimimi.table.server import BACKLOG, MAX_LINE, connect

log = logging.getLogger(__name__)

Listener = Callable[[Step], None]
REPLY_WITHIN = 5.0  # seconds a request waits for the table's answer
ATTACH_WITHIN = 3.0  # seconds to wait for a table that is just starting to open its socket


class LinkError(ConnectionError):
    """The table cannot be reached (not running, its socket gone, or it stopped answering)."""


class TableLink(Protocol):
    """What the console sees of a table and may do to it."""

    facts: TableFacts
    on_lost: Callable[[str], object] | None

    def view(self) -> TableView: ...
    def health(self) -> TableHealth: ...
    def subscribe(self, listener: Listener) -> None:
        """`listener(step)` after every step; attached, it first gets the game's steps so far."""

    def unsubscribe(self, listener: Listener) -> None: ...
    def submit(self, event: Event) -> None: ...
    def new_game(self, setup: Mapping[str, Any]) -> dict[str, Any]: ...
    def announce(self, says: Sequence[Say]) -> None: ...
    def pause(self, paused: bool) -> None: ...
    def tap(self, reader: str, tag: str) -> str: ...
    def submit_tap(self, reader: str, tag: str) -> None: ...
    def set_level(self, output: str, volume: float, muted: bool) -> None: ...
    def close(self) -> None: ...


class LocalLink(TableControl):
    """The table in this process: its own control, straight (the caller closes the table)."""

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.facts = self.describe()  # fixed while the table runs
        self.on_lost: Callable[[str], object] | None = None  # a table in this process is never lost

    def close(self) -> None:
        pass


class RemoteLink:
    """The table another process runs, over its control socket. A reader thread takes the table's replies
    and pushes; the latest view and health are kept, so drawing never waits for the table."""

    def __init__(self, sock: socket.socket, path: Path) -> None:
        self.path = path
        self.on_lost: Callable[[str], object] | None = None
        self.on_error: Callable[[str], object] | None = None  # an action the table refused (said to the Priest)
        self._sock = sock
        self._send_lock = threading.Lock()
        self._next_id = 0
        self._waiting: dict[int, tuple[Future[dict[str, Any]], bool]] = {}  # id -> (reply, the caller's?)
        self._listeners: list[Listener] = []
        self._listen_lock = threading.Lock()  # a step is either in the backlog a new listener gets, or sent to it
        self._lost: str | None = None
        self._reader = sock.makefile("rb")
        hello = self._hello()
        self.facts = TableFacts.from_json(hello["facts"])
        self._view = TableView.from_json(hello["view"])
        self._health = TableHealth.from_json(hello["health"])
        self._backlog = [step_from(step) for step in hello["backlog"]]
        self._thread = threading.Thread(target=self._read, name="console-link", daemon=True)
        self._thread.start()

    @classmethod
    def attach(cls, path: Path, wait: float | None = None) -> RemoteLink:
        """Connect and subscribe; a table that is starting gets `wait` seconds to open its socket."""
        deadline = time.monotonic() + (ATTACH_WITHIN if wait is None else wait)
        while True:
            try:
                sock = connect(path, timeout=REPLY_WITHIN)
                break
            except (FileNotFoundError, ConnectionRefusedError) as exc:
                if time.monotonic() >= deadline:
                    raise LinkError(f"no table answers on {path} ({exc.strerror})") from None
                time.sleep(0.1)
            except OSError as exc:
                raise LinkError(f"cannot attach to {path}: {exc.strerror or exc}") from None
        try:
            return cls(sock, path)
        except (OSError, ValueError, KeyError) as exc:
            sock.close()
            raise LinkError(f"the table on {path} did not answer as a table does: {exc}") from None

    def _hello(self) -> dict[str, Any]:
        """The subscription's reply, read on this thread before the reader thread starts."""
        self._sock.sendall(to_line({"id": 0, "op": "subscribe"}))
        line = self._reader.readline(MAX_LINE * 64)
        if not line:
            raise ConnectionError("the table closed the connection")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise ValueError(reply["error"])
        self._sock.settimeout(None)  # from now on the reader thread waits for pushes as long as they take
        return reply

    # -- what the app reads -----------------------------------------------------------------------------

    def view(self) -> TableView:
        return self._view

    def health(self) -> TableHealth:
        return self._health

    def subscribe(self, listener: Listener) -> None:
        """The current game's steps so far first (as if the console had been there), then every new one."""
        with self._listen_lock:
            for step in self._backlog:
                listener(step)
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self._listen_lock, contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    # -- what the app does ----------------------------------------------------------------------------

    def submit(self, event: Event) -> None:
        self._send("submit", event=event_json(event))

    def new_game(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """ValueError with the table's reason when it cannot play it (as in-process)."""
        return dict(self._ask("new_game", setup=dict(setup))["setup"])

    def announce(self, says: Sequence[Say]) -> None:
        self._send("announce", says=[effect_json(say) for say in says])

    def pause(self, paused: bool) -> None:
        self._send("pause", paused=bool(paused))

    def tap(self, reader: str, tag: str) -> str:
        return str(self._ask("tap", reader=reader, tag=tag)["uid"])

    def submit_tap(self, reader: str, tag: str) -> None:
        self._send("submit_tap", reader=reader, tag=tag)

    def set_level(self, output: str, volume: float, muted: bool) -> None:
        self._send("set_level", output=output, volume=volume, muted=muted)
        levels = {**self._health.levels, output: (volume_level(volume), muted)}
        self._health = TableHealth(self._health.readers, self._health.outputs, levels, self._health.clock)

    def close(self) -> None:
        self._lost = self._lost or "closed"
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        self._thread.join(timeout=2)

    # -- the wire -------------------------------------------------------------------------------------

    def _send(self, op: str, *, asked: bool = False, **params: Any) -> Future[dict[str, Any]]:
        """Send a request; its reply arrives on the reader thread. An error reply goes to `on_error`,
        unless the caller waits for it (`asked`)."""
        future: Future[dict[str, Any]] = Future()
        with self._send_lock:
            if self._lost is not None:
                raise LinkError(f"the table is gone ({self._lost})")
            self._next_id += 1
            ident = self._next_id
            self._waiting[ident] = (future, asked)
            try:
                self._sock.sendall(to_line({"id": ident, "op": op, **params}))
            except OSError as exc:
                self._waiting.pop(ident, None)
                raise LinkError(f"the table is gone ({exc.strerror or exc})") from None
        return future

    def _ask(self, op: str, **params: Any) -> dict[str, Any]:
        """A request whose answer the caller needs: its reply, or ValueError with the table's refusal."""
        future = self._send(op, asked=True, **params)
        try:
            reply = future.result(REPLY_WITHIN)
        except FutureTimeout:
            raise LinkError(f"the table did not answer {op} within {REPLY_WITHIN:.0f} s") from None
        if "error" in reply:
            raise ValueError(reply["error"])
        return reply

    def _read(self) -> None:
        why = "the table closed the connection"
        try:
            while True:
                line = self._reader.readline(MAX_LINE * 64)
                if not line:
                    break
                self._message(json.loads(line))
        except (OSError, ValueError) as exc:
            why = f"the connection failed: {exc}"
        finally:
            with self._send_lock:
                lost, self._lost = self._lost, self._lost or why
                waiting, self._waiting = self._waiting, {}
            for future, _ in waiting.values():
                future.set_result({"error": why})
            if lost is None and self.on_lost is not None:
                self.on_lost(why)

    def _message(self, message: dict[str, Any]) -> None:
        push = message.get("push")
        if push == "step":
            self._view = TableView.from_json(message["view"])  # before the listeners: they draw from it
            step = step_from(message["step"])
            with self._listen_lock:
                self._backlog.append(step)
                del self._backlog[:-BACKLOG]
                for listener in list(self._listeners):
                    try:
                        listener(step)
                    except Exception as exc:  # a listener's bug must not stop the link
                        log.exception("console link: a listener failed on step %s: %s", step.seq, exc)
        elif push == "health":
            self._health = TableHealth.from_json(message["health"])
        elif "id" in message:
            with self._send_lock:
                waiting = self._waiting.pop(message["id"], None)
            if waiting is None:
                return
            future, asked = waiting
            if "error" in message and not asked and self.on_error is not None:
                self.on_error(str(message["error"]))
            future.set_result(message)
