"""Serving an app over HTTP with every request bounded in size and time, and the security headers.

One piece for the project's two servers, the venue host (`kikimimi.venue`) and the Priest's web console
(`kikimimi.console.web`); each passes its own limits and its own Content-Security-Policy.

uvicorn's defaults never cut off a slow client: a request whose headers trickle in a byte a minute holds
its connection for ever, and the number of connections is unbounded. Here:

- headers must arrive within `header_seconds` of a request's first byte (or of the connection), else
  the connection is closed (uvicorn has no such limit: `BoundedH11Protocol` adds it), and are at most
  `MAX_HEADERS` bytes;
- a body is read within a time and up to a size the server chooses (`read_body`: 408 and 413);
- a whole request (headers and body) must have arrived within `request_seconds` of its first byte, whether
  or not the app reads the body: a GET or a refused POST trickling a byte every few seconds is cut off (the
  app's own limit only runs while it reads, and uvicorn's idle timer restarts on every byte); a body still
  coming once the answer is sent is not read to its end: the connection is closed after a little of it;
- a connection idle between requests is closed after `idle_seconds` (uvicorn's keep-alive timeout);
- at most `max_connections` connections in all and `max_per_client` from one client address, open
  Server-Sent Events streams included: one client cannot take the server from the others. A connection over
  either cap is answered 503 at once and closed;
- the server's own answers (a 400 for a request h11 cannot parse, the 503 of the caps) carry the same
  security headers as the app's (`security_headers`).
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
REQUEST_SECONDS = 30.0
IDLE_SECONDS = 15.0
DRAIN_BYTES = 64 * 1024  # of a body the app did not read, taken after the answer so that the client reads it

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
    """uvicorn's h11 protocol with the limits of this module: a request's headers within `header_seconds`, the
    whole request within `request_seconds`, `max_connections` in all and `max_per_client` from one address,
    and `headers` on the server's own answers. `server_config` sets these on a subclass made for each server,
    whose `open_per_client` counts that server's connections by client address (one event loop: no lock)."""

    header_seconds = HEADER_SECONDS
    request_seconds = REQUEST_SECONDS
    server_name = "server"
    max_connections: int | None = None
    max_per_client: int | None = None
    answer_headers: list[tuple[bytes, bytes]] = []
    open_per_client: dict[str, int] = {}
    quiet_until = 0.0  # when a refusal is logged again

    # uvicorn always hands this protocol a Transport, narrower than BaseTransport in the base signature.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._request_timer: asyncio.TimerHandle | None = None
        self._drained = -1  # bytes of an unread body taken after the answer; -1: the answer is not sent
        self._address = self.client[0] if self.client else ""
        counts = type(self).open_per_client
        counts[self._address] = counts.get(self._address, 0) + 1
        if self.max_per_client is not None and counts[self._address] > self.max_per_client:
            self._refuse(f"{self.max_per_client} connections from {self._address} already")
        elif self.max_connections is not None and len(self.connections) > self.max_connections:
            self._refuse(f"{self.max_connections} connections already")
        else:
            self._arm_header_timer()

    def _refuse(self, why: str) -> None:
        """503 and close, before reading anything: the answer is the whole of this connection. Said in the log
        once a minute at most (a flood of connections is no flood of lines)."""
        now = self.loop.time()
        if now >= type(self).quiet_until:
            type(self).quiet_until = now + 60
            self.logger.warning("%s: connections refused (%s); more are not logged for a minute",
                                self.server_name, why)
        body = b"Service Unavailable: too many connections"
        head = [b"HTTP/1.1 503 Service Unavailable", b"content-type: text/plain; charset=utf-8",
                b"content-length: " + str(len(body)).encode(), b"connection: close",
                *(name + b": " + value for name, value in self.answer_headers)]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.transport.close()

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_seconds, self._headers_too_slow)
        if self._request_timer is None:
            self._request_timer = self.loop.call_later(self.request_seconds, self._request_too_slow)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _disarm_request_timer(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.logger.warning("%s: a client's request headers took over %g s; connection closed",
                                self.server_name, self.header_seconds)
            self.transport.close()

    def _request_too_slow(self) -> None:
        self._request_timer = None
        if self.conn.their_state is not h11.DONE and not self.transport.is_closing():
            self.logger.warning("%s: a client's request took over %g s to arrive; connection closed",
                                self.server_name, self.request_seconds)
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._drained >= 0:  # the answer went; the rest of an unread body is not worth reading
            self._drained += len(data)
            if self._drained > DRAIN_BYTES:
                self.transport.close()
                return
        if self.conn.their_state is h11.IDLE:  # a request begins (or goes on arriving): its clocks run
            self._arm_header_timer()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in; the body has its own limit
            self._disarm_header_timer()
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE):
            self._disarm_request_timer()
        if self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE:
            self._drained = -1  # the next request of a kept-alive connection

    def on_response_complete(self) -> None:
        if self.conn.their_state is h11.SEND_BODY:  # answered before the body was read (a 401, a 413)
            self._drained = 0
        super().on_response_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request it cannot parse, with the server's security headers."""
        event = h11.Response(status_code=400, reason=b"Bad Request", headers=[
            (b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"), *self.answer_headers])
        try:
            for part in (event, h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
                self.transport.write(self.conn.send(part))
        except h11.LocalProtocolError:  # an answer was already under way: nothing more can be said
            pass
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        self._disarm_request_timer()
        counts = type(self).open_per_client
        left = counts.get(self._address, 1) - 1
        if left > 0:
            counts[self._address] = left
        else:
            counts.pop(self._address, None)
        super().connection_lost(exc)


def server_config(app: Any, *, max_connections: int, header_seconds: float = HEADER_SECONDS,
                  request_seconds: float = REQUEST_SECONDS, idle_seconds: float = IDLE_SECONDS,
                  max_per_client: int | None = None, headers: Mapping[str, str] | None = None,
                  name: str = "server", **options: Any) -> Any:
    """A uvicorn.Config with the limits above; `name` is who the log says closed a slow client. `max_per_client`
    defaults to a quarter of `max_connections` (4 to 32); `headers` (default: the app's `security_headers`,
    else the common ones) go on the server's own answers."""
    import uvicorn

    if max_per_client is None:
        max_per_client = max(4, min(32, max_connections // 4))
    if headers is None:
        headers = getattr(app, "security_headers", None) or COMMON_SECURITY_HEADERS
    protocol = type("BoundedH11", (BoundedH11Protocol,), {
        "header_seconds": header_seconds, "request_seconds": max(request_seconds, header_seconds),
        "server_name": name, "max_connections": max_connections, "max_per_client": max_per_client,
        "answer_headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()], "open_per_client": {}})
    # The caps are the protocol's (with the security headers on their 503); uvicorn's own limit_concurrency
    # stays as a backstop for tasks outliving their connections.
    return uvicorn.Config(app, http=protocol, timeout_keep_alive=max(1, round(idle_seconds)),
                          limit_concurrency=max_connections * 2, h11_max_incomplete_event_size=MAX_HEADERS,
                          log_level="warning", **options)
