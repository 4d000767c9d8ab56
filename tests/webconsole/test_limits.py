"""The web console is bounded as the venue host is (one piece serves both: kikimimi.serving): request
headers that trickle and an idle connection are cut off, a body past the console's own size is refused as
it streams, and every answer carries the common security headers with the console's own CSP. The server
is the real uvicorn one `play --web` runs; no table is attached (the page's requests do not need one)."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import serving_app

from kikimimi.console.web import serve
from kikimimi.console.web.access import evening
from kikimimi.console.web.server import MAX_BODY, create_app
from kikimimi.venue.serving import SECURITY_HEADERS as VENUE_HEADERS


@pytest.fixture
def console_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(serve, "HEADER_SECONDS", 1.0)  # the console's limits, shorter for a test
    monkeypatch.setattr(serve, "IDLE_SECONDS", 1.0)
    journal = tmp_path / "journal.sqlite"
    app = create_app(tmp_path / "no-table.sock", evening(journal), language="en")
    with serving_app(app) as url:
        yield url


def connect(url: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=10)


def test_headers_that_trickle_and_an_idle_connection_are_cut_off(console_url: str) -> None:
    slow = connect(console_url)
    slow.sendall(b"GET /api/session HTTP/1.1\r\n")  # and the rest never comes
    started = time.monotonic()
    assert slow.recv(100) == b""  # closed by the console (uvicorn alone would wait for ever)
    assert time.monotonic() - started < 5
    slow.close()
    idle = connect(console_url)
    idle.sendall(b"GET /api/session HTTP/1.1\r\nHost: x\r\n\r\n")
    assert idle.recv(65536).startswith(b"HTTP/1.1 200")
    started = time.monotonic()
    while idle.recv(65536):
        pass
    assert time.monotonic() - started < 5
    idle.close()


def test_a_body_past_the_consoles_size_is_refused_as_it_streams(console_url: str) -> None:
    host = console_url.removeprefix("http://")
    sock = connect(console_url)
    sock.sendall(f"POST /api/login HTTP/1.1\r\nHost: {host}\r\nOrigin: {console_url}\r\n"
                 "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
    chunk = b" " * 4096
    with contextlib.suppress(OSError):  # the console may close while chunks are still going
        for _ in range(2 * MAX_BODY // len(chunk)):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    got = b""
    with contextlib.suppress(ConnectionResetError):
        while (piece := sock.recv(65536)) and b'"}' not in got:
            got += piece
    sock.close()
    assert got.startswith(b"HTTP/1.1 413") and b"the most the console takes" in got


def test_the_common_headers_with_each_servers_own_csp(console_url: str) -> None:
    for path in ("/", "/api/events", "/no-such-page"):  # a page, a refusal, Starlette's own 404
        headers = httpx.get(console_url + path).headers
        for name in ("x-frame-options", "x-content-type-options", "referrer-policy", "permissions-policy",
                     "cross-origin-opener-policy"):
            assert headers[name] == VENUE_HEADERS[next(k for k in VENUE_HEADERS if k.lower() == name)], path
        assert "manifest-src 'self'" in headers["content-security-policy"], path
    assert "manifest-src" not in VENUE_HEADERS["Content-Security-Policy"]  # the venue keeps its own
