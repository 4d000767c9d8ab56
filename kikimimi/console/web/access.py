"""Who may use the web console: the evening's code, the cookie it buys, and a brake on guessing it.

The club's network is shared with the players' phones, and the console shows hands once revealed and
runs the table, so every request but the page itself needs the Priest's cookie. The Priest gets it by
typing the evening's code (printed where the console starts, or scanned from its QR code). The code and
the key the cookie is made with are kept beside the journal (`<journal>.web`, the service user's only)
until the next renewal: a table restarted mid-evening keeps them, so no tablet has to log in again.

A table that runs for a season renews its code by itself: a code lasts until RENEW_HOUR (local time) after
it was made (at least an hour), and the next login after that makes the next one (said in the service's log
and shown on the terminal console's `c`). The Priest may renew it any time from the terminal
(`kikimimi console --new-code`, or `n` on the console's code screen): the running web console reads the
file again when it changed. The code before the current one is remembered, so a login with it is told
"expired", not "wrong".

The brake on guessing counts per client address: a phone sending wrong codes brakes itself, never the
Priest's device (see `Guesses`).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from kikimimi.durable import write_durably

log = logging.getLogger(__name__)

COOKIE = "kikimimi_priest"
RENEW_HOUR = 12  # local hour at which a code made before it stops working (the next login makes a new one)
MIN_SECONDS = 3600  # a code lasts at least this long (one made at 11:30 lasts until tomorrow's noon)
CODE_DIGITS = 6
WRONG_TRIES = 5  # wrong codes allowed from one client ...
WRONG_WINDOW = 60.0  # ... within this many seconds; then its tries are refused until the window has passed
ALL_WRONG_TRIES = 50  # wrong codes from all clients together within the window: past it, only a client
#   with no wrong code of its own in the window may try (guessing stays bounded however many addresses)


def access_path(journal: str | Path) -> Path:
    """Where a table's web console keeps the evening's code: beside the journal, like its lock and socket."""
    return Path(f"{journal}.web")


@dataclass(frozen=True)
class Evening:
    """The code the Priest types, the key cookies are signed with, and when both stop working."""

    code: str
    key: str
    until: float  # wall clock: kept in the file, so a table restarted mid-evening keeps the code
    # While this process runs, the code's life is counted on the monotonic clock: a Pi's clock that jumps (set
    # by the network after a boot without a real-time clock) neither ends the evening early nor stretches it.
    steady_until: float | None = field(default=None, compare=False)
    # The code file read back with this code and key: a restarted table keeps it. False: good for this process
    # only (the file could not be written, e.g. the disk failed as the power went): not to be shown as kept.
    saved: bool = field(default=True, compare=False)

    @property
    def cookie(self) -> str:
        """The cookie's value: made from the key (the code itself never travels in a cookie)."""
        return hmac.new(self.key.encode(), b"priest", hashlib.sha256).hexdigest()

    def seconds_left(self, now: float | None = None) -> int:
        if now is None and self.steady_until is not None:
            return max(0, int(self.steady_until - time.monotonic()))
        return max(0, int(self.until - (time.time() if now is None else now)))

    def admits(self, cookie: str | None, now: float | None = None) -> bool:
        return bool(cookie) and self.seconds_left(now) > 0 and hmac.compare_digest(str(cookie), self.cookie)

    def matches(self, code: str, now: float | None = None) -> bool:
        typed = "".join(str(code).split())  # "123 456" as printed in groups is the same code
        return self.seconds_left(now) > 0 and hmac.compare_digest(typed.encode(), self.code.encode())


def renewal_after(now: float, hour: int = RENEW_HOUR) -> float:
    """The first RENEW_HOUR o'clock (local time) at least MIN_SECONDS after `now`."""
    earliest = time.localtime(now + MIN_SECONDS)
    at = time.mktime((earliest.tm_year, earliest.tm_mon, earliest.tm_mday, hour, 0, 0, 0, 0, -1))
    while at < now + MIN_SECONDS:
        day = time.localtime(at + 86400 + 3600)  # the next day's date, whatever the clock change
        at = time.mktime((day.tm_year, day.tm_mon, day.tm_mday, hour, 0, 0, 0, 0, -1))
    return at


def _read(path: Path) -> tuple[Evening | None, str]:
    """The evening kept in `path` (None: none readable) and the code before it ("" if none)."""
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        data = json.loads(path.read_text(encoding="utf-8"))
        kept = Evening(str(data["code"]), str(data["key"]), float(data["until"]))
        if kept.code.isdigit() and len(kept.key) >= 32:
            return kept, str(data.get("before") or "")
    return None, ""


