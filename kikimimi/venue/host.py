"""The meeting host: the venue's API over the records store, live standings over Server-Sent Events.

Tables join a meeting, send their state every few seconds and report each game as it ends
(`kikimimi.venue.client`); the venue's TV follows `/api/meetings/{id}/events` (the page is
`kikimimi.venue.page`). The contract is in docs/meetings.md.

Threads and the store: every store call runs on a small pool of worker threads, each owning its own
`RecordStore` (a store's connection belongs to the thread that made it). SQLite takes one writer at a
time anyway, so its pool has one thread; PostgreSQL gets a few. The event loop never touches the store.

Live updates: a change (a result, a join, a table's visible state, a table falling silent, the meeting
finishing) marks the meeting dirty; one task per meeting rebuilds the snapshot and wakes every SSE
stream. Changes that arrive while a snapshot is being built are folded into the next one, so a burst of
results costs one rebuild, not one each. Ranks and peerage change only when a meeting finishes (only
finished meetings count), so they are read once per meeting status, not at every result.

Results are group-committed: each meeting has one writer task that takes every result waiting and
records them in one transaction (`store.games.record_many`: the meeting locked once, one fsync'd commit),
then answers each request. One result at a time, each holding the meeting through its own commit, the
host took about 44 a second flat out; a refused result is refused alone, and no table hears "recorded"
before the commit.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from kikimimi.games.base import Outcome
from kikimimi.games.registry import get_info
from kikimimi.records.kinds import ladder
from kikimimi.records.ontable import meeting_setup
from kikimimi.records.results import ResultError, game_details, results_from_outcome
from kikimimi.records.standings import standings
from kikimimi.records.store import MAX_ID, GameItem, Recorded, RecordError, RecordStore, check_name
from kikimimi.serving import SecuredStarlette
from kikimimi.venue.serving import (
    MAX_STREAMS,
    MAX_STREAMS_PER_CLIENT,
    SECURITY_HEADERS,
    BodyRefused,
    read_body,
)

log = logging.getLogger(__name__)

CONNECTED_SECONDS = 15.0  # a table that sent no state for longer is shown as lost
KEEP_ALIVE_SECONDS = 15.0
# Snapshots are rebuilt at most this often: in a burst of results the host spends its time recording them,
# not redrawing standings after each (the page is at most this much later; the target is 2 s).
REBUILD_SECONDS = 0.25
# A table's state is written to the store at most this often (the snapshot reads the host's memory; the
# store's copy only shows a restarted host where each table was): one write per result would double the
# store's work, since every result changes the table's round.
STATE_PERSIST_SECONDS = 10.0
# Results recorded in one transaction at most (a bound on how long one batch holds the meeting).
MAX_BATCH = 200
# A dropped stream reconnects after this long (the browser's default is about 3 s).
SSE_RETRY_MS = 1000
HEALTHY = "ok"

StoreFactory = Callable[[], RecordStore]
T = TypeVar("T")


class ApiError(Exception):
    """A request the host refuses: an HTTP status and one clear sentence for the table's operator."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


FINISH_RETRY_SECONDS = 2.0  # a meeting whose settling failed (a full disk) is tried again this often


