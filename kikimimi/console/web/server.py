"""The web console's server: one more client of the table's control socket, served to tablets over HTTP.

    app = create_app(socket_path, evening, records=None)     # a Starlette app; uvicorn serves it

It attaches to the table like the terminal console does (`RemoteLink`), and attaches again by itself when
the table goes away and comes back (a restart, the service's Restart=always), so a page left open on a
tablet carries on. The page follows `/api/events` (Server-Sent Events: a snapshot after every step the
table reports; when only the health changed, the health alone, or the turn clock alone) and acts through
`/api/act`; every action goes to the table's loop through the link, and so into the journal, as the
terminal console's do.

Routes: `/` the page (and `/?code=` from the QR code), `/static/…`, `/api/session`, `/api/login`,
`/api/events?reveal=0|1`, `/api/act`. Everything under /api but the session check and the login needs
the evening's cookie; a POST needs its Origin to be this server (and a JSON body): another site's page on
a player's phone cannot act through the Priest's browser.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import random
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kikimimi.console.feed import TableFeed
from kikimimi.console.health import HealthWatch
from kikimimi.console.link import LinkError, RemoteLink
from kikimimi.console.records import MeetingPanel, read_meeting
from kikimimi.console.simtable import BASKET, basket_of
from kikimimi.console.web.access import COOKIE, Access, Evening, Guesses
from kikimimi.console.web.render import games_offered, hand_readers, health_json, snapshot
from kikimimi.console.words import LANGUAGES, Words, words
from kikimimi.games.base import Alert, Event, GameOver, Referee, Say, Scan, hand
from kikimimi.games.registry import UnknownGame, get_info
from kikimimi.serving import BodyRefused, SecuredStarlette, read_body, security_headers
from kikimimi.voice.catalog import catalog

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024  # bytes of one request's body: the largest real one (a new game's set-up) is < 1 KB
BODY_WITHIN = 5.0  # seconds a client may take to send its body
MAX_STREAMS = 16  # pages following the table at once (two tablets and a phone need 3)
KEEP_ALIVE = 15.0  # seconds between comments on a quiet stream (proxies and Wi-Fi drop silent ones)
RETRY_MS = 1000  # a dropped stream comes back after this long
POLL = 0.5  # seconds between health polls (the table pushes health about as often)
ATTACH_EVERY = 0.5  # seconds between attempts to reach a table that is not answering
KEPT_ALERTS = 50
ANSWER_WITHIN = 5.0  # seconds an action waits for the table's answer (the step it makes)

# Beside kikimimi.serving's common headers: the page runs its own script and style sheet only and talks to
# this server only (its manifest included).
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                           "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
SECURITY_HEADERS = security_headers(CONTENT_SECURITY_POLICY)


class Refused(Exception):
    """An action or request the console refuses: an HTTP status and one sentence the page shows (`answer`
    "refused" when it is the table's own refusal of an action the page sent as meant)."""

    def __init__(self, status: int, message: str, answer: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.answer = answer


class NotNow(ValueError):
    """An action the table cannot take now (nothing to undo, the game over, a table that moved on since the
    question was asked): a catalog key and its parameters, said in the table's language (HTTP 409)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Sent:
    """An event sent to the table: the page's answer waits for the step that applies it."""

    def __init__(self, label: str, reply: concurrent.futures.Future[list[Any]]) -> None:
        self.label = label
        self.reply = reply


class WebConsole:
    """The table as the page sees it: the link (None while the table does not answer), what it said, the
    console's own alerts, the meeting; a version that grows with every change the pages should draw."""

    def __init__(self, socket: Path, access: Access, records: str | Path | None = None,
                 language: str = "ja") -> None:
        self.socket = socket
        self.access = access
        self.records = records
        self.language = language
        self.link: RemoteLink | None = None
        self.lost = "not attached yet"  # why there is no link
        self.feed: TableFeed | None = None
        self.health_watch = HealthWatch()
        self.console_alerts: deque[tuple[float, Alert]] = deque(maxlen=KEPT_ALERTS)
        self.meeting = MeetingPanel()
        self.guesses = Guesses()
        self.version = 0
        self.streams = 0
        self.closing = asyncio.Event()
        self.rng = random.Random()
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._cache: dict[tuple[bool, str], tuple[tuple[int, int], str]] = {}
        self._health: Any = None
        self._health_shown: dict[str, Any] | None = None  # the health as the pages last got it
        # Grows when only the health changed (the turn clock counts down every 0.5 s): a page that has the
        # snapshot gets a small `health` event, not the whole snapshot again (docs/console.md, figures).
        self.health_version = 0
        self._clock_only_at = -1  # the health version that changed only the clock from the one before it
        # Actions sent and not yet answered: (does this step apply it?, its future answer: the step's effects)
        self._waiting: list[tuple[Callable[[Event], bool], concurrent.futures.Future[list[Any]]]] = []
        self._waiting_lock = threading.Lock()

    # -- the table ----------------------------------------------------------------------------------

    def changed(self) -> None:
        """Something the pages draw changed (on the event loop's thread): each page gets a whole snapshot."""
        self.version += 1
        self._wake_pages()

    def _wake_pages(self) -> None:
        self._wake.set()
        self._wake = asyncio.Event()

    async def keep_attached(self) -> None:
        """Attach, poll health, attach again when the table is lost: until the server stops."""
        self._loop = asyncio.get_running_loop()
        while not self.closing.is_set():
            if self.link is None:
                await self._attach()
            else:
                self._poll_health()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.closing.wait(), POLL if self.link is not None else ATTACH_EVERY)
        if self.link is not None:
            await asyncio.to_thread(self.link.close)

    async def _attach(self) -> None:
        try:
            link = await asyncio.to_thread(RemoteLink.attach, self.socket, 0)
        except LinkError as exc:
            if str(exc) != self.lost:
                self.lost = str(exc)
                self.changed()
            return
        loop = asyncio.get_running_loop()
        self.language = link.facts.language
        feed = TableFeed(catalog(link.facts.language, get_info(link.view().game).catalog))
        feed.on_change = lambda step: loop.call_soon_threadsafe(self._stepped, step)
        link.on_lost = lambda why: loop.call_soon_threadsafe(self._lost, link, why)
        link.on_error = lambda why: loop.call_soon_threadsafe(self._refused, why)
        self.link, self.feed, self.lost = link, feed, ""
        link.subscribe(feed.on_step)  # the game's steps so far first, as the terminal console gets them
        self.meeting = await asyncio.to_thread(read_meeting, self.records)
        log.info("web console: attached to the table (pid %d)", link.facts.pid)
        self.changed()

    @property
    def words(self) -> Words:
        return words(self.language)

    def expect(self, matches: Callable[[Event], bool]) -> concurrent.futures.Future[list[Any]]:
        """The answer to an event about to be sent: the effects of the first step that `matches` its event
        (registered before sending, so the step cannot come first)."""
        reply: concurrent.futures.Future[list[Any]] = concurrent.futures.Future()
        with self._waiting_lock:
            self._waiting.append((matches, reply))
        return reply

    def _answer(self, step: Any) -> None:
        event = step.event
        if not isinstance(event, Scan | Referee):
            return
        with self._waiting_lock:
            for entry in list(self._waiting):
                matches, reply = entry
                if reply.done():
                    self._waiting.remove(entry)
                elif matches(event):
                    self._waiting.remove(entry)
                    reply.set_result(list(step.effects))
                    return

    def _stepped(self, step: Any) -> None:
        self._answer(step)
        if any(isinstance(effect, GameOver) for effect in step.effects):
            asyncio.ensure_future(self._reread_meeting())
        self.changed()

    async def _reread_meeting(self) -> None:
        self.meeting = await asyncio.to_thread(read_meeting, self.records)
        self.changed()

    def _lost(self, link: RemoteLink, why: str) -> None:
        if self.link is not link:
            return
        log.warning("web console: the table is gone (%s); attaching again when it is back", why)
        self.link, self.lost = None, f"the table is gone ({why})"
        self.console_alerts.append((time.time(), Alert("table.lost", {"detail": why})))
        asyncio.ensure_future(asyncio.to_thread(link.close))
        self.changed()

    def _refused(self, why: str) -> None:
        self.console_alerts.append((time.time(), Alert("referee.refused", {"action": "an action", "why": why})))
        self.changed()

    def _poll_health(self) -> None:
        link = self.link
        if link is None:
            return
        health = link.health()
        now = time.time()
        fresh = [(now, alert) for alert in self.health_watch.check(health.readers, health.outputs)]
        self.console_alerts.extend(fresh)
        if health is self._health and not fresh:
            return
        self._health = health
        shown, before = health_json(health), self._health_shown
        if shown == before and not fresh:
            return  # pushed again, nothing the page shows changed
        readers_same = before is not None and shown["readers"].keys() == before["readers"].keys()
        self._health_shown = shown
        if fresh or not readers_same:  # an alert, or the readers themselves (the games offered): all of it
            self.changed()
        else:  # the turn clock ticking, a reader's count: the pages get the health alone, or the clock alone
            self.health_version += 1
            clock_only = before is not None and {**before, "clock": shown["clock"]} == shown
            self._clock_only_at = self.health_version if clock_only else -1
            self._wake_pages()

    def close_streams(self) -> None:
        """The server is stopping: every page's stream ends now (the pages reconnect to the next one)."""
        self.closing.set()
        self.changed()

    # -- what the page gets -------------------------------------------------------------------------

    def snapshot_json(self, reveal: bool, lang: str | None = None) -> tuple[str, int]:
        """The page's snapshot now and the health version it holds (made once per version, health version,
        reveal mode and language, whatever the number of pages); in `lang`, else the table's language."""
        lang = lang if lang in LANGUAGES else self.language
        key = (self.version, self.health_version)
        cached = self._cache.get((reveal, lang))
        if cached is not None and cached[0] == key:
            return cached[1], key[1]
        link, feed = self.link, self.feed
        data: dict[str, Any] = {"version": self.version, "connected": link is not None, "lost": self.lost,
                                "lang": lang, "table_lang": self.language}
        if link is not None and feed is not None:
            view, health = link.view(), link.health()
            info = get_info(view.game)
            data.update(snapshot(view=view, health=health, facts=link.facts, info=info,
                                 lines=feed.lines(), alerts=[*view.alerts, *self.console_alerts],
                                 meeting=self.meeting, reveal=reveal, lang=lang))
            data["games"] = games_offered(lang, hand_readers(health))
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
        self._cache[(reveal, lang)] = (key, text)
        return text, key[1]

    def health_update_json(self, page_has: int) -> str:
        """The health alone as the snapshot holds it, or only the clock when that is all that changed since
        the health version the page has (the same for every page: health holds nothing private)."""
        shown = self._health_shown or {}
        if page_has == self.health_version - 1 and self._clock_only_at == self.health_version:
            update = {"version": self.version, "clock": shown.get("clock")}
        else:
            update = {"version": self.version, "health": shown}
        return json.dumps(update, ensure_ascii=False, separators=(",", ":"), default=str)

    async def stream(self, reveal: bool, lang: str | None = None, cookie: str | None = None) -> AsyncIterator[str]:
        """A page's snapshots and health updates (its slot in `streams` is taken and given back by `Stream`);
        it ends when the page's cookie stops working (the code renewed: log in again)."""
        yield f"retry: {RETRY_MS}\n\n"
        sent = sent_health = -1
        while not self.closing.is_set() and self.access.admits(cookie):
            wake = self._wake
            if self.version != sent:
                sent = self.version
                text, sent_health = self.snapshot_json(reveal, lang)
                yield f"event: snapshot\ndata: {text}\n\n"
                continue
            if self.health_version != sent_health:
                update = self.health_update_json(sent_health)
                sent_health = self.health_version
                yield f"event: health\ndata: {update}\n\n"
                continue
            try:
                await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"

    # -- actions --------------------------------------------------------------------------------------

    async def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """Do what the page asks and wait for the table's answer: done, or refused with the reason, in the
        page's language (the table's unless switched; an action the table takes as a step waits for it)."""
        said = _said(self, body)
        link = self.link
        if link is None:
            raise Refused(503, said.say("answer.table_lost"))
        what = body.get("do")
        action = ACTIONS.get(what) if isinstance(what, str) else None
        if action is None:
            raise Refused(400, f"unknown action {what!r}; known: {', '.join(ACTIONS)}")
        try:
            result = await asyncio.to_thread(action, self, link, body) or {}
        except NotNow as exc:
            raise Refused(409, said.say(exc.key, **exc.params), "refused") from None
        except (ValueError, KeyError, TypeError) as exc:  # the page's mistake or the table's refusal
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            raise Refused(400, said.reason(str(message))) from None
        except LinkError:
            raise Refused(503, said.say("answer.table_lost")) from None
        if not isinstance(result, Sent):
            return {"answer": "done", "said": said.say("answer.done"), **result}
        try:
            effects = await asyncio.wait_for(asyncio.wrap_future(result.reply), ANSWER_WITHIN)
        except TimeoutError:
            raise Refused(504, said.say("answer.no_answer", action=result.label)) from None
        refusal = refusal_of(effects, said)
        if refusal is not None:
            raise Refused(409, said.say("answer.refused", action=result.label, why=refusal), "refused")
        return {"answer": "done", "said": said.say("answer.done_action", action=result.label)}


def _said(console: WebConsole, body: dict[str, Any]) -> Words:
    """The words of the page's language (sent with each action), else the table's."""
    lang = body.get("lang")
    return words(lang) if lang in LANGUAGES else console.words


def refusal_of(effects: list[Any], said: Words) -> str | None:
    """Why the table refused the step whose effects these are, in the table's language (None: taken)."""
    for effect in effects:
        if isinstance(effect, Alert) and effect.key == "referee.refused":
            return said.reason(str(effect.params.get("why", "")))
        if isinstance(effect, Alert) and effect.key == "undo.nothing":
            return said.say("answer.nothing_to_undo")
        if isinstance(effect, Say) and effect.key == "table.not_saved":
            return said.say("answer.not_saved")
    return None


def _send(console: WebConsole, link: RemoteLink, event: Referee, label: str) -> Sent:
    """Send a referee action and return what its answer will be."""
    reply = console.expect(lambda step: step == event)
    link.submit(event)
    return Sent(label, reply)


# -- the actions, each checked here before the table sees it (a clear sentence for the page) -----------

Action = Callable[[WebConsole, RemoteLink, dict[str, Any]], dict[str, Any] | Sent | None]


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError(f'"{name}" must be a non-empty string')
    return value


def _undo(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> Sent:
    """Undo the last accepted event; `at` is the count the page's question named (the table refuses it when
    it moved on since, whoever sent first)."""
    at = body.get("at")
    if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 1):
        raise ValueError('"at" must be the undo count the snapshot gave')
    view = link.view()
    if not view.undo_at:
        raise NotNow("answer.nothing_to_undo")
    if at is not None and at != view.undo_at:
        raise NotNow("answer.moved_on")
    return _send(console, link, Referee("undo", {"at": at or view.undo_at}), _said(console, body).say("action.undo"))


def _end(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> Sent:
    if link.view().over:
        raise NotNow("answer.already_over")
    return _send(console, link, Referee("end"), _said(console, body).say("action.end"))


def _game_action(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> Sent:
    """One of the game's own referee actions, its parameters checked as the terminal's pickers offer them."""
    view = link.view()
    info = get_info(view.game)
    name = _text(body, "action")
    action = next((a for a in info.referee_actions if a.action == name), None)
    if action is None:
        known = ", ".join(a.action for a in info.referee_actions) or "none"
        raise ValueError(f"{info.title('en')} has no referee action {name!r} (its actions: {known})")
    given = body.get("params") or {}
    if not isinstance(given, dict):
        raise ValueError('"params" must be an object')
    params: dict[str, Any] = {}
    for spec in action.params:
        key, _, choices = spec.partition("=")
        value = given.get(key)
        if key == "seat":
            seats = info.seat_count(view.setup)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= seats:
                raise ValueError(f"{action.label}: seat must be 1 to {seats}")
        elif key == "piece":
            if value not in info.pieces:
                raise ValueError(f"{action.label}: {value!r} is not a piece id of {info.title('en')}")
        elif value not in [c for c in choices.split("|") if c]:
            raise ValueError(f"{action.label}: {key} must be one of {choices.replace('|', ', ')}")
        params[key] = value
    label = _said(console, body).get(f"actions.{info.id}.{action.action}", action.label)
    return _send(console, link, Referee(action.action, params), label)


def _move(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> Sent:
    view = link.view()
    info = get_info(view.game)
    piece, where = _text(body, "piece").strip().lower(), _text(body, "to")
    if piece not in info.pieces:
        raise ValueError(f"{piece!r} is not a piece id of {info.title('en')}")
    destinations = [hand(seat) for seat in range(1, info.seat_count(view.setup) + 1)] + [BASKET]
    if where not in destinations:
        raise ValueError(f"a piece can be moved to {', '.join(destinations)}, not {where!r}")
    return _send(console, link, Referee("move", {"piece": piece, "to": where}), _said(console, body).say("action.move"))


def _pause(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> None:
    if not isinstance(body.get("paused"), bool):
        raise ValueError('"paused" must be true or false')
    link.pause(body["paused"])


def _new_game(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> dict[str, Any]:
    setup = body.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("game"), str):
        raise ValueError('"setup" must be the set-up keys with the game, e.g. {"game": "nimmt", "players": 4}')
    try:
        get_info(setup["game"])
    except UnknownGame as exc:
        raise ValueError(str(exc)) from None
    return {"setup": link.new_game(setup)}


def _level(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> None:
    output = _text(body, "output")
    volume, muted = body.get("volume"), body.get("muted")
    if output not in link.facts.outputs:
        raise ValueError(f"no output {output!r} (outputs: {', '.join(link.facts.outputs)})")
    if not isinstance(volume, int | float) or isinstance(volume, bool) or not 0 <= volume <= 1 \
            or not isinstance(muted, bool):
        raise ValueError('"volume" must be a number from 0 to 1 and "muted" true or false')
    link.set_level(output, float(volume), muted)
    _redraw(console)


def _tap(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> dict[str, Any]:
    """The virtual table: a tag on a simulated reader (hub, deck, loop, journal, as hardware would)."""
    reader, tag = _text(body, "reader"), _text(body, "tag").strip().lower()
    if reader not in link.facts.sim_readers:
        raise ValueError(f"{reader!r} is not a simulated reader of this table "
                         f"({', '.join(link.facts.sim_readers) or 'it has none'})")
    view = link.view()
    info = get_info(view.game)
    if tag == BASKET:
        basket = basket_of(info, view.report)
        if not basket:
            raise NotNow("answer.basket_empty")
        tag = console.rng.choice(basket)  # not said back: the piece drawn blind stays unknown
    elif not info.is_known_id(tag):
        raise ValueError(f"{tag!r} is not a piece or control id of {info.title('en')}")
    link.tap(reader, tag)
    return {}


def _tap_for(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> Sent:
    """A tap on a seat's behalf, straight on the loop's queue (journaled like a player's tap)."""
    reader, tag = _text(body, "reader"), _text(body, "tag").strip().lower()
    view = link.view()
    info = get_info(view.game)
    if reader not in info.readers(view.setup):
        raise ValueError(f"{info.title('en')} uses the readers {', '.join(info.readers(view.setup))}, "
                         f"not {reader!r}")
    if not info.is_known_id(tag):
        raise ValueError(f"{tag!r} is not a piece or control id of {info.title('en')}")
    reply = console.expect(lambda event: isinstance(event, Scan) and event.reader == reader and event.piece == tag)
    link.submit_tap(reader, tag)
    return Sent(_said(console, body).say("action.tap_for"), reply)


def _repeat(console: WebConsole, link: RemoteLink, body: dict[str, Any]) -> None:
    feed = console.feed
    if feed is None or not feed.repeat_public(link.announce):
        raise NotNow("answer.nothing_said")


def _redraw(console: WebConsole) -> None:
    """A change made here that the table does not push back as a step (a volume): drawn at once."""
    if console._loop is not None:
        console._loop.call_soon_threadsafe(console.changed)


ACTIONS: dict[str, Action] = {
    "undo": _undo, "end": _end, "referee": _game_action, "move": _move, "pause": _pause, "new_game": _new_game,
    "level": _level, "tap": _tap, "tap_for": _tap_for, "repeat": _repeat,
}


# -- the app ----------------------------------------------------------------------------------------------


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("console.js", "console.css"):
        digest.update((STATIC_DIR / name).read_bytes())
    return digest.hexdigest()[:12]


def _same_origin(request: Request) -> bool:
    """The request comes from this server's own page (a POST from any other site's page is refused)."""
    origin = request.headers.get("origin")
    host = request.headers.get("host")
    return bool(origin and host) and origin in (f"http://{host}", f"https://{host}")


class Stream(StreamingResponse):
    """A page's event stream holding one of the console's MAX_STREAMS slots, taken before the answer starts
    and given back however it ends (a client gone before its first byte included): the cap is exact."""

    def __init__(self, console: WebConsole, content: AsyncIterator[str], headers: dict[str, str]) -> None:
        super().__init__(content, media_type="text/event-stream", headers=headers)
        self.console = console

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.console.streams -= 1


async def _json_body(request: Request) -> dict[str, Any]:
    if not request.headers.get("content-type", "").startswith("application/json"):
        raise Refused(415, "send the request as application/json")
    try:
        raw = await read_body(request, MAX_BODY, BODY_WITHIN, "console")
    except BodyRefused as exc:
        raise Refused(exc.status, str(exc)) from None
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "the request's body is not JSON") from None
    except RecursionError:  # nested deeper than the parser goes: not a body this console ever sends
        raise Refused(400, "the request's body is nested too deeply") from None
    if not isinstance(data, dict):
        raise Refused(400, "the request's body must be a JSON object")
    return data


def _login_cookie(response: Response, evening: Evening) -> Response:
    response.set_cookie(COOKIE, evening.cookie, max_age=evening.seconds_left(), httponly=True, samesite="strict",
                        path="/")
    return response


def create_app(socket: Path, evening: Evening | Access, *, records: str | Path | None = None,
               language: str = "ja") -> Starlette:
    """The web console for the table whose control socket is `socket`; `evening` an `Access` that renews
    its code (`kikimimi play --web`, `console --web`), or one fixed evening."""
    access = evening if isinstance(evening, Access) else Access(None, evening)
    console = WebConsole(socket, access, records, language)
    page_template = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    # The page's own words in both languages (the switch needs no request); "</" escaped: it sits in the page.
    page_words = json.dumps({lang: words(lang).section("page") for lang in LANGUAGES},
                            ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    version = _fingerprint()

    def admitted(request: Request) -> bool:
        return access.admits(request.cookies.get(COOKIE))

    def guarded(handler: Callable[[Request], Awaitable[Response]], *, post: bool = False,
                auth: bool = True) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                if post and not _same_origin(request):
                    raise Refused(403, "refused: the request does not come from this console's own page")
                if auth and not admitted(request):
                    raise Refused(401, words(console.language).say("page.login_needed"))
                return await handler(request)
            except Refused as exc:
                headers = {"Cache-Control": "no-store"}
                if exc.status in (408, 413):  # a body refused part-way is not read to its end
                    headers["Connection"] = "close"
                answer = {"error": str(exc), **({"answer": exc.answer} if exc.answer else {})}
                return JSONResponse(answer, status_code=exc.status, headers=headers)
        return endpoint

    def try_code(request: Request, code: str) -> str:
        """"ok", or why not: "locked" (this client guessed too often), "expired", "wrong" (counted)."""
        client = request.client.host if request.client else "?"
        if console.guesses.wait(client):
            return "locked"
        verdict = access.check(code[:40])
        if verdict == "wrong":
            console.guesses.wrong(client)
            log.warning("web console: a wrong code from %s", client)
        elif verdict == "expired":
            log.warning("web console: an expired code from %s", client)
        else:
            log.info("web console: a page logged in from %s", client)
        return verdict

    def why_not(request: Request, verdict: str, lang: Any) -> str:
        said = words(lang if lang in LANGUAGES else console.language)
        wait = console.guesses.wait(request.client.host if request.client else "?")
        return said.say(f"page.login_{verdict}", seconds=wait)

    async def page(request: Request) -> Response:
        code = request.query_params.get("code")
        if code is not None:  # the QR code's link: the cookie, then the page without the code in its address
            verdict = try_code(request, code)
            if verdict == "ok":
                return _login_cookie(RedirectResponse("/", status_code=303), access.current())
            wait = console.guesses.wait(request.client.host if request.client else "?")
            return RedirectResponse(f"/?login={verdict}&wait={wait}", status_code=303)  # the page says why
        lang = console.language if console.language in LANGUAGES else "ja"
        text = page_template.replace("{{lang}}", lang).replace("{{version}}", version).replace("{{words}}", page_words)
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})

    async def session(request: Request) -> Response:
        return JSONResponse({"lang": console.language, "admitted": admitted(request)},
                            headers={"Cache-Control": "no-store"})

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)  # the browser asks for one; the page has none (nothing to load)

    async def login(request: Request) -> Response:
        body = await _json_body(request)
        verdict = try_code(request, str(body.get("code", "")))
        if verdict == "ok":
            return _login_cookie(JSONResponse({"ok": True}), access.current())
        message = why_not(request, verdict, body.get("lang"))
        return JSONResponse({"error": message, "why": verdict}, status_code=429 if verdict == "locked" else 401,
                            headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        if console.streams >= MAX_STREAMS:
            raise Refused(503, f"already {MAX_STREAMS} pages follow this table; close one")
        console.streams += 1  # taken now (no await before the answer starts); `Stream` gives it back
        reveal = request.query_params.get("reveal") == "1"
        lang = request.query_params.get("lang")
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Stream(console, console.stream(reveal, lang, request.cookies.get(COOKIE)), headers)

    async def act(request: Request) -> Response:
        body = await _json_body(request)
        result = await console.act(body)
        log.info("web console: %s from %s", body.get("do"), request.client.host if request.client else "?")
        return JSONResponse({"ok": True, **result}, headers={"Cache-Control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(console.keep_attached())
        try:
            yield
        finally:
            console.close_streams()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/api/session", session, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/api/login", guarded(login, post=True, auth=False), methods=["POST"]),
        Route("/api/events", guarded(events), methods=["GET"]),
        Route("/api/act", guarded(act, post=True), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = SecuredStarlette(routes=routes, lifespan=lifespan, headers=SECURITY_HEADERS)
    app.state.console = console  # the server ends its streams at shutdown
    app.state.access = access  # who starts the server says each renewed code where the Priest reads it
    return app