def evening(journal: str | Path, now: float | None = None, *, renew: bool = False) -> Evening:
    """The code for the table of `journal`: the one kept beside it while it lasts, else (or when `renew`)
    a new one (written 0600, the code before it remembered as expired). A file that cannot be read as one
    is replaced. The new code counts as saved only once the file reads back with it: one that could not be
    written (or read back) comes with `saved` False, good for this process only, and is said in the log; a
    caller shows only a saved code as the evening's."""
    steady = now is None  # the real clock: this process may count the rest of the evening on the steady one
    now = time.time() if now is None else now
    path = access_path(journal)
    kept, _ = _read(path)
    if kept is not None and not renew and kept.seconds_left(now) > 60:
        return _steady(kept, now) if steady else kept
    fresh = Evening(f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}", secrets.token_hex(32),
                    renewal_after(now))
    if kept is not None and fresh.code == kept.code:  # never the same code twice in a row
        fresh = Evening(f"{(int(kept.code) + 1) % 10 ** CODE_DIGITS:0{CODE_DIGITS}d}", fresh.key, fresh.until)
    if not _save(path, fresh, kept.code if kept is not None else ""):
        fresh = replace(fresh, saved=False)
        log.warning("the evening's code could not be saved in %s: it is good until this table stops", path)
    return _steady(fresh, now) if steady else fresh


def _save(path: Path, tonight: Evening, before: str) -> bool:
    """Write the code file durably (whole after a power cut: the tablets stay logged in) and read it back."""
    try:
        write_durably(path, json.dumps({"code": tonight.code, "key": tonight.key, "until": tonight.until,
                                        "before": before}), mode=0o600)
    except OSError:
        return False
    back, _ = _read(path)
    return back is not None and (back.code, back.key) == (tonight.code, tonight.key)


def _steady(tonight: Evening, now: float) -> Evening:
    return replace(tonight, steady_until=time.monotonic() + (tonight.until - now))


class Access:
    """The web console's current evening: read again from beside the journal when the file changed (renewed
    from the terminal), renewed when it has run out. Without a journal, one fixed evening (tests, a code
    that could not be written)."""

    def __init__(self, journal: str | Path | None, first: Evening | None = None) -> None:
        self.journal = Path(journal) if journal is not None else None
        self.renewed: Callable[[Evening], None] | None = None  # told each new code (the service's log)
        self._evening = first if first is not None else evening(journal) if journal is not None else None
        if self._evening is None:
            raise ValueError("Access needs a journal or an evening")
        self._before = ""
        self._seen = self._stamp()
        if self.journal is not None:
            self._before = _read(access_path(self.journal))[1]

    def _stamp(self) -> tuple[int, int] | None:
        if self.journal is None:
            return None
        try:
            st = os.stat(access_path(self.journal))
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_ino)

    def current(self, now: float | None = None) -> Evening:
        """The evening now: the file's when it changed, a new one when this one ran out."""
        tonight = self._evening
        assert tonight is not None
        if self.journal is None:
            return tonight
        stamp = self._stamp()
        if stamp != self._seen:
            kept, before = _read(access_path(self.journal))
            if kept is not None:
                kept = _steady(kept, time.time())
                self._evening, self._before, tonight = kept, before, kept
            self._seen = stamp
        if tonight.seconds_left(now) == 0:
            old = tonight.code
            tonight = evening(self.journal, now)
            self._evening, self._before, self._seen = tonight, old, self._stamp()
            if self.renewed is not None:
                self.renewed(tonight)
        return tonight

    def admits(self, cookie: str | None) -> bool:
        return self.current().admits(cookie)

    def check(self, code: str) -> str:
        """"ok", "expired" (a code that worked before the current one) or "wrong"."""
        tonight = self.current()
        if tonight.matches(code):
            return "ok"
        typed = "".join(str(code).split())
        if self._before and hmac.compare_digest(typed.encode(), self._before.encode()):
            return "expired"
        return "wrong"


class Guesses:
    """A brake on guessing, per client: after WRONG_TRIES wrong codes from one client within WRONG_WINDOW
    seconds its tries are refused until the oldest is out of the window; other clients are not braked by it
    (a phone guessing cannot lock the Priest out). So that many addresses cannot guess fast together, past
    ALL_WRONG_TRIES wrong codes from everyone in the window only a client with no wrong code of its own in
    the window may try: the Priest's device, which types the right code, still gets in. Bounded: at most
    MAX_CLIENTS clients are remembered (the oldest forgotten first)."""

    MAX_CLIENTS = 4096

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._wrong: OrderedDict[str, list[float]] = OrderedDict()

    def _prune(self, now: float) -> None:
        for client in list(self._wrong):
            kept = [t for t in self._wrong[client] if now - t < WRONG_WINDOW]
            if kept:
                self._wrong[client] = kept
            else:
                del self._wrong[client]

    def wait(self, client: str = "") -> int:
        """Seconds before `client` may try a code again (0: now)."""
        now = self._clock()
        self._prune(now)
        mine = self._wrong.get(client, [])
        if len(mine) >= WRONG_TRIES:
            return max(1, int(WRONG_WINDOW - (now - mine[0])) + 1)
        if mine and sum(len(times) for times in self._wrong.values()) >= ALL_WRONG_TRIES:
            oldest = min(times[0] for times in self._wrong.values())
            return max(1, int(WRONG_WINDOW - (now - oldest)) + 1)
        return 0

    def wrong(self, client: str = "") -> None:
        self._wrong.setdefault(client, []).append(self._clock())
        self._wrong.move_to_end(client)
        while len(self._wrong) > self.MAX_CLIENTS:
            self._wrong.popitem(last=False)