def store_failed(exc: BaseException) -> ApiError | None:
    """A records database that cannot write for now (a full disk; a locked file or a lost server) as a 503 with
    one sentence: the table keeps the result and sends it again. None for any other failure (a fault of ours,
    which stays a 500 with its traceback in the log)."""
    from sqlalchemy.exc import OperationalError

    if not isinstance(exc, OperationalError):
        return None
    reason = (str(exc.orig).strip().splitlines() or ["unknown"])[0]
    if "full" in reason.lower() or "no space left" in reason.lower():
        return ApiError(503, f"the records disk is full ({reason}): nothing was written; free space on the host's "
                             "disk (a table keeps its results and sends them again)")
    return ApiError(503, f"the records database failed ({reason}): nothing was written; try again")


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class StorePool:
    """Store calls on worker threads that each own a store (made on first use by `factory`)."""

    def __init__(self, factory: StoreFactory, workers: int = 1) -> None:
        self.factory = factory
        self._local = threading.local()
        self._stores: list[RecordStore] = []
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="venue-store")

    def _store(self) -> RecordStore:
        store = getattr(self._local, "store", None)
        if store is None:
            store = self.factory()
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        return store

    async def run(self, work: Callable[[RecordStore], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, lambda: work(self._store()))

    def close(self) -> None:
        def close_mine() -> None:
            store = getattr(self._local, "store", None)
            if store is not None:
                store.close()
                self._local.store = None

        # Each store is closed on its own thread (sqlite3 wants that); then the pool goes.
        for future in [self._pool.submit(close_mine) for _ in range(self._pool._max_workers)]:
            with contextlib.suppress(Exception):
                future.result(timeout=5)
        self._pool.shutdown(wait=True)


@dataclass
class TableLive:
    """What the host knows of a table from its heartbeats (kept in memory; the store keeps the last one)."""

    round: int | None = None
    phase: str | None = None
    health: dict[str, Any] = field(default_factory=dict)
    game_id: str | None = None
    seen_at: float | None = None  # time.time() of the last state report
    persisted_at: float = 0.0
    connected: bool = False

    def visible(self) -> tuple[Any, ...]:
        """What the snapshot shows: a change here is a change for the page."""
        return (self.round, self.phase, health_level(self.health, True), self.game_id, self.connected)


DONE = "done"
NOT_JOINED = "not_joined"


def health_level(health: Mapping[str, Any], connected: bool) -> str:
    """`lost` when the table is silent, `degraded` when a reader or an output is not ok, else `ok`."""
    if not connected:
        return "lost"
    for part in ("readers", "outputs"):
        statuses = health.get(part) or {}
        if isinstance(statuses, Mapping) and any(status != HEALTHY for status in statuses.values()):
            return "degraded"
    return HEALTHY


def table_health(health: Mapping[str, Any], connected: bool, *, joined: bool, done: bool) -> str:
    """What the page and `venue status` show for a table: `done` once it has played its games (it stops
    sending state then: silent is not lost), `not_joined` before a controller ever joined, else its
    health_level."""
    if done:
        return DONE
    if not joined and not connected:
        return NOT_JOINED
    return health_level(health, connected)


@dataclass
class MeetingFeed:
    """One meeting's latest snapshot and the streams waiting for the next one."""

    meeting_id: int
    version: int = 0
    snapshot: dict[str, Any] | None = None
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    tables: dict[int, TableLive] = field(default_factory=dict)
    table_count: int = 0  # the meeting's tables (fixed when it starts)
    game: str = ""  # the meeting's game (fixed when it starts): its ladder reads the tables' outcomes
    played: dict[int, int] = field(default_factory=dict)  # table -> games recorded
    due: dict[int, int | None] = field(default_factory=dict)  # table -> games it plays (None: unknown)
    changes: int = 0  # changes marked so far, and how many of them the current snapshot includes
    built_from: int = 0
    recorded: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # journal game id -> number, round
    titles: tuple[str, dict[str, Any]] | None = None  # (meeting status, player -> rank/peerage), see _titles
    task: asyncio.Task[None] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    # Results waiting for the meeting's writer: (table, the game, the request's future).
    waiting: list[tuple[int, GameItem, asyncio.Future[Recorded | RecordError]]] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.Task[None] | None = None

    def next_version(self) -> int:
        # Milliseconds since the epoch, always increasing: a restarted host never goes back to a version
        # the page has already seen (the page ignores an older one).
        self.version = max(self.version + 1, int(time.time() * 1000))
        return self.version


class Host:
    """The state behind the app: the store pool, each meeting's feed, the token."""

    def __init__(self, store_factory: StoreFactory, token: str | None, meeting_id: int | None,
                 workers: int = 1, contest_games: int | None = None,
                 connected_seconds: float = CONNECTED_SECONDS) -> None:
        self.stores = StorePool(store_factory, workers)
        # Snapshots are built on a store of their own: a rebuild never holds up a result being recorded.
        self.readers = StorePool(store_factory, 1)
        self.connected_seconds = connected_seconds
        self.token = token
        self.meeting_id = meeting_id
        self.contest_games = contest_games  # games per table of a contest (a trial knows its own)
        self.feeds: dict[int, MeetingFeed] = {}
        self.closing = asyncio.Event()
        self._finishing: set[asyncio.Task[None]] = set()
        self.streams = StreamCount()  # open standings streams, capped in all and per client address
        self._watcher: asyncio.Task[None] | None = None

    def games_due(self, due: int | None) -> int | None:
        """A table's games: its own (a trial's), else the host's --games (a contest), else unknown (None)."""
        return due if due is not None else self.contest_games

    def connected(self, live: TableLive, now: float) -> bool:
        """A table is shown connected while its last state is at most `connected_seconds` old."""
        return live.seen_at is not None and now - live.seen_at <= self.connected_seconds

    # -- meetings and their feeds -------------------------------------------------------------------

    async def resolve(self, ref: str) -> int:
        """A meeting id from the URL: a number, or `current` (the host's meeting, else the open one,
        else the latest)."""
        if ref != "current":
            number = _path_number(ref, "meeting", "use a meeting number or 'current'")
            if not 1 <= number <= MAX_ID:  # beyond the database's integers: no such meeting, not a 500
                raise ApiError(404, f"no meeting {number} (see `kikimimi meeting list`)")
            return number
        if self.meeting_id is not None:
            return self.meeting_id

        def current(store: RecordStore) -> int | None:
            found = store.meetings.current()
            if found is not None:
                return found.id
            every = store.meetings.all()
            return every[-1].id if every else None

        found = await self.stores.run(current)
        if found is None:
            raise ApiError(404, "no meeting in the records yet: start one with `kikimimi meeting start --tables N`")
        return found

    async def feed(self, meeting_id: int) -> MeetingFeed:
        feed = self.feeds.get(meeting_id)
        if feed is None:
            await self._check_meeting(meeting_id)
            feed = self.feeds.get(meeting_id)  # another request may have made it meanwhile
        if feed is None:
            feed = self.feeds[meeting_id] = MeetingFeed(meeting_id)
            feed.recorded = await self.stores.run(lambda s: _recorded(s, meeting_id))
            tables = await self.stores.run(lambda s: s.tables.all(meeting_id))
            feed.table_count = len(tables)
            feed.game = (await self.stores.run(lambda s: s.meetings.get(meeting_id))).game
            feed.played = {t.table: t.games_played for t in tables}
            feed.due = {t.table: self.games_due(t.games_due) for t in tables}
            # Where each table was as the store kept it (a restarted host): shown lost once that is old.
            feed.tables = {t.table: _live_from_store(t) for t in tables}
            feed.task = asyncio.create_task(self._rebuild_forever(feed))
            feed.writer = asyncio.create_task(self._write_forever(feed))
            feed.dirty.set()
        await feed.ready.wait()
        return feed

    async def _check_meeting(self, meeting_id: int) -> None:
        try:
            await self.stores.run(lambda s: s.meetings.get(meeting_id))
        except RecordError as exc:
            raise ApiError(404, str(exc)) from None

    async def _rebuild_forever(self, feed: MeetingFeed) -> None:
        last_build = 0.0
        while not self.closing.is_set():
            await feed.dirty.wait()
            wait = last_build + REBUILD_SECONDS - time.monotonic()
            if wait > 0:  # a burst: its changes gather into the next rebuild
                await asyncio.sleep(wait)
            last_build = time.monotonic()
            feed.dirty.clear()  # changes from now on make another rebuild
            including = feed.changes
            try:
                snapshot = await self.readers.run(lambda s: self._snapshot(s, feed))
            except Exception:  # the host keeps serving the last snapshot; the next change tries again
                log.exception("venue: could not build meeting %d's standings", feed.meeting_id)
                await asyncio.sleep(1.0)
                feed.dirty.set()  # try again
                continue
            snapshot["version"] = feed.next_version()
            async with feed.changed:
                feed.snapshot, feed.built_from = snapshot, including
                feed.changed.notify_all()
            feed.ready.set()

    def _snapshot(self, store: RecordStore, feed: MeetingFeed) -> dict[str, Any]:
        """The standings snapshot of docs/meetings.md (built on a store thread)."""
        info = store.meetings.get(feed.meeting_id)
        tables = store.tables.all(feed.meeting_id)
        alerts: list[str] = []  # games that cannot be read: left out, and said on the page and in the API
        games = store.games.in_meeting(feed.meeting_id, alerts)
        game = get_info(info.game)
        table_of = {name: t.table for t in tables for name in t.players}
        titles = self._titles(store, feed, info)
        due = self.games_due(info.games_due)
        now = time.time()
        rows = []
        for s in standings(games, info.players, ladder(info.game)):
            title = titles.get(s.player, {})
            rows.append({"position": s.position, "player": s.player, "table": table_of.get(s.player),
                         "games": s.games, "wins": s.wins, "points": s.score, "crashes": s.figures.get("crashes", 0),
                         "rank": title.get("rank"), "peerage": title.get("peerage")})
        table_rows = []
        for t in tables:
            live = feed.tables.get(t.table) or TableLive()
            connected = self.connected(live, now)
            table_due = self.games_due(t.games_due)
            health = table_health(live.health, connected, joined=t.controller is not None or live.seen_at is not None,
                                  done=table_due is not None and t.games_played >= table_due)
            table_rows.append({
                "table": t.table, "players": list(t.players), "games_played": t.games_played,
                "games_due": table_due,
                "round": live.round, "phase": live.phase, "game_id": live.game_id,
                "health": health, "connected": connected,
                "last_seen": t.last_seen if live.seen_at is None else _iso(live.seen_at),
                "controller": t.controller,
            })
        return {
            "version": feed.version, "updated_at": _now_iso(),
            "meeting": {"id": info.id, "label": info.label, "game": info.game,
                        "title": {"ja": game.title("ja"), "en": game.title("en")}, "kind": info.kind,
                        "status": info.status, "tables": len(tables), "games_due": due},
            "standings": rows,
            "tables": table_rows,
            "alerts": alerts,
        }

    def _titles(self, store: RecordStore, feed: MeetingFeed, info: Any) -> dict[str, Any]:
        if feed.titles is not None and feed.titles[0] == info.status:
            return feed.titles[1]
        titles = player_titles(store, info.players, info.game)
        feed.titles = (info.status, titles)
        return titles

    async def settled(self, feed: MeetingFeed, timeout: float = 2.0) -> None:
        """Wait for the snapshot that includes every change made so far (a GET right after a result sees it)."""
        wanted = feed.changes
        async with feed.changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(feed.changed.wait_for(lambda: feed.built_from >= wanted), timeout)

    def mark(self, feed: MeetingFeed) -> None:
        feed.changes += 1
        feed.dirty.set()

    async def watch_silence(self) -> None:
        """A table whose heartbeats stop is shown lost after `connected_seconds`, without any request."""
        while not self.closing.is_set():
            now = time.time()
            for feed in list(self.feeds.values()):
                for live in feed.tables.values():
                    connected = self.connected(live, now)
                    if connected != live.connected:
                        live.connected = connected
                        self.mark(feed)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.closing.wait(), timeout=1.0)

    # -- the tables' requests ---------------------------------------------------------------------

    def authorize(self, request: Request, meeting_id: int, table: int) -> None:
        """A table's call needs that table's credential (`table_credential`), or the organiser's token
        (the organiser may act for any table); another table's credential is refused (403)."""
        if self.token is None:
            return
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        given = given.strip()
        if scheme.lower() != "bearer" or not given:
            raise ApiError(401, "this host needs a token: give the table's credential the host printed "
                                "(or the organiser's token) with --token")
        if hmac.compare_digest(given.encode(), self.token.encode()) \
                or hmac.compare_digest(given.encode(), table_credential(self.token, meeting_id, table).encode()):
            return
        owner = _credential_table(given)
        if owner is not None and owner != table \
                and hmac.compare_digest(given.encode(), table_credential(self.token, meeting_id, owner).encode()):
            raise ApiError(403, f"this is table {owner}'s credential: table {owner} may join and report its own "
                                f"games only, not table {table}'s (check --table)")
        raise ApiError(401, f"wrong token for table {table} of meeting {meeting_id}: give --token the credential "
                            "the host printed for this table (or the organiser's token)")

    async def join(self, meeting_id: int, table: int, body: Mapping[str, Any]) -> dict[str, Any]:
        controller = body.get("controller")
        if not isinstance(controller, str) or not controller.strip() or len(controller) > 80:
            raise ApiError(400, 'join needs {"controller": "<this table\'s name>"} (up to 80 characters)')
        feed = await self.feed(meeting_id)
        _check_table(feed, table)

        def join(store: RecordStore) -> dict[str, Any]:
            info = store.meetings.get(meeting_id)
            if info.status != "open":
                raise ApiError(409, f"{info.describe()} is {info.status}; a table can join an open meeting only")
            try:
                joined = store.tables.join(meeting_id, table, controller.strip())
            except RecordError as exc:  # a controller name with a control or bidi character
                raise ApiError(400, str(exc)) from None
            return {"meeting": meeting_id, "table": table, "players": list(joined.players), "game": info.game,
                    "kind": info.kind,
                    # The table's own credential: a table joined with the organiser's token uses it from now on.
                    "credential": table_credential(self.token, meeting_id, table) if self.token else None,
                    "games_due": self.games_due(joined.games_due),
                    "games_played": joined.games_played, "setup": meeting_setup(info.game)}

        answer = await self.stores.run(join)
        self.mark(feed)
        return answer

    async def state(self, meeting_id: int, table: int, body: Mapping[str, Any]) -> dict[str, Any]:
        round_no, phase, health, game_id = _parse_state(body)
        feed = await self.feed(meeting_id)
        _check_table(feed, table)
        live = feed.tables.setdefault(table, TableLive())
        before = live.visible()
        live.round, live.phase, live.health, live.game_id = round_no, phase, dict(health or {}), game_id
        live.seen_at, live.connected = time.time(), True
        changed = live.visible() != before
        if live.seen_at - live.persisted_at >= STATE_PERSIST_SECONDS:
            live.persisted_at = live.seen_at
            state = {"round": round_no, "phase": phase, "health": live.health, "game_id": game_id}
            await self.stores.run(lambda s: s.tables.report_state(meeting_id, table, state))
        if changed:
            self.mark(feed)
        return {"ok": True}

    async def result(self, meeting_id: int, table: int, body: Mapping[str, Any]) -> dict[str, Any]:
        journal_id, seat_players, outcome = _parse_result(body)
        feed = await self.feed(meeting_id)
        _check_table(feed, table)
        known = feed.recorded.get(journal_id)
        if known is not None:
            return {"number": known[0], "round": known[1], "duplicate": True}

        try:
            rules = ladder(feed.game)
            results = results_from_outcome(seat_players, outcome, rules)
        except (ResultError, KeyError, IndexError) as exc:
            raise ApiError(400, f"table {table}'s result for game {journal_id} does not read: {exc}") from None
        item = GameItem(results, journal_id, outcome.reason, game_details(outcome, rules), table)
        done: asyncio.Future[Recorded | RecordError] = asyncio.get_running_loop().create_future()
        feed.waiting.append((table, item, done))
        feed.wake.set()
        found = await done  # set once the batch holding it is committed (or refused)
        if isinstance(found, RecordError):
            raise ApiError(409, f"table {table}, game {journal_id}: {found}")
        return {"number": found.number, "round": found.round, "duplicate": found.duplicate}

    async def _write_forever(self, feed: MeetingFeed) -> None:
        """The meeting's writer: every result waiting, recorded in one transaction, then answered."""
        batch: list[tuple[int, GameItem, asyncio.Future[Recorded | RecordError]]] = []
        try:
            while not self.closing.is_set():
                await feed.wake.wait()
                feed.wake.clear()
                while feed.waiting:
                    batch, feed.waiting = feed.waiting[:MAX_BATCH], feed.waiting[MAX_BATCH:]
                    try:
                        await self._write_batch(feed, batch)
                    except Exception as exc:  # the writer goes on: the next results may well be recorded
                        log.exception("venue: meeting %d's writer failed", feed.meeting_id)
                        for _, _, done in batch:
                            if not done.done():
                                done.set_exception(exc)
                    batch = []
        finally:  # closing: nobody waits for an answer that will not come (the table reports again)
            for _, _, done in batch + feed.waiting:
                if not done.done():
                    done.set_exception(ApiError(503, "the host is shutting down; report again"))

    async def _write_batch(self, feed: MeetingFeed,
                           batch: list[tuple[int, GameItem, asyncio.Future[Recorded | RecordError]]]) -> None:
        items = [item for _, item, _ in batch]
        try:
            found = await self.stores.run(lambda s: s.games.record_many(feed.meeting_id, items))
        except Exception as exc:  # the database failed: nothing of the batch is recorded, each request says so
            problem = store_failed(exc)
            if problem is None:
                log.exception("venue: could not record %d result(s) of meeting %d", len(items), feed.meeting_id)
            else:  # a full disk is said in one line, not a traceback per result
                log.error("venue: could not record %d result(s) of meeting %d: %s", len(items), feed.meeting_id,
                          problem)
            for _, _, done in batch:
                if not done.done():
                    done.set_exception(problem or exc)
            return
        recorded = False
        for (table, item, _), outcome in zip(batch, found, strict=True):
            if isinstance(outcome, Recorded) and item.journal_game_id is not None:
                feed.recorded[item.journal_game_id] = (outcome.number, outcome.round)
                if not outcome.duplicate:
                    recorded = True
                    feed.played[table] = max(feed.played.get(table, 0), outcome.round)
        if not recorded:
            self._answer(batch, found)
            return
        self.mark(feed)  # the page shows the games while the meeting is settled below
        due = [feed.due.get(t) for t in range(1, feed.table_count + 1)]
        complete = all(d is not None and feed.played.get(t, 0) >= d for t, d in enumerate(due, start=1))
        if complete and not await self._try_finish(feed):  # a full disk: the results stand; settle it later
            task = asyncio.create_task(self._finish_later(feed))
            self._finishing.add(task)  # held until done: the loop keeps only a weak reference
            task.add_done_callback(self._finishing.discard)
        self._answer(batch, found)

    async def _try_finish(self, feed: MeetingFeed) -> bool:
        """Settle a meeting whose tables have all played their games; False when the records could not be
        written (said in the log). Before the last answer: a table hearing its last game recorded finds the
        meeting settled."""
        meeting_id = feed.meeting_id
        try:
            if await self.stores.run(lambda s: self._finish_if_complete(s, meeting_id, s.tables.all(meeting_id))):
                self.mark(feed)
            return True
        except Exception as exc:
            problem = store_failed(exc)
            if problem is None:
                log.exception("venue: could not finish meeting %d", meeting_id)
            else:
                log.error("venue: could not finish meeting %d yet: %s", meeting_id, problem)
            return False

    async def _finish_later(self, feed: MeetingFeed) -> None:
        """Try again every few seconds: the last result may already be in, so no later result would settle it."""
        while not self.closing.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.closing.wait(), timeout=FINISH_RETRY_SECONDS)
                return  # the host is closing
            if await self._try_finish(feed):
                log.warning("venue: meeting %d settled, the records can be written again", feed.meeting_id)
                return

    @staticmethod
    def _answer(batch: list[tuple[int, GameItem, asyncio.Future[Recorded | RecordError]]],
                found: list[Recorded | RecordError]) -> None:
        for (_, _, done), outcome in zip(batch, found, strict=True):
            if not done.done():  # a request whose client went away was cancelled
                done.set_result(outcome)

    def _finish_if_complete(self, store: RecordStore, meeting_id: int, tables: list[Any]) -> bool:
        """Settle the meeting once every table has played its games (a trial's, or the host's --games for
        a contest). A contest level at the top stays open: the referee names the winner."""
        due = [self.games_due(t.games_due) for t in tables]
        if any(d is None for d in due) or any(t.games_played < d for t, d in zip(tables, due, strict=True)) \
                or store.meetings.get(meeting_id).status != "open":
            return False
        try:
            changes = store.meetings.finish(meeting_id)
        except RecordError as exc:
            log.warning("venue: meeting %d has all its games but stays open: %s", meeting_id, exc)
            return False
        log.info("venue: meeting %d finished (%d rank or peerage changes)", meeting_id, len(changes))
        return True

    async def events(self, meeting_id: int, request: Request) -> AsyncIterator[str]:
        feed = await self.feed(meeting_id)
        sent = -1
        yield f"retry: {SSE_RETRY_MS}\n\n"
        while not self.closing.is_set():
            quiet = False
            async with feed.changed:  # checked under the lock the rebuild publishes under: no change missed
                if feed.snapshot is None or feed.snapshot["version"] == sent:
                    try:
                        await asyncio.wait_for(feed.changed.wait(), timeout=KEEP_ALIVE_SECONDS)
                    except TimeoutError:
                        quiet = True
                snapshot = feed.snapshot
            if quiet:
                if await request.is_disconnected():
                    return
                yield ": keep-alive\n\n"
            elif snapshot is not None and snapshot["version"] != sent:
                sent = snapshot["version"]
                yield f"event: snapshot\ndata: {json.dumps(snapshot, ensure_ascii=False)}\n\n"

    async def close(self) -> None:
        self.closing.set()
        for feed in self.feeds.values():
            if feed.task is not None:
                feed.task.cancel()
            if feed.writer is not None:
                feed.writer.cancel()
            async with feed.changed:
                feed.changed.notify_all()
        await asyncio.get_running_loop().run_in_executor(None, self.stores.close)
        await asyncio.get_running_loop().run_in_executor(None, self.readers.close)


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _live_from_store(table: Any) -> TableLive:
    """A table not heard from since this host started: its last state as the store kept it."""
    state = table.state or {}
    seen = None
    if table.last_seen:
        with contextlib.suppress(ValueError):
            seen = datetime.fromisoformat(table.last_seen).timestamp()
    live = TableLive(state.get("round"), state.get("phase"), dict(state.get("health") or {}), state.get("game_id"),
                     seen)
    live.connected = seen is not None and time.time() - seen <= CONNECTED_SECONDS
    return live


