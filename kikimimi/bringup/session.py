"""A bring-up session: every configured reader and output open, each tap spoken on its reader's output.

    session = Bringup.open(load_config("table.toml"))
    heard = session.poll(timeout=0.2)     # a Heard for each tap (spoken already), else None
    session.rows()                        # one ReaderRow per reader: status, path, last UID, taps, errors
    session.close()

Nothing here stops for a missing device: a reader that is not there shows `reconnecting`/`failed` with
the reason and is picked up when plugged in; an output without its device speaks to the transcript.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kikimimi.bringup.announce import Heard, announce
from kikimimi.bringup.latency import LatencyMeter
from kikimimi.devices.events import ReaderHealth
from kikimimi.devices.hub import Hub
from kikimimi.table.config import TableConfig
from kikimimi.voice.catalog import Line, catalog
from kikimimi.voice.config import redirect_outputs
from kikimimi.voice.outputs import OutputHealth
from kikimimi.voice.router import Voice

LineHook = Callable[[str, Line], None]


@dataclass(frozen=True)
class ReaderRow:
    """What the live view shows for one reader."""

    role: str
    path: str
    protocol: str
    status: str
    detail: str
    taps: int  # taps heard by bring-up (after the hub's debounce)
    errors: int  # failed opens and lost connections
    dropped: int  # bad frames thrown away
    last_uid: str | None
    last_tag: str | None  # the deck's id for the last UID; None: not in the deck (or no tap yet)
    last_said: str | None  # the text spoken for the last tap
    latency_ms: float | None  # the last tap's tap-to-speech, when it was measured


@dataclass(frozen=True)
class Said:
    """A line spoken (or written) on an output, as the voice reported it."""

    output: str
    key: str
    text: str
    t: float


class Bringup:
    def __init__(self, config: TableConfig, hub: Hub, voice: Voice, meter: LatencyMeter) -> None:
        self.config = config
        self.hub = hub
        self.voice = voice
        self.meter = meter
        self.heard: deque[Heard] = deque(maxlen=200)
        self.said: deque[Said] = deque(maxlen=500)
        self.health_changes: deque[tuple[str, ReaderHealth]] = deque(maxlen=200)
        self._lock = threading.Lock()
        self._taps: dict[str, int] = {spec.role: 0 for spec in config.readers}
        self._last: dict[str, Heard] = {}
        self._last_text: dict[str, str] = {}

    @classmethod
    def open(
        cls,
        config: TableConfig,
        *,
        transcript_only: bool = False,
        record_dir: Path | None = None,
        on_line: LineHook | None = None,
        on_health: Callable[[str, ReaderHealth], None] | None = None,
    ) -> Bringup:
        """Open every output, then every reader (missing devices fall back; see the module doc)."""
        voice_spec, outputs = redirect_outputs(config.voice, list(config.outputs), record_dir, transcript_only)
        meter = LatencyMeter()
        holder: list[Bringup] = []

        def line_hook(output: str, line: Line) -> None:
            if holder:
                holder[0].said.append(Said(output, line.key, line.text, time.monotonic()))
            if on_line is not None:
                on_line(output, line)

        def health_hook(role: str, health: ReaderHealth) -> None:
            if holder:
                holder[0].health_changes.append((role, health))
            if on_health is not None:
                on_health(role, health)

        # The hub first: it refuses readers it cannot tell apart (ValueError) before any device is opened.
        hub = Hub(config.readers, debounce=config.debounce, on_health=health_hook)
        voice = Voice.open(voice_spec, outputs, on_line=line_hook, on_first_frame=meter.first_frame,
                           phrases=catalog(config.language, config.deck.game))
        session = cls(config, hub, voice, meter)
        holder.append(session)
        hub.start()
        return session

    # -- taps --------------------------------------------------------------------------------------

    def poll(self, timeout: float = 0.2) -> Heard | None:
        """Wait for the next reader event; a tap is spoken on its reader's own output and returned."""
        event = self.hub.get(timeout=timeout)
        if event is None or event.kind != "tap":
            return None
        heard = announce(self.config.deck, event.reader, event.uid)
        if heard.say is not None:
            self.meter.said(event.reader, heard.say.to, event.t)
            self.voice.say(heard.say)
            self._last_text[event.reader] = self.text_of(heard)
        with self._lock:
            self._taps[event.reader] = self._taps.get(event.reader, 0) + 1
            self._last[event.reader] = heard
        self.heard.append(heard)
        return heard

    def text_of(self, heard: Heard) -> str:
        """What was said for a tap (empty for a reader without an output)."""
        return self.voice.catalog.render(heard.say.key, heard.say.params).text if heard.say else ""

    # -- what the view shows -----------------------------------------------------------------------

    def rows(self) -> list[ReaderRow]:
        health = self.hub.health()
        rows = []
        with self._lock:
            for spec in self.config.readers:
                h = health[spec.role]
                last = self._last.get(spec.role)
                rows.append(ReaderRow(
                    spec.role, spec.path, spec.protocol, h.status, h.detail, self._taps.get(spec.role, 0),
                    h.errors, h.dropped, last.uid if last else None, last.tag_id if last else None,
                    self._last_text.get(spec.role), self.meter.last_ms(spec.role),
                ))
        return rows

    def outputs(self) -> dict[str, OutputHealth]:
        return self.voice.health()

    def all_ok(self) -> bool:
        """Every reader open and reading, every output sounding on its device (or its chosen sink)."""
        return all(r.status == "ok" for r in self.rows()) and all(h.status == "ok" for h in self.outputs().values())

    def close(self) -> None:
        """Stop the readers, let queued speech finish briefly, release every device."""
        self.hub.stop()
        self.voice.wait_idle(timeout=3.0)
        self.voice.close()
