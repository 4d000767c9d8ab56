"""Helpers of the meeting host's tests: a host served on a free local port (in a thread or as its own
process), bot tables as their own processes, outcomes of real bot games, waiting with a deadline."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from waiting import wait_until

from kikimimi.games.base import GameOver, Outcome
from kikimimi.games.registry import get_info
from kikimimi.records.store import RecordStore
from kikimimi.table.journal import Journal

TOKEN = "s3cret-token-0f-the-venue-tests"  # strong enough for `venue host --token`


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    return wait_until(check, what, timeout, every=0.05)


@contextlib.contextmanager
def serve(app: Any, port: int = 0, **limits: Any) -> Iterator[str]:
    """Serve `app` with uvicorn on 127.0.0.1 (a free port unless given) in a thread, configured as `venue
    host` serves it (`limits`: its time limits and connection cap, shorter for a test); yields its base URL."""
    import uvicorn

    from kikimimi.venue.serving import server_config

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the same port again after a restart
    sock.bind(("127.0.0.1", port))
    server = uvicorn.Server(server_config(app, timeout_graceful_shutdown=1, **limits))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_for(lambda: server.started or not thread.is_alive(), 10, "uvicorn to start")
    assert thread.is_alive(), "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()


class ThreadHost:
    """The host's app served in this process on a fixed port, stopped and started again at will (the
    tables are the processes that matter in a restart; the host process itself is tested by HostProcess)."""

    def __init__(self, db: Path | str, token: str = TOKEN) -> None:
        from kikimimi.venue.host import create_app

        self.app = lambda: create_app(lambda: RecordStore(db), token=token, meeting_id=None)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._serving: contextlib.ExitStack | None = None

    def start(self) -> ThreadHost:
        self._serving = contextlib.ExitStack()
        self._serving.enter_context(serve(self.app(), self.port))
        return self

    def kill(self) -> None:
        """The server stops: its port refuses connections until it starts again."""
        if self._serving is not None:
            self._serving.close()
            self._serving = None


def new_meeting(db: Path | str, tables: int, kind: str = "half", players: int | None = None) -> int:
    names = [f"P{n:02d}" for n in range(1, (players or 3 * tables) + 1)]
    with RecordStore(db) as store:
        return store.start_meeting(kind, names, add_unknown=True, tables=tables)


def bot_outcome(seed: int) -> Outcome:
    """The outcome of a whole Trident game the bots played under competition rules (the pure engine)."""
    info = get_info("trident")
    setup = info.prepare_setup({"rules": "competition"}, random.Random(seed))
    game, bots = info.game, info.new_bots(seed, setup)
    state = game.initial(setup)
    while (event := bots.next_event(state, ())) is not None:
        state, effects = game.apply(state, event)
        for effect in effects:
            if isinstance(effect, GameOver):
                return effect.outcome
    raise AssertionError("the bots' game did not end")


def kikimimi(*args: str, log: Path) -> subprocess.Popen[bytes]:
    """`python -m kikimimi ARGS` as its own process, its output in `log`."""
    handle = open(log, "ab")  # noqa: SIM115 - the child holds it; closed with the test's tmp folder
    return subprocess.Popen([sys.executable, "-m", "kikimimi", *args], stdout=handle, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


class HostProcess:
    """`kikimimi venue host` on a fixed local port, which survives a restart (the tables keep the URL)."""

    def __init__(self, db: Path, folder: Path, token: str = TOKEN) -> None:
        self.db, self.folder, self.token = db, folder, token
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> HostProcess:
        self.process = kikimimi("venue", "host", "--db", str(self.db), "--listen", f"127.0.0.1:{self.port}",
                                "--token", self.token, log=self.folder / "host.log")
        wait_for(self._answers, 15, f"the host on {self.url} (log: {self.folder / 'host.log'})")
        return self

    def _answers(self) -> bool:
        assert self.process is not None and self.process.poll() is None, (self.folder / "host.log").read_text()
        try:
            return httpx.get(f"{self.url}/api/meetings/current", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """A crash: no clean shutdown."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)


def join_table(url: str, table: int, folder: Path, seed: int, token: str = TOKEN) -> subprocess.Popen[bytes]:
    """A bot table as its own process: `kikimimi venue join URL --table N --bots SEED`, its journal in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    return kikimimi("venue", "join", url, "--table", str(table), "--token", token, "--bots", str(seed),
                    "--journal", str(folder / "journal.sqlite"), "--controller", f"bench-{table}",
                    log=folder / "table.log")


def finished_games(journal: Path) -> list[str]:
    """Journal ids of the games the table's journal holds as ended with an outcome (meeting games: the
    table starts none other)."""
    if not journal.exists():
        return []
    book = Journal(journal)
    try:
        return [g.id for g in book.games() if g.outcome is not None]
    finally:
        book.close()


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)