def table_credential(token: str, meeting_id: int, table: int) -> str:
    """Table `table`'s credential for meeting `meeting_id`, derived from the organiser's token: the host
    checks it without keeping it anywhere, a restarted host with the same --token issues the same ones,
    and one table's credential opens no other table nor another meeting."""
    digest = hmac.new(token.encode(), f"kikimimi venue table {meeting_id} {table}".encode(), hashlib.sha256)
    return f"t{table}-" + base64.urlsafe_b64encode(digest.digest()[:18]).decode()


def _credential_table(given: str) -> int | None:
    """The table a credential names (`t3-...`), or None."""
    head, _, _ = given.partition("-")
    return int(head[1:]) if head[:1] == "t" and head[1:].isdigit() and len(head) <= 6 else None


def _path_number(text: str, what: str, hint: str) -> int:
    """A number from the URL's path (up to 20 digits, a sign allowed), or a 404 naming what was given."""
    try:
        if len(text) > 21:
            raise ValueError
        return int(text)
    except ValueError:
        shown = text if len(text) <= 30 else text[:30] + "..."
        raise ApiError(404, f"no {what} {shown!r}: {hint}") from None


def _check_table(feed: MeetingFeed, table: int) -> None:
    if not 1 <= table <= feed.table_count:
        raise ApiError(404, f"meeting {feed.meeting_id} has tables 1 to {feed.table_count}, not {table}: "
                            "check --table")


