"""What the console keeps from the loop's steps: the spoken log and the last public announcement.

The loop calls `TableFeed.on_step` on its own thread after every step; the console reads the log
from its UI thread. The game's state itself is never copied here: it is read from the loop.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from kikimimi.games.base import SPEAKER, Referee, Say
from kikimimi.table.loop import Step
from kikimimi.voice.catalog import Catalog

KEEP_LINES = 400


class Speaks(Protocol):
    def say(self, effect: Say) -> None: ...


@dataclass(frozen=True)
class Spoken:
    """One line said on one output (`speaker` or `hand:N`), or a console note (`note`: not spoken)."""

    seq: int
    to: str
    text: str
    repeat: bool = False
    note: bool = False

    @property
    def private(self) -> bool:
        return self.to != SPEAKER


def phrase_text(words: Catalog, key: str, params: Mapping[str, Any]) -> str:
    """The phrase as the table says it; a key the catalog lacks is shown, never raised."""
    try:
        return words.render(key, params).text
    except Exception:  # a bad parameter must not take the console down
        return f"[{key}]"


class TableFeed:
    """Collects what was said, step by step. Thread-safe; `on_change(step)` runs on the loop thread."""

    def __init__(self, words: Catalog, keep: int = KEEP_LINES) -> None:
        self.words = words
        self.on_change: Callable[[Step], None] | None = None
        self._lines: deque[Spoken] = deque(maxlen=keep)
        self._last_public: list[Say] = []
        self._lock = threading.Lock()

    def on_step(self, step: Step) -> None:
        says = [e for e in step.effects if isinstance(e, Say)]
        with self._lock:
            if isinstance(step.event, Referee) and step.event.action == "new" and not step.journaled:
                setup = dict(step.event.params)
                self._lines.append(Spoken(0, SPEAKER, f"── new game: seat {setup.get('first', 1)} first, "
                                          f"{setup.get('rules', 'standard')} rules ──", note=True))
                self._last_public = []
            for say in says:
                self._lines.append(Spoken(step.seq, say.to, phrase_text(self.words, say.key, say.params)))
            public = [s for s in says if s.to == SPEAKER]
            if public:
                self._last_public = public
        if self.on_change is not None:
            self.on_change(step)

    def lines(self) -> list[Spoken]:
        with self._lock:
            return list(self._lines)

    @property
    def last_public(self) -> list[Say]:
        with self._lock:
            return list(self._last_public)

    def repeat_public(self, voice: Speaks | None) -> list[Say]:
        """Say the last public announcement again on the speaker (not journaled: it changes nothing)."""
        says = self.last_public
        with self._lock:
            for say in says:
                self._lines.append(Spoken(0, SPEAKER, phrase_text(self.words, say.key, say.params), repeat=True))
        if voice is not None:
            for say in says:
                voice.say(say)
        return says
