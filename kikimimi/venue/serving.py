"""How the host is served: the project's bounded serving (`kikimimi.serving`) with the host's own limits.

The host's requests are small (a result is a few KB) and its clients are tables on the LAN and a TV, so
the limits can be tight: headers within `HEADER_SECONDS`, a body of up to `MAX_BODY` bytes within
`BODY_SECONDS` (408 and 413), the whole request within both, a connection idle for `IDLE_SECONDS` closed, at
most `MAX_CONNECTIONS` connections and `MAX_PER_CLIENT` from one address (past that 503), the TVs' Server-Sent
Events streams included, of which the host takes `MAX_STREAMS` (`MAX_STREAMS_PER_CLIENT` from one address).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from kikimimi import serving
from kikimimi.serving import BodyRefused

__all__ = ["SECURITY_HEADERS", "BodyRefused", "read_body", "server_config"]

# Sent with every answer of the host (page, API, static files), beside kikimimi.serving's common headers:
# the standings page runs its own script and style sheet only and submits no form.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = serving.security_headers(CONTENT_SECURITY_POLICY)

MAX_BODY = 64 * 1024  # a result is a few KB
HEADER_SECONDS = 10.0
BODY_SECONDS = 10.0
IDLE_SECONDS = 15.0
MAX_CONNECTIONS = 400  # 30 tables and a few TVs use well under 100
MAX_PER_CLIENT = 32  # a table uses one or two, a TV's page two (its stream and a request): one address cannot take all
MAX_STREAMS = 100  # standings streams at once (a TV follows one): connections stay for the tables' reports
MAX_STREAMS_PER_CLIENT = 8


async def read_body(request: Request, limit: int = MAX_BODY, seconds: float | None = None) -> bytes:
    """The request's body within the host's limits (BODY_SECONDS is read at each request)."""
    return await serving.read_body(request, limit, BODY_SECONDS if seconds is None else seconds, "host")


def server_config(app: Any, *, header_seconds: float = HEADER_SECONDS, idle_seconds: float = IDLE_SECONDS,
                  max_connections: int = MAX_CONNECTIONS, max_per_client: int = MAX_PER_CLIENT,
                  request_seconds: float | None = None, **options: Any) -> Any:
    """The uvicorn.Config the host runs with (the tests serve the app with the same one); a whole request
    arrives within its headers' and its body's time (`request_seconds`)."""
    whole = header_seconds + BODY_SECONDS if request_seconds is None else request_seconds
    return serving.server_config(app, header_seconds=header_seconds, idle_seconds=idle_seconds,
                                 request_seconds=whole, max_connections=max_connections,
                                 max_per_client=max_per_client, name="venue", **options)