def _recorded(store: RecordStore, meeting_id: int) -> dict[str, tuple[int, int | None]]:
    """Every game of the meeting that came from a table's journal: journal game id -> (number, round).
    A game's table is its players' table (each player sits at one table for the whole meeting), its
    round its place among that table's games in the order recorded."""
    table_of = {name: t.table for t in store.tables.all(meeting_id) for name in t.players}
    rounds: dict[int | None, int] = {}
    out: dict[str, tuple[int, int | None]] = {}
    for g in store.games.in_meeting(meeting_id):  # in the order recorded
        table = table_of.get(g.results[0].player) if g.results else None
        rounds[table] = rounds.get(table, 0) + 1
        if g.journal_game_id:
            out[g.journal_game_id] = (g.number, rounds[table])
    return out


MAX_STATE_TEXT = 64  # a phase, a reader's role, a status: short words
MAX_STATE_PARTS = 64  # readers (or outputs) a table reports


def _parse_state(body: Mapping[str, Any]) -> tuple[int | None, str | None, dict[str, Any], str | None]:
    """A table's state, checked: what the page and `venue status` show must be what the table meant."""
    shape = 'state is {"round": int, "phase": str, "health": {"readers": {role: status}, ' \
            '"outputs": {name: status}, "unsent": int}, "game_id": str|null}'

    def short_text(value: Any, most: int = MAX_STATE_TEXT) -> bool:
        return isinstance(value, str) and len(value) <= most and value.isprintable()

    round_no, phase, health, game_id = body.get("round"), body.get("phase"), body.get("health"), body.get("game_id")
    if not (round_no is None or (type(round_no) is int and 0 <= round_no <= 100_000)):
        raise ApiError(400, f"{shape}: round must be a number from 0 to 100000")
    if not (phase is None or short_text(phase)):
        raise ApiError(400, f"{shape}: phase must be a word of up to {MAX_STATE_TEXT} characters")
    if not (game_id is None or short_text(game_id, 100)):
        raise ApiError(400, f"{shape}: game_id must be a journal game id (up to 100 characters)")
    health = {} if health is None else health
    if not isinstance(health, dict) or not set(health) <= {"readers", "outputs", "unsent"}:
        raise ApiError(400, f"{shape}: health holds readers, outputs and unsent only")
    for part in ("readers", "outputs"):
        statuses = health.get(part, {})
        if not isinstance(statuses, dict) or len(statuses) > MAX_STATE_PARTS \
                or not all(short_text(k) and short_text(v) for k, v in statuses.items()):
            raise ApiError(400, f"{shape}: health's {part} must map up to {MAX_STATE_PARTS} names to statuses "
                                f"(words of up to {MAX_STATE_TEXT} characters)")
    unsent = health.get("unsent", 0)
    if type(unsent) is not int or unsent < 0:
        raise ApiError(400, f"{shape}: health's unsent must be a count")
    return round_no, phase, health, game_id


