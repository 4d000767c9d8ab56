"""What readers report: taps and removals, and each reader's health.

The hub merges every reader into one queue of `ReaderEvent`s. Health changes (a reader going down or
coming back) are NOT events on that queue: they are read with `Hub.health()` or pushed to the
`on_health` callback given to the hub, so the queue only ever carries taps, removals and unreadable cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EventKind = Literal["tap", "removed", "unreadable"]
Status = Literal["ok", "reconnecting", "stalled", "failed"]


@dataclass(frozen=True)
class ReaderEvent:
    """A tag tapped on (or lifted from) the reader of a role such as `field` or `hand:1`; `unreadable`:
    a card on it gave no UID (detail says why), for the Priest, never a tap."""

    kind: EventKind
    reader: str  # the role of the reader
    uid: str  # normalized hex, lower case, no separators
    t: float  # time.monotonic() when the reader saw it
    detail: str = ""


@dataclass(frozen=True)
class ReaderHealth:
    """A snapshot of one reader's state for the console and bring-up.

    status: `ok` (open and reading), `reconnecting` (lost or not there yet, being reopened by itself),
    `stalled` (open but its read loop stopped making progress: being reopened by the hub's watchdog),
    `failed` (needs a human: detail says why and how to fix it; it is still retried slowly).
    """

    role: str
    path: str
    protocol: str
    status: Status
    detail: str
    taps: int = 0  # taps reported by the reader (before the hub's debounce)
    errors: int = 0  # device errors: failed opens, lost connections
    dropped: int = 0  # garbage, truncated or bad-checksum frames thrown away
    last_uid: str | None = None
    since: float = 0.0  # time.monotonic() of the last status change
