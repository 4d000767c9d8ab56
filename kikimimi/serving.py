"""Serving an app over HTTP with every request bounded in size and time, and the security headers.

One piece for the project's two servers, the venue host (`kikimimi.venue`) and the Priest's web console
(`kikimimi.console.web`); each passes its own limits and its own Content-Security-Policy.

uvicorn's defaults never cut off a slow client: a request whose headers trickle in a byte a minute holds
its connection for ever, and the number of connections is unbounded. Here:

- headers must arrive within `header_seconds` of a request's first byte (or of the connection), else
  the connection is closed (uvicorn has no such limit: `BoundedH11Protocol` adds it), and are at most
  `MAX_HEADERS` bytes;
- a body is read within a time and up to a size the server chooses (`read_body`: 408 and 413);
- a connection idle between requests is closed after `idle_seconds` (uvicorn's keep-alive timeout);
- at most `max_connections` connections; past that each new request is answered 503 (uvicorn's
  `limit_concurrency`), open Server-Sent Events streams included.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import h11
from starlette.applications import Starlette
from starlette.requests import Request
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEADERS = 16 * 1024
HEADER_SECONDS = 10.0
IDLE_SECONDS = 15.0

# Sent with every answer of either server: a page runs its own script and style sheet only, talks to its
# own server only, is never framed by another site, and asks for no camera, microphone or place.
COMMON_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def security_headers(content_security_policy: str) -> dict[str, str]:
    """The headers every answer of a server carries: the common ones and the server's own CSP."""
    return {"Content-Security-Policy": content_security_policy, **COMMON_SECURITY_HEADERS}


class BodyRefused(Exception):
    """A body too large (413) or too slow (408): the status and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: Request, limit: int, seconds: float, server: str = "server") -> bytes:
    """The request's body, counted as it streams in: past `limit` bytes the rest is never read (413),
    and a body not complete within `seconds` is refused (408). `server` names who refuses ("the host")."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyRefused(413, f"the body is {int(declared)} bytes; the {server} takes up to {limit}")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise BodyRefused(413, f"the body is over {limit} bytes, the most the {server} takes")
                chunks.append(chunk)
    except TimeoutError:
        raise BodyRefused(408, f"the body did not arrive within {seconds:g} s") from None
    return b"".join(chunks)


class SecurityHeaders:
    """ASGI middleware adding the given headers to every HTTP answer (errors and streams included)."""

    def __init__(self, app: Any, headers: Mapping[str, str]) -> None:
        self.app = app
        self.headers = [(name.lower().encode(), value.encode()) for name, value in headers.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        await self.app(scope, receive, send_secured)


class SecuredStarlette(Starlette):
    """Starlette with the security headers outside everything, Starlette's own answer to a failure too."""

    def __init__(self, *args: Any, headers: Mapping[str, str], **kwargs: Any) -> None:
        self.security_headers = dict(headers)
        super().__init__(*args, **kwargs)

    def build_middleware_stack(self) -> Any:
        return SecurityHeaders(super().build_middleware_stack(), self.security_headers)


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers take longer than
    `header_seconds` (set on a subclass by `server_config`)."""

    header_seconds = HEADER_SECONDS
    server_name = "server"

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
            self.logger.warning("%s: a client's request headers took over %g s; connection closed",
                                self.server_name, self.header_seconds)
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


def server_config(app: Any, *, max_connections: int, header_seconds: float = HEADER_SECONDS,
                  idle_seconds: float = IDLE_SECONDS, name: str = "server", **options: Any) -> Any:
    """A uvicorn.Config with the limits above; `name` is who the log says closed a slow client."""
    import uvicorn

    protocol = type("BoundedH11", (BoundedH11Protocol,), {"header_seconds": header_seconds, "server_name": name})
    return uvicorn.Config(app, http=protocol, timeout_keep_alive=max(1, round(idle_seconds)),
                          limit_concurrency=max_connections, h11_max_incomplete_event_size=MAX_HEADERS,
                          log_level="warning", **options)