def _parse_result(body: Mapping[str, Any]) -> tuple[str, dict[int, str], Outcome]:
    journal_id, seats, outcome = body.get("journal_game_id"), body.get("seat_players"), body.get("outcome")
    shape = 'a result is {"journal_game_id": str, "seat_players": {"1": name, ...}, "outcome": {...}}'
    if not isinstance(journal_id, str) or not journal_id.strip() or len(journal_id) > 100 \
            or not journal_id.isprintable():
        raise ApiError(400, f"{shape}: journal_game_id must be a journal game id (printable, up to 100 characters)")
    if not isinstance(seats, dict) or not seats or not all(isinstance(k, str) and k.isdigit() for k in seats):
        raise ApiError(400, f"{shape}: seat_players must map seat numbers to names")
    if not isinstance(outcome, dict):
        raise ApiError(400, f"{shape}: outcome is missing")
    try:
        seat_players = {int(seat): check_name(name) for seat, name in seats.items()}
        return journal_id, seat_players, Outcome.from_json(outcome)
    except (RecordError, TypeError, ValueError, AttributeError) as exc:
        raise ApiError(400, f"{shape}: {exc}") from None


def player_titles(store: RecordStore, players: Any, game: str) -> dict[str, dict[str, Any]]:
    """Each player's rank and peerage in ja and en (the ladder's titles, worded by the voice catalogs);
    {} for a game without a ladder. An unregistered player has no rank to show (None)."""
    if ladder(game) is None:
        return {}
    from kikimimi.voice.catalog import catalog

    worded = {lang: catalog(lang, get_info(game).catalog).values.get("title", {}) for lang in ("ja", "en")}

    def both(word: str) -> dict[str, str] | None:
        if not word:
            return None
        key = word.lower()
        return {lang: worded[lang].get(key, (word, ""))[0] for lang in ("ja", "en")}

    # The whole club's statuses, as the store keeps them between reads: after the first read only newly
    # finished meetings are read and replayed. One replay per player from their results (store.statuses)
    # cost about a second for a 30-table meeting's 90 players, held up the first snapshots and, after the
    # meeting finished, the snapshot showing its last games.
    every = store.ladder.by_name(game)
    out: dict[str, dict[str, Any]] = {}
    for name in players:
        status = every.get(name)
        if status is None:  # not in the club's list (cannot be: a meeting's players are registered)
            status = store.ladder.status(name, game)
        registered = getattr(status, "registered", True)
        out[status.name] = {"rank": both(status.rank_title) if registered else None,
                            "peerage": both(status.peerage_title)}
    return out


