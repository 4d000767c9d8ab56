"""How the host is served: uvicorn with every request bounded in size and time, and a connection cap.

uvicorn's defaults never cut off a slow client: a request whose headers trickle in a byte a minute holds
its connection for ever, and the number of connections is unbounded. The host's requests are small
(a result is a few KB) and its clients are tables on the LAN and a TV, so the limits can be tight:

- headers must arrive within `HEADER_SECONDS` of a request's first byte (or of the connection), else
  the connection is closed (uvicorn has no such limit: `BoundedH11Protocol` adds it);
- a body is read within `BODY_SECONDS` and up to `MAX_BODY` bytes (`read_body`: 408 and 413);
- a connection idle between requests is closed after `IDLE_SECONDS` (uvicorn's keep-alive timeout);
- at most `MAX_CONNECTIONS` connections; past that each new request is answered 503 (uvicorn's
  `limit_concurrency`), the open Server-Sent Events streams of the TVs included.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from starlette.requests import Request
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_BODY = 64 * 1024  # a result is a few KB
MAX_HEADERS = 16 * 1024
HEADER_SECONDS = 10.0
BODY_SECONDS = 10.0
IDLE_SECONDS = 15.0
MAX_CONNECTIONS = 400  # 30 tables and a few TVs use well under 100


class BodyRefused(Exception):
    """A body too large (413) or too slow (408): the status and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: Request, limit: int = MAX_BODY, seconds: float | None = None) -> bytes:
    """The request's body, counted as it streams in: past `limit` bytes the rest is never read (413),
    and a body not complete within `seconds` (default BODY_SECONDS) is refused (408)."""
    seconds = BODY_SECONDS if seconds is None else seconds
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyRefused(413, f"the body is {int(declared)} bytes; the host takes up to {limit}")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise BodyRefused(413, f"the body is over {limit} bytes, the most the host takes")
                chunks.append(chunk)
    except TimeoutError:
        raise BodyRefused(408, f"the body did not arrive within {seconds:g} s") from None
    return b"".join(chunks)


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers take longer than
    `header_seconds` (set on the class by `server_config`)."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm_header_timer()

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_seconds, self._headers_too_slow)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.logger.warning("venue: a client's request headers took over %g s; connection closed",
                                self.header_seconds)
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # a request begins (or goes on arriving): its clock runs
            self._arm_header_timer()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in; the body has its own limit
            self._disarm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)


def server_config(app: Any, *, header_seconds: float = HEADER_SECONDS, idle_seconds: float = IDLE_SECONDS,
                  max_connections: int = MAX_CONNECTIONS, **options: Any) -> Any:
    """The uvicorn.Config the host runs with (the tests serve the app with the same one)."""
    import uvicorn

    protocol = type("HostH11Protocol", (BoundedH11Protocol,), {"header_seconds": header_seconds})
    return uvicorn.Config(app, http=protocol, timeout_keep_alive=max(1, round(idle_seconds)),
                          limit_concurrency=max_connections, h11_max_incomplete_event_size=MAX_HEADERS,
                          log_level="warning", **options)
