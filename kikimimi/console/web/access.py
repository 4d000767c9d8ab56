"""Who may use the web console: the evening's code, the cookie it buys, and a brake on guessing it.

The club's network is shared with the players' phones, and the console shows hands once revealed and
runs the table, so every request but the page itself needs the Priest's cookie. The Priest gets it by
typing the evening's code (printed where the console starts, or scanned from its QR code). The code and
the key the cookie is made with are kept beside the journal (`<journal>.web`, the service user's only)
for one evening: a table restarted mid-evening keeps them, so no tablet has to log in again.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from kikimimi.durable import write_durably

COOKIE = "kikimimi_priest"
EVENING_SECONDS = 14 * 3600  # a code (and its cookies) lasts this long from when it was made
CODE_DIGITS = 6
WRONG_TRIES = 5  # wrong codes allowed ...
WRONG_WINDOW = 60.0  # ... within this many seconds; then every try is refused until the window has passed


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


def evening(journal: str | Path, now: float | None = None) -> Evening:
    """This evening's code for the table of `journal`: the one kept beside it while it lasts, else a new one
    (written 0600). A file that cannot be read as one is replaced; one that cannot be written leaves the
    code good for this process only (said by the caller printing it)."""
    steady = now is None  # the real clock: this process may count the rest of the evening on the steady one
    now = time.time() if now is None else now
    path = access_path(journal)
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        data = json.loads(path.read_text(encoding="utf-8"))
        kept = Evening(str(data["code"]), str(data["key"]), float(data["until"]))
        if kept.seconds_left(now) > 60 and kept.code.isdigit() and len(kept.key) >= 32:
            return _steady(kept, now) if steady else kept
    fresh = Evening(f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}", secrets.token_hex(32),
                    now + EVENING_SECONDS)
    with contextlib.suppress(OSError):  # whole after a power cut: the tablets stay logged in
        write_durably(path, json.dumps({"code": fresh.code, "key": fresh.key, "until": fresh.until}), mode=0o600)
    return _steady(fresh, now) if steady else fresh


def _steady(tonight: Evening, now: float) -> Evening:
    return replace(tonight, steady_until=time.monotonic() + (tonight.until - now))


class Guesses:
    """A brake on guessing: after WRONG_TRIES wrong codes within WRONG_WINDOW seconds (from anyone: the
    attacker may change address), every try is refused until the oldest of them is out of the window."""

    def __init__(self, clock=time.monotonic) -> None:  # noqa: ANN001 - a () -> float
        self._clock = clock
        self._wrong: list[float] = []

    def wait(self) -> int:
        """Seconds before a code may be tried again (0: now)."""
        now = self._clock()
        self._wrong = [t for t in self._wrong if now - t < WRONG_WINDOW]
        if len(self._wrong) < WRONG_TRIES:
            return 0
        return max(1, int(WRONG_WINDOW - (now - self._wrong[0])) + 1)

    def wrong(self) -> None:
        self._wrong.append(self._clock())
