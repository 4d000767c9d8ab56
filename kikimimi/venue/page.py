"""The venue's standings page: one HTML page, one script and one style sheet for the TV in the room.

The host mounts `routes()`. The page itself is static: the server only fills in the page's language
and which meeting it follows; the script draws everything else from the host's snapshot stream
(`/api/meetings/{id}/events`, see docs/venue-page.md). Nothing is fetched from outside the host:
a venue may have no internet.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).with_name("static")
STATIC_PREFIX = "/venue-static"
LANGUAGES = ("ja", "en")
DEFAULT_LANGUAGE = "ja"
DEFAULT_ROTATE_SECONDS = 10  # how long one page of a long standings list stays on screen


def page_language(query: str | None, accept_language: str | None) -> str:
    """The page's language: `?lang=` when given, else the browser's best supported choice, else ja.

    Raises ValueError (a one-line message) for a `lang` the page has no labels for."""
    if query is not None:
        lang = query.strip().lower()
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {query!r} in ?lang=: use one of {', '.join(LANGUAGES)}")
        return lang
    return _preferred_language(accept_language or "") or DEFAULT_LANGUAGE


def _preferred_language(header: str) -> str | None:
    """The supported language the Accept-Language header weighs highest (ties: the first listed)."""
    best: tuple[float, str] | None = None
    for item in header.split(","):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in LANGUAGES:
            continue
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0  # a malformed weight counts as "not wanted" rather than failing the page
        if weight > 0 and (best is None or weight > best[0]):
            best = (weight, primary)
    return best[1] if best else None


def _fingerprint(*names: str) -> str:
    """A short hash of the static files, added to their URLs so a TV never keeps an old script."""
    digest = hashlib.sha256()
    for name in names:
        digest.update((STATIC_DIR / name).read_bytes())
    return digest.hexdigest()[:12]


def render_page(meeting: str, lang: str, rotate_seconds: int = DEFAULT_ROTATE_SECONDS) -> str:
    """The page's HTML for a meeting ("current" or an id) in a language."""
    template = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    values = {
        "{{lang}}": lang,
        "{{meeting}}": meeting,
        "{{rotate}}": str(rotate_seconds),
        "{{static}}": STATIC_PREFIX,
        "{{version}}": _fingerprint("venue.js", "venue.css"),
    }
    for placeholder, value in values.items():
        template = template.replace(placeholder, value)
    return template


async def _page(request: Request) -> Response:
    meeting = str(request.path_params.get("meeting_id", "current"))
    try:
        lang = page_language(request.query_params.get("lang"), request.headers.get("accept-language"))
        rotate = _rotate_seconds(request.query_params.get("rotate"))
    except ValueError as error:
        return PlainTextResponse(f"{request.url.path}: {error}\n", status_code=400)
    # The language follows the query or the header: caches must keep them apart.
    return HTMLResponse(render_page(meeting, lang, rotate), headers={"Vary": "Accept-Language"})


def _rotate_seconds(value: str | None) -> int:
    if value is None:
        return DEFAULT_ROTATE_SECONDS
    if not value.isdigit() or not 1 <= int(value) <= 600:
        raise ValueError(f"?rotate={value!r} is not a number of seconds from 1 to 600")
    return int(value)


def routes() -> list[BaseRoute]:
    """The page at `/`, `/meetings/current` and `/meetings/{id}`, and its static files."""
    return [
        Route("/", _page, methods=["GET"]),
        Route("/meetings/current", _page, methods=["GET"]),
        Route("/meetings/{meeting_id:int}", _page, methods=["GET"]),
        Mount(STATIC_PREFIX, app=StaticFiles(directory=STATIC_DIR), name="venue-static"),
    ]
