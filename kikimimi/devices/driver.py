"""What every reader driver shares: the held-tag state machine and the driver interface.

A driver reads one device on the hub's thread for it. `open()` raises if the device is not there,
`run()` reads until `stop` is set and raises when the device is lost; the hub reopens it with backoff.
`run()` calls `beat()` every time round its loop (at least once a second): a reader that hangs while
plugged in (nfcpy's RC-S380 read has no timeout) stops beating, and the hub's watchdog reports it
`stalled` and reopens it.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kikimimi.devices.config import ReaderSpec

if TYPE_CHECKING:
    from kikimimi.devices.simulated import SimulatedReader

Emit = Callable[..., None]  # (kind "tap"/"removed"/"unreadable", uid, detail="")


class DeviceGone(OSError):
    """The device stopped answering (unplugged, emulator gone); the hub reopens it."""


class ChipSilent(DeviceGone):
    """The device is there but its chip stopped answering: the hub reports it stalled and reopens it."""


class NeedsService(OSError):
    """A service the reader goes through is not running (pcscd); the message says how to start it."""


class ReaderUnusable(Exception):
    """The device is there but cannot do what the config asks (e.g. a tag type it does not support)."""


class TagState:
    """One tag at a time on a reader: a held tag is one tap; a different tag replaces it."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self.held: str | None = None

    def seen(self, uid: str) -> None:
        if uid == self.held:
            return
        if self.held is not None:
            self._emit("removed", self.held)
        self.held = uid
        self._emit("tap", uid)

    def unreadable(self, detail: str) -> None:
        """A card is on the reader but gives no UID: reported once per presentation, never a tap."""
        self.gone()
        self._emit("unreadable", "", detail)

    def gone(self) -> None:
        if self.held is not None:
            held, self.held = self.held, None
            self._emit("removed", held)


class Driver(ABC):
    def __init__(self, spec: ReaderSpec) -> None:
        self.spec = spec
        self.dropped = 0  # bad frames, for health
        self.last_beat: float | None = None  # time.monotonic() of the last sign of life while running

    @classmethod
    def for_spec(cls, spec: ReaderSpec, sim: SimulatedReader | None) -> Driver:
        """The driver of a configured reader; only a simulated one uses `sim` (the hub's feed for it)."""
        return cls(spec)

    @classmethod
    def check_specs(cls, specs: Sequence[ReaderSpec]) -> None:
        """Refuse (ValueError), before a table starts, readers of this kind its config cannot mean; the hub
        calls it once with all the readers of the protocol. Most kinds have nothing to check."""
        return None

    def beat(self) -> None:
        """The read loop made progress (called from `run()` on the reader's thread)."""
        self.last_beat = time.monotonic()

    @abstractmethod
    def open(self) -> None:
        """Open the device; raise OSError (or any exception) with a readable message if it fails."""

    @abstractmethod
    def run(self, state: TagState, stop: threading.Event) -> None:
        """Read until `stop` is set; raise when the device is lost."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; safe to call twice or after a failed open."""

    def interrupt(self) -> None:  # noqa: B027 - optional: most drivers wake by themselves within 50 ms
        """Wake a blocked `run()` so that stopping is quick (called from another thread)."""