# -- the app --------------------------------------------------------------------------------------


class StreamCount:
    """Open standings streams, in all and by client address (one event loop: no lock)."""

    def __init__(self) -> None:
        self.by_address: Counter[str] = Counter()

    @property
    def total(self) -> int:
        return sum(self.by_address.values())

    def of(self, address: str) -> int:
        return self.by_address[address]

    async def counted(self, address: str, stream: AsyncIterator[str]) -> AsyncIterator[str]:
        self.by_address[address] += 1
        try:
            async for part in stream:
                yield part
        finally:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]


def _error(status: int, message: str) -> JSONResponse:
    # A body refused part-way is not read to its end: the connection closes instead of waiting for it.
    headers = {"Connection": "close"} if status in (408, 413) else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await read_body(request)
    except BodyRefused as exc:
        raise ApiError(exc.status, f"{request.url.path}: {exc}") from None
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, f"{request.url.path}: the body is not JSON") from None
    except RecursionError:  # nested deeper than the parser goes: no request of the API looks like it
        raise ApiError(400, f"{request.url.path}: the body's JSON is nested too deep") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"{request.url.path}: the body must be a JSON object")
    return data


def create_app(store_factory: StoreFactory, *, token: str | None, meeting_id: int | None,
               workers: int = 1, contest_games: int | None = None,
               connected_seconds: float = CONNECTED_SECONDS) -> Starlette:
    """The host's app: the JSON API and SSE stream of docs/meetings.md, plus the standings page's routes.

    `store_factory` makes a RecordStore (called once per worker thread); `workers`: store threads (1 for
    SQLite); `contest_games`: games per table when the meeting is a contest (a trial knows its own);
    `connected_seconds`: how long a table may be silent before it is shown lost."""
    host = Host(store_factory, token, meeting_id, workers, contest_games, connected_seconds)

    Handler = Callable[[Request, int], Awaitable[Response]]  # a request to one meeting

    def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                meeting = await host.resolve(request.path_params["meeting"])
                return await handler(request, meeting)
            except ApiError as exc:
                return _error(exc.status, str(exc))
            except Exception as exc:
                problem = store_failed(exc)
                if problem is None:
                    raise
                log.error("venue: %s %s: %s", request.method, request.url.path, problem)
                return _error(problem.status, f"{request.url.path}: {problem}")
        return endpoint

    async def snapshot(request: Request, meeting: int) -> Response:
        feed = await host.feed(meeting)
        await host.settled(feed)
        return JSONResponse(feed.snapshot)

    async def events(request: Request, meeting: int) -> Response:
        await host.feed(meeting)  # a 404 before the stream starts
        address = request.client.host if request.client else ""
        if host.streams.total >= MAX_STREAMS:
            raise ApiError(503, f"already {MAX_STREAMS} standings streams; try again later")
        if host.streams.of(address) >= MAX_STREAMS_PER_CLIENT:
            raise ApiError(503, f"already {MAX_STREAMS_PER_CLIENT} standings streams from {address}; close one")
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(host.streams.counted(address, host.events(meeting, request)),
                                 media_type="text/event-stream", headers=headers)

    def table_post(action: Callable[[int, int, Mapping[str, Any]], Awaitable[dict[str, Any]]]) -> Handler:
        async def handler(request: Request, meeting: int) -> Response:
            table = _path_number(request.path_params["table"], "table", "tables are numbered from 1")
            host.authorize(request, meeting, table)
            return JSONResponse(await action(meeting, table, await _body(request)))
        return handler

    routes: list[BaseRoute] = [
        Route("/api/meetings/{meeting}", api(snapshot), methods=["GET"]),
        Route("/api/meetings/{meeting}/events", api(events), methods=["GET"]),
        Route("/api/meetings/{meeting}/tables/{table}/join", api(table_post(host.join)),
              methods=["POST"]),
        Route("/api/meetings/{meeting}/tables/{table}/state", api(table_post(host.state)),
              methods=["POST"]),
        Route("/api/meetings/{meeting}/tables/{table}/results", api(table_post(host.result)),
              methods=["POST"]),
    ]
    try:
        from kikimimi.venue import page
    except ImportError:  # the page is another module; the API works without it
        log.warning("venue: the standings page is not available (kikimimi.venue.page)")
    else:
        routes += page.routes()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        host._watcher = asyncio.create_task(host.watch_silence())
        try:
            yield
        finally:
            await host.close()
            host._watcher.cancel()

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (no such route, a method not allowed) as the API's errors are."""
        status = getattr(exc, "status_code", 500)
        if not request.url.path.startswith("/api/"):
            return PlainTextResponse(f"{request.url.path}: {getattr(exc, 'detail', 'error')}\n", status_code=status)
        what = "no such API address" if status == 404 else str(getattr(exc, "detail", "refused"))
        return _error(status, f"{request.url.path}: {what} (see docs/meetings.md)")

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("venue: %s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, f"{request.url.path}: the host failed ({type(exc).__name__}); its log says more")

    app = SecuredStarlette(routes=routes, lifespan=lifespan, headers=SECURITY_HEADERS,
                           exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.host = host
    return app
