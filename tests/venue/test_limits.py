"""Every request the host takes is bounded (issue 21.3): the body's size (413, counted as it streams, the
rest never read), the time its headers and body may take, a connection's idle time, the number of
connections, and what a table's state may hold. Raw sockets play the slow and oversized clients."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from venue_helpers import TOKEN, new_meeting, serve

from kikimimi.records.store import RecordStore
from kikimimi.venue import serving
from kikimimi.venue.host import create_app
from kikimimi.venue.serving import MAX_BODY


@pytest.fixture
def hosted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    monkeypatch.setattr(serving, "BODY_SECONDS", 1.0)  # the host's limits, shorter for a test
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=2)
    app = create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None)
    with serve(app, header_seconds=1.0, idle_seconds=1.0, max_connections=6) as url:
        yield url, meeting


def connect(url: str) -> socket.socket:
    host, port = url.rsplit("/", 1)[-1].split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    return sock


def answer(sock: socket.socket) -> bytes:
    """Everything the host sends until it closes the connection (or 10 s pass)."""
    got = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            got += chunk
            if b"\r\n\r\n" in got and b'"}' in got:
                break
    return got


def test_a_huge_body_is_refused_before_it_is_read(hosted: tuple[str, int]) -> None:
    url, meeting = hosted
    auth = {"Authorization": f"Bearer {TOKEN}"}
    declared = httpx.post(f"{url}/api/meetings/{meeting}/tables/1/results", headers=auth,
                          content=b"x" * (MAX_BODY + 1))
    assert declared.status_code == 413 and "bytes" in declared.json()["error"]
    # Chunked, so no length is declared: the host counts as it reads and answers after MAX_BODY, without
    # waiting for an end that never comes (a host reading the whole body first would never answer).
    sock = connect(url)
    sock.sendall(f"POST /api/meetings/{meeting}/tables/1/results HTTP/1.1\r\nHost: x\r\n"
                 f"Authorization: Bearer {TOKEN}\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
    chunk = b"x" * 8192
    with contextlib.suppress(OSError):  # the host may close while chunks are still going
        for _ in range(2 * MAX_BODY // len(chunk)):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    got = answer(sock)
    sock.close()
    assert got.startswith(b"HTTP/1.1 413") and b"the most the host takes" in got


def test_headers_that_trickle_and_an_idle_connection_are_cut_off(hosted: tuple[str, int]) -> None:
    url, meeting = hosted
    slow = connect(url)
    slow.sendall(b"GET /api/meetings/current HTTP/1.1\r\n")  # and the rest never comes
    started = time.monotonic()
    assert slow.recv(100) == b""  # closed by the host
    assert time.monotonic() - started < 5
    slow.close()
    idle = connect(url)
    idle.sendall(b"GET /api/meetings/current HTTP/1.1\r\nHost: x\r\n\r\n")
    first = idle.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    started = time.monotonic()
    while idle.recv(65536):  # the rest of the answer, then the host closes the idle connection
        pass
    assert time.monotonic() - started < 5
    idle.close()


def test_a_body_that_trickles_is_refused(hosted: tuple[str, int]) -> None:
    url, meeting = hosted
    sock = connect(url)
    sock.sendall(f"POST /api/meetings/{meeting}/tables/1/state HTTP/1.1\r\nHost: x\r\n"
                 f"Authorization: Bearer {TOKEN}\r\nContent-Length: 100\r\n\r\n{{".encode())
    sock.settimeout(30)
    got = answer(sock)
    sock.close()
    assert got.startswith(b"HTTP/1.1 408") and b"did not arrive within" in got


def test_connections_past_the_cap_are_answered_503(hosted: tuple[str, int]) -> None:
    url, _ = hosted
    held = [connect(url) for _ in range(6)]
    try:
        time.sleep(0.2)
        refused = httpx.get(f"{url}/api/meetings/current")
    finally:
        for sock in held:
            sock.close()
    assert refused.status_code == 503
    time.sleep(0.2)
    assert httpx.get(f"{url}/api/meetings/current").status_code == 200


@pytest.mark.parametrize("state,named", [
    ({"phase": "x" * 1000}, "phase"),
    ({"health": {"readers": "broken"}}, "readers"),
    ({"health": {"readers": {"field": ["ok"]}}}, "readers"),
    ({"health": {"outputs": {"speaker": "x" * 500}}}, "outputs"),
    ({"health": {"readers": {f"hand:{n}": "ok" for n in range(500)}}}, "readers"),
    ({"health": {"unsent": "many"}}, "unsent"),
    ({"game_id": "g" * 500}, "game_id"),
    ({"round": 10**12}, "round"),
])
def test_a_state_that_does_not_read_is_refused(hosted: tuple[str, int], state: dict[str, Any], named: str) -> None:
    url, meeting = hosted
    auth = {"Authorization": f"Bearer {TOKEN}"}
    refused = httpx.post(f"{url}/api/meetings/{meeting}/tables/1/state", headers=auth, json=state)
    assert refused.status_code == 400 and named in refused.json()["error"]
    fine = {"round": 2, "phase": "choose_suit", "game_id": "20261122-100000-aaaaaa",
            "health": {"readers": {"field": "ok", "hand:1": "reconnecting"}, "outputs": {"speaker": "ok"},
                       "unsent": 1}}
    assert httpx.post(f"{url}/api/meetings/{meeting}/tables/1/state", headers=auth, json=fine).status_code == 200
    table = httpx.get(f"{url}/api/meetings/{meeting}").json()["tables"][0]
    assert table["health"] == "degraded" and table["phase"] == "choose_suit"
