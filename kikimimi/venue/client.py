"""A table's link to the meeting host: join, the state heartbeat, and results that are never lost.

The outbox is derived from the table's journal, not kept beside it as a second copy of each result:
a meeting game is any game of the journal that ended with an outcome, of the meeting's game and set-up,
begun after the table first joined the meeting. The outbox file (`<journal>.venue.sqlite`, next to the
journal) keeps only what the journal cannot know: the meeting the table joined (players, set-up, when)
and which games the host acknowledged. So a game is reported even when the process dies between the
game's end and its report (the journal wrote the end first: WAL, synchronous FULL), and a game the host
acknowledged is never sent again; one the host recorded but whose answer was lost is sent again and
the host answers `duplicate` (it deduplicates by journal game id).
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from kikimimi.table.journal import Journal, JournaledGame, check_sqlite_file, private_file

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MOST = 10.0
HEARTBEAT_SECONDS = 2.0


class HostUnreachable(ConnectionError):
    """The host did not answer (down, restarting, the network): try again later, play on."""


class HostRefused(RuntimeError):
    """The host answered no (a wrong token, an unknown table, a result it cannot take): trying again
    will not help; the message is the host's own sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class HostLink:
    """The venue API from a table's side (docs/meetings.md). One httpx client; thread-safe calls."""

    def __init__(self, url: str, table: int, *, token: str | None = None, controller: str = "",
                 meeting: int | None = None, timeout: float = 30.0, local_address: str | None = None) -> None:
        """`local_address`: the address to connect from (a bench's simulated tables each take their own, as
        tables on a LAN have: the host caps connections per client address)."""
        self.url = url.rstrip("/")
        self.table = table
        self.meeting = meeting
        self.controller = controller or f"table-{table}"
        self.token = token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # A host that does not connect within 3 s is away; one that connected is busy, not gone: a result
        # given up on too early would be recorded and then sent again (deduplicated, but twice the work).
        transport = httpx.HTTPTransport(local_address=local_address) if local_address else None
        self._http = httpx.Client(base_url=self.url, headers=headers, timeout=httpx.Timeout(timeout, connect=3.0),
                                  transport=transport)

    def close(self) -> None:
        self._http.close()

    def _send(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
        try:
            response = self._http.request(method, path, json=body)
        except httpx.HTTPError as exc:  # refused, reset, timed out: the host is away
            raise HostUnreachable(f"the host at {self.url} does not answer ({type(exc).__name__})") from None
        if response.status_code >= 500:
            raise HostUnreachable(f"the host at {self.url} failed ({response.status_code}); it is retried")
        try:
            data = response.json()
        except ValueError:
            data = {}
        if response.status_code >= 400:
            message = data.get("error") if isinstance(data, dict) else None
            raise HostRefused(response.status_code, f"{self.url}{path}: {message or response.reason_phrase}")
        return data if isinstance(data, dict) else {}

    def meeting_id(self) -> int:
        """The meeting this table plays: --meeting, else the host's current meeting."""
        if self.meeting is None:
            self.meeting = int(self._send("GET", "/api/meetings/current")["meeting"]["id"])
        return self.meeting

    def _table_path(self, what: str) -> str:
        return f"/api/meetings/{self.meeting_id()}/tables/{self.table}/{what}"

    def use_credential(self, credential: str | None) -> None:
        """From now on, authenticate as the table's own credential (the host issued it at join)."""
        if credential and credential != self.token:
            self.token = credential
            self._http.headers["Authorization"] = f"Bearer {credential}"

    def join(self) -> dict[str, Any]:
        answer = self._send("POST", self._table_path("join"), {"controller": self.controller})
        credential = answer.get("credential")
        self.use_credential(credential if isinstance(credential, str) else None)
        return answer

    def send_state(self, state: Mapping[str, Any]) -> None:
        self._send("POST", self._table_path("state"), state)

    def report(self, journal_game_id: str, seat_players: Mapping[int, str],
               outcome: Mapping[str, Any]) -> dict[str, Any]:
        return self._send("POST", self._table_path("results"), {
            "journal_game_id": journal_game_id,
            "seat_players": {str(seat): name for seat, name in seat_players.items()},
            "outcome": dict(outcome)})


@dataclass(frozen=True)
class Assignment:
    """What the host told the table when it joined, kept so that a restarted table plays on offline."""

    meeting: int
    table: int
    players: tuple[str, ...]
    game: str
    kind: str
    games_due: int | None
    setup: dict[str, Any]
    joined_at: float  # time.time() when this table first joined the meeting (shown; the clock may lie)
    credential: str | None = None  # the table's own, issued by the host at join
    journal_games: int | None = None  # the journal's last game number at the first join: its games come after

    @property
    def seat_players(self) -> dict[int, str]:
        return {seat: name for seat, name in enumerate(self.players, start=1)}

    def is_meeting_game(self, record: JournaledGame) -> bool:
        """A game of the journal that belongs to this meeting: the meeting's game and set-up, begun after
        the table joined (an abandoned game has no outcome and never counts)."""
        after_join = (record.number > self.journal_games if self.journal_games is not None
                      else record.started_at >= self.joined_at)  # an outbox from before numbers were kept
        return (record.game == self.game and after_join
                and all(record.setup.get(key) == value for key, value in self.setup.items() if key != "game"))


OUTBOX_TABLES = frozenset({"assignments", "acked"})


def outbox_path(journal: Path) -> Path:
    return Path(f"{journal}.venue.sqlite")


class Outbox:
    """The table's meeting and the host's acknowledgements, in SQLite (WAL, synchronous FULL)."""

    def __init__(self, journal: Path) -> None:
        self.path = outbox_path(journal)
        self.journal_path = Path(journal)
        check_sqlite_file(self.path, OUTBOX_TABLES, "venue outbox")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        private_file(self.path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("""CREATE TABLE IF NOT EXISTS assignments (
            meeting INTEGER NOT NULL, table_no INTEGER NOT NULL, host TEXT NOT NULL,
            joined_at REAL NOT NULL, data TEXT NOT NULL, PRIMARY KEY (meeting, table_no))""")
        self._db.execute("""CREATE TABLE IF NOT EXISTS acked (
            meeting INTEGER NOT NULL, journal_game_id TEXT NOT NULL, number INTEGER, round INTEGER,
            acked_at REAL NOT NULL, refused TEXT, PRIMARY KEY (meeting, journal_game_id))""")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(assignments)")}
        if "journal_games" not in columns:  # the join's place in the journal, by number (not by the clock)
            self._db.execute("ALTER TABLE assignments ADD COLUMN journal_games INTEGER")

    def close(self) -> None:
        self._db.close()

    def remember(self, host: str, answer: Mapping[str, Any]) -> Assignment:
        """The host's join answer, kept; a table joining its meeting again keeps its first join time."""
        meeting, table = int(answer["meeting"]), int(answer["table"])
        with self._lock:
            row = self._db.execute("SELECT joined_at, journal_games FROM assignments WHERE meeting = ? AND "
                                   "table_no = ?", (meeting, table)).fetchone()
            joined_at = float(row[0]) if row else time.time()
            games = row[1] if row else _last_game_number(self.journal_path)
            self._db.execute("INSERT OR REPLACE INTO assignments VALUES (?, ?, ?, ?, ?, ?)",
                             (meeting, table, host, joined_at, json.dumps(dict(answer)), games))
        return _assignment(answer, joined_at, games)

    def assignment(self, table: int, meeting: int | None = None) -> Assignment | None:
        """The meeting this table last joined (or the given one): how it plays on while the host is away."""
        with self._lock:
            row = self._db.execute(
                "SELECT data, joined_at, journal_games FROM assignments WHERE table_no = ? AND (? IS NULL OR "
                "meeting = ?) ORDER BY rowid DESC LIMIT 1", (table, meeting, meeting)).fetchone()
        return _assignment(json.loads(row[0]), float(row[1]), row[2]) if row else None

    def mark(self, meeting: int, journal_game_id: str, number: int | None, round_no: int | None,
             refused: str | None = None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO acked VALUES (?, ?, ?, ?, ?, ?)",
                             (meeting, journal_game_id, number, round_no, time.time(), refused))

    def done(self, meeting: int) -> dict[str, str | None]:
        """Journal game id -> None (acknowledged) or the host's refusal, for every game settled."""
        with self._lock:
            rows = self._db.execute("SELECT journal_game_id, refused FROM acked WHERE meeting = ?", (meeting,))
            return {row[0]: row[1] for row in rows}


def _last_game_number(journal: Path) -> int:
    """The number of the journal's last game (0 for none): the games after it are the meeting's."""
    if not journal.exists():
        return 0
    book = Journal(journal)
    try:
        games = book.games()
    finally:
        book.close()
    return games[-1].number if games else 0


def _assignment(answer: Mapping[str, Any], joined_at: float, journal_games: int | None = None) -> Assignment:
    due = answer.get("games_due")
    return Assignment(int(answer["meeting"]), int(answer["table"]), tuple(answer["players"]), str(answer["game"]),
                      str(answer.get("kind", "")), int(due) if due is not None else None,
                      dict(answer.get("setup") or {}), joined_at,
                      answer.get("credential") if isinstance(answer.get("credential"), str) else None,
                      journal_games)


def meeting_games(journal: Journal, assignment: Assignment) -> list[JournaledGame]:
    """The meeting's games this table has finished, in the order played (at most its games due)."""
    games = [g for g in journal.games() if g.outcome is not None and assignment.is_meeting_game(g)]
    return games[: assignment.games_due] if assignment.games_due is not None else games


class Reporter:
    """Sends every finished meeting game the host has not acknowledged, oldest first, on its own thread.

    A host that does not answer is tried again with a growing pause (0.5 s doubling to 10 s, jittered,
    so that 30 tables do not knock all at once when it is back); `wake()` (a game just ended) tries at
    once. A result the host refuses is kept in the outbox with the refusal and said in the log."""

    def __init__(self, link: HostLink, outbox: Outbox, assignment: Assignment,
                 on_reported: Callable[[str, dict[str, Any]], None] | None = None) -> None:
        self.link = link
        self.outbox = outbox
        self.assignment = assignment
        self.on_reported = on_reported
        self.host_away = False
        self.pending = 0
        self.refused: dict[str, str] = {}
        self._started = 0  # passes over the journal begun, and the last one that went through
        self._completed = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="venue-reporter", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def host_answers(self) -> None:
        """The host answered something else (a heartbeat): when it was away, try the results at once."""
        if self.host_away:
            self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)

    def wait_drained(self, timeout: float | None = None) -> bool:
        """Until every finished meeting game is acknowledged (or refused)."""
        self.wake()
        with self._idle:
            target = self._started + 1  # a pass that begins after this call: it sees every game ended so far
            return self._idle.wait_for(lambda: self._completed >= target and self.pending == 0, timeout)

    def _run(self) -> None:
        journal = Journal(self.outbox.journal_path)  # its own connection, on this thread
        delay = BACKOFF_FIRST
        try:
            while not self._stop.is_set():
                self._wake.clear()
                try:
                    self._send_pending(journal)
                    delay = BACKOFF_FIRST
                    pause = 1.0  # look again now and then (a game may end without a wake, e.g. on resume)
                except HostUnreachable as exc:
                    if not self.host_away:
                        log.warning("venue: %s; playing on, %d result(s) wait to be sent", exc, self.pending)
                    self.host_away = True
                    pause = delay * random.uniform(0.8, 1.2)
                    delay = min(delay * 2, BACKOFF_MOST)
                self._wake.wait(pause)
        finally:
            journal.close()

    def _send_pending(self, journal: Journal) -> None:
        with self._idle:
            self._started += 1
            this_pass = self._started
        meeting = self.assignment.meeting
        settled = self.outbox.done(meeting)
        waiting = [g for g in meeting_games(journal, self.assignment) if g.id not in settled]
        self._set_pending(len(waiting))
        for record in waiting:
            try:
                answer = self.link.report(record.id, self.assignment.seat_players, record.outcome or {})
            except HostRefused as exc:
                if exc.status in (401, 403):  # the table's credential, not the result: keep it, say so, try again
                    raise HostUnreachable(str(exc)) from None
                log.error("venue: the host refused game %s of table %d: %s (kept in %s)", record.id,
                          self.assignment.table, exc, self.outbox.path)
                self.refused[record.id] = str(exc)
                self.outbox.mark(meeting, record.id, None, None, refused=str(exc))
            else:
                self.outbox.mark(meeting, record.id, answer.get("number"), answer.get("round"))
                if self.host_away:
                    log.warning("venue: the host is back; sending what waited")
                self.host_away = False
                if self.on_reported is not None:
                    self.on_reported(record.id, answer)
            self._set_pending(self.pending - 1)
        with self._idle:
            self._completed = this_pass
            self._idle.notify_all()

    def _set_pending(self, count: int) -> None:
        with self._idle:
            self.pending = count
            self._idle.notify_all()


class Heartbeat:
    """The table's state to the host every HEARTBEAT_SECONDS (and at once on `beat()`); a silent host
    changes nothing at the table."""

    def __init__(self, link: HostLink, state: Callable[[], dict[str, Any]],
                 every: float = HEARTBEAT_SECONDS, on_answer: Callable[[], None] | None = None) -> None:
        self.link = link
        self.state = state
        self.every = every
        self.on_answer = on_answer  # the host answered (the reporter need not wait out its back-off)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="venue-heartbeat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def beat(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.link.send_state(self.state())
                if self.on_answer is not None:
                    self.on_answer()
            except HostUnreachable:
                pass  # the reporter says so in the log; the heartbeat just tries again
            except HostRefused as exc:
                log.error("venue: the host refused the table's state: %s", exc)
            except Exception:  # the heartbeat must never stop the table
                log.exception("venue: could not send the table's state")
            self._wake.wait(self.every)
