"""What the table loop's queue carries besides the readers' events, one small frozen message each; the
table's own steps (`TableAction`) are reported to listeners as they are. Kept apart from the loop so that
a listener (the transcript, the console's feed) can tell them apart without importing the loop."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kikimimi.games.base import Event, Say


@dataclass(frozen=True)
class Submitted:
    """A referee action or a tap on a seat's behalf (the console, a script)."""

    event: Event
    received: float


@dataclass(frozen=True)
class NewGame:
    setup: dict[str, Any]  # complete, `game` included


@dataclass(frozen=True)
class Announcement:
    says: tuple[Say, ...]


@dataclass(frozen=True)
class PauseRequest:
    paused: bool


# The table's own steps, which listeners are told of as they are: not the game's events, never journaled.
TableAction = NewGame | Announcement | PauseRequest


@dataclass(frozen=True)
class ClockTick:
    kind: str  # "warning" or "timeout"
    seat: int
    token: int
