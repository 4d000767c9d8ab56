"""A reader fed in-process: by tests, the demo, bots and the console."""

from __future__ import annotations

import threading

from kikimimi.devices.config import ReaderSpec
from kikimimi.devices.deck import normalize_uid
from kikimimi.devices.driver import Driver, TagState


class SimulatedReader:
    """Thread-safe: `tap` presents a tag (held until `remove` or the next tap), `remove` lifts it."""

    def __init__(self, role: str) -> None:
        self.role = role
        self._lock = threading.Lock()
        self._state: TagState | None = None
        self._pending: list[tuple[str, str | None]] = []  # calls made before the hub started

    def attach(self, state: TagState) -> None:
        with self._lock:
            self._state = state
            pending, self._pending = self._pending, []
            for action, uid in pending:
                self._apply(action, uid)

    def tap(self, uid: str) -> None:
        self._do("tap", _checked(uid))

    def remove(self) -> None:
        self._do("remove", None)

    def tap_and_remove(self, uid: str) -> None:
        """A quick tap: one tap and one removal, counted once."""
        uid = _checked(uid)
        with self._lock:
            self._apply_or_queue("tap", uid)
            self._apply_or_queue("remove", None)

    @property
    def held(self) -> str | None:
        with self._lock:
            return self._state.held if self._state else None

    def _do(self, action: str, uid: str | None) -> None:
        with self._lock:
            self._apply_or_queue(action, uid)

    def _apply_or_queue(self, action: str, uid: str | None) -> None:
        if self._state is None:
            self._pending.append((action, uid))
        else:
            self._apply(action, uid)

    def _apply(self, action: str, uid: str | None) -> None:
        assert self._state is not None
        if action == "tap":
            assert uid is not None
            self._state.seen(uid)
        else:
            self._state.gone()


def _checked(uid: str) -> str:
    norm = normalize_uid(uid)
    if not norm or any(c not in "0123456789abcdef" for c in norm):
        raise ValueError(f"a tag UID is hex digits, not {uid!r}")
    return norm


class SimDriver(Driver):
    """The hub's side of a simulated reader: nothing to open, taps come from `SimulatedReader`."""

    def __init__(self, spec: ReaderSpec, reader: SimulatedReader) -> None:
        super().__init__(spec)
        self.reader = reader

    @classmethod
    def for_spec(cls, spec: ReaderSpec, sim: SimulatedReader | None) -> SimDriver:
        return cls(spec, sim or SimulatedReader(spec.role))

    def open(self) -> None:
        pass

    def run(self, state: TagState, stop: threading.Event) -> None:
        self.reader.attach(state)
        stop.wait()

    def close(self) -> None:
        pass
