"""Opening a live table from its configuration: readers (hub), voice, journal and the loop."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi.devices.hub import Hub
from kikimimi.games.base import SPEAKER, Say, seat_of
from kikimimi.table.config import TableConfig
from kikimimi.table.journal import Journal
from kikimimi.table.loop import TableLoop
from kikimimi.voice.catalog import Line, catalog
from kikimimi.voice.config import redirect_outputs
from kikimimi.voice.router import Voice

log = logging.getLogger(__name__)


@dataclass
class LiveTable:
    config: TableConfig
    loop: TableLoop
    hub: Hub
    voice: Voice
    journal: Journal | None
    ready_seconds: float = 0.0  # from open_table() to listening

    def close(self) -> None:
        """Stop listening, finish speaking what is queued (briefly), release every device."""
        self.loop.stop()
        self.voice.wait_idle(timeout=2.0)
        self.voice.close()
        if self.journal is not None:
            self.journal.close()


def open_table(
    config: TableConfig,
    *,
    journal: bool = True,
    record_dir: Path | None = None,
    transcript_only: bool = False,
    on_line: Callable[[str, Line], None] | None = None,
    on_first_frame: Callable[..., None] | None = None,
    on_reader_health: Callable[[str, Any], None] | None = None,
    start: bool = True,
) -> LiveTable:
    """Build and start the table. Devices that are missing fall back (readers retry, audio to text).

    record_dir: every output becomes a WAV file in that folder (the demo's --record).
    transcript_only: no audio at all (tests, headless runs).
    """
    started = time.perf_counter()
    voice_spec, outputs = redirect_outputs(config.voice, list(config.outputs), record_dir, transcript_only)
    voice = Voice.open(voice_spec, outputs, on_line=on_line, on_first_frame=on_first_frame,
                       phrases=catalog(config.language, config.info.catalog))
    announce = _ReaderAnnouncer(on_reader_health)
    hub = Hub(config.readers, debounce=config.debounce, on_health=announce)
    book = Journal(config.journal) if journal else None
    loop = TableLoop(config, journal=book, voice=voice, hub=hub)
    announce.speak = loop.announce
    table = LiveTable(config, loop, hub, voice, book)
    if start:
        loop.start()
    table.ready_seconds = time.perf_counter() - started
    return table


class _ReaderAnnouncer:
    """Says on the speaker when a reader that was working stops, and when it is back, so that players
    know why their taps are not answered. Reader threads call this; the phrases go to the table loop's
    queue (`speak` is `TableLoop.announce`), which alone speaks."""

    def __init__(self, then: Callable[[str, Any], None] | None) -> None:
        self.speak: Callable[[list[Say]], None] = lambda says: None
        self.then = then
        self.was_ok: set[str] = set()
        self.lost: set[str] = set()

    def __call__(self, role: str, health: Any) -> None:
        if health.status == "ok":
            if role in self.lost:
                self._say(role, "back")
                self.lost.discard(role)
            self.was_ok.add(role)
        elif role in self.was_ok and role not in self.lost:
            self._say(role, "lost")
            self.lost.add(role)
        if self.then is not None:
            self.then(role, health)

    def _say(self, role: str, what: str) -> None:
        seat = seat_of(role)
        if seat is not None:
            self.speak([Say(SPEAKER, f"table.hand_reader_{what}", {"seat": seat})])
        elif role == "field":
            self.speak([Say(SPEAKER, f"table.field_reader_{what}")])
