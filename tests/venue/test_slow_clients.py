"""Issue 31, item 3: one client without any credential cannot take the venue host or the Priest's tablet from
the tables and the Priest. A whole request is bounded in time whether or not the app reads its body, a body
still coming after the answer is not read to its end, connections are capped per client address as well as
in all, and the server's own answers (its 400 and 503) carry the security headers.

The slow client is raw sockets from one loopback address (127.0.0.9); the tables, the TV and the Priest are
httpx clients from addresses of their own (127.0.0.1 to .5), as on a LAN. Both servers are the real uvicorn
ones `venue host` and `play --web` run (kikimimi.serving), in this process."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from venue_helpers import TOKEN, bot_outcome, new_meeting, serve, wait_for

from kikimimi.console.web import serve as console_serve
from kikimimi.console.web.access import evening
from kikimimi.console.web.server import create_app as console_app
from kikimimi.records.store import RecordStore
from kikimimi.venue.client import HostLink
from kikimimi.venue.host import create_app
from kikimimi.venue.serving import MAX_PER_CLIENT, SECURITY_HEADERS

STRANGER = "127.0.0.9"


def _address(url: str) -> tuple[str, int]:
    host, port = url.rsplit("/", 1)[-1].split(":")
    return host, int(port)


@contextlib.contextmanager
def _console() -> Iterator[str]:
    """The tablet's server, no table attached (the page and its session need none)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        app = console_app(Path(folder) / "no-table.sock", evening(Path(folder) / "journal.sqlite"), language="en")
        listener = console_serve.bind("127.0.0.1:0")
        server = console_serve.WebThread(app, listener).start()
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        try:
            wait_for(lambda: _answers(url), 10, "the web console to start")
            yield url
        finally:
            server.stop()


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/session", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


class Trickle:
    """`count` connections from one address, each sending a request a byte at a time, never finishing."""

    def __init__(self, url: str, count: int, opening: bytes) -> None:
        self.socks: list[socket.socket] = []
        for _ in range(count):
            sock = socket.create_connection(_address(url), timeout=5, source_address=(STRANGER, 0))
            sock.setblocking(False)
            with contextlib.suppress(OSError):
                sock.send(opening)
            self.socks.append(sock)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.5):
            for sock in self.socks:
                with contextlib.suppress(OSError):
                    sock.send(b"x")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()


def _timed(client: httpx.Client, method: str, url: str, **kw) -> tuple[float, httpx.Response]:
    started = time.monotonic()
    response = client.request(method, url, **kw)
    return time.monotonic() - started, response


def _from(address: str, **kw) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=5, **kw)


def test_400_slow_connections_from_one_address_leave_the_tables_tv_and_priest_answering(tmp_path):
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=3)
    host = create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None)
    slow_get = b"GET /api/meetings/current HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
    slow_post = (f"POST /api/meetings/{meeting}/tables/1/results HTTP/1.1\r\nHost: x\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n1\r\n").encode()
    with serve(host) as url, _console() as tablet:
        strangers = [Trickle(url, 300, slow_get), Trickle(url, 100, slow_post), Trickle(tablet, 100, slow_get)]
        try:
            times: list[tuple[str, float]] = []
            for n in (1, 2, 3):  # three tables, each from its own address, join and report a game
                link = HostLink(url, n, token=TOKEN, local_address=f"127.0.0.{n}")
                started = time.monotonic()
                players = link.join()["players"]
                answer = link.report(f"g-{n}", dict(enumerate(players, start=1)), bot_outcome(n).to_json())
                times.append((f"table {n}", time.monotonic() - started))
                assert answer["number"] == n
                link.close()
            with _from("127.0.0.4") as tv:
                for path in ("/", f"/api/meetings/{meeting}"):
                    took, response = _timed(tv, "GET", url + path)
                    assert response.status_code == 200, (path, response.status_code)
                    times.append((f"TV {path}", took))
            with _from("127.0.0.5") as priest:
                for path in ("/", "/api/session"):
                    took, response = _timed(priest, "GET", tablet + path)
                    assert response.status_code == 200, (path, response.status_code)
                    times.append((f"Priest {path}", took))
            slow = [(who, round(took, 2)) for who, took in times if took > 1.0]
            assert not slow, f"answered after more than a second: {slow}"
            # The stranger holds no more than its share: the others were answered 503 at once, with the headers.
            held = sum(_still_open(sock) for sock in strangers[0].socks + strangers[1].socks)
            assert held <= MAX_PER_CLIENT
            refused = _first_answer(strangers[0].socks[-1])
            assert refused.startswith(b"HTTP/1.1 503")
            assert b"content-security-policy: " + SECURITY_HEADERS["Content-Security-Policy"].encode() in refused
        finally:
            for trickle in strangers:
                trickle.close()
    with RecordStore(db) as store:
        assert [g.journal_game_id for g in store.games.in_meeting(meeting)] == ["g-1", "g-2", "g-3"]


def _still_open(sock: socket.socket) -> bool:
    """Held by the server: nothing answered yet (a refused one has its 503, or its end, waiting)."""
    try:
        sock.recv(16, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def _first_answer(sock: socket.socket) -> bytes:
    sock.setblocking(True)
    sock.settimeout(5)
    got = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(4096):
            got += chunk
    return got


@pytest.fixture
def quick_host(tmp_path: Path) -> Iterator[tuple[str, int]]:
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=1)
    with serve(create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None), header_seconds=1.0,
               request_seconds=1.5) as url:
        yield url, meeting


def test_a_request_that_trickles_is_cut_off_though_the_app_never_reads_it(quick_host):
    url, meeting = quick_host
    sock = socket.create_connection(_address(url), timeout=10)
    sock.sendall(b"GET /api/meetings/current HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
    started = time.monotonic()
    got = b""
    with contextlib.suppress(OSError):
        while time.monotonic() - started < 8:
            sock.sendall(b"x")  # a byte every 0.2 s: uvicorn's idle timer alone restarts on each
            with contextlib.suppress(TimeoutError):
                sock.settimeout(0.2)
                chunk = sock.recv(65536)
                if not chunk and got:
                    break
                got += chunk
    took = time.monotonic() - started
    assert 1.0 < took < 4.0, took
    sock.close()


def test_a_refused_body_is_not_read_to_its_end(quick_host):
    url, meeting = quick_host
    sock = socket.create_connection(_address(url), timeout=10)
    sock.sendall(f"POST /api/meetings/{meeting}/tables/1/results HTTP/1.1\r\nHost: x\r\n"
                 "Authorization: Bearer wrong\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
    chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
    sent = 0
    with contextlib.suppress(OSError):
        for _ in range(3200):  # 200 MB, as fast as the host takes it
            sock.sendall(chunk)
            sent += len(chunk)
    assert sent < 20 * 2**20, f"the host read {sent} bytes of a body it had refused"
    sock.close()


def test_the_servers_own_400_carries_the_security_headers(quick_host):
    url, _ = quick_host
    sock = socket.create_connection(_address(url), timeout=10)
    sock.sendall(b"GARBAGE\x00 / HTTP/1.1\r\n\r\n")
    got = _first_answer(sock)
    assert got.startswith(b"HTTP/1.1 400")
    for name, value in SECURITY_HEADERS.items():
        assert f"{name}: {value}".lower().encode() in got.lower()
