"""What the console keeps from the loop's steps: the spoken log and the last public announcement.

The loop calls `TableFeed.on_step` on its own thread after every step; the console reads the log
from its UI thread. The game's state itself is never copied here: it is read from the loop.
Lines are rendered with the phrases of the game that said them: a new game of another game switches
the catalog at its "new" step, in order with the lines.
The console's "repeat" goes back through the loop (`TableLoop.announce`), which alone speaks; the
lines come back here as the loop's announce step and are marked as repeated.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.console.words import Words, words
from kikimimi.games.base import SPEAKER, Say
from kikimimi.games.registry import UnknownGame, get_info
from kikimimi.table.loop import Step
from kikimimi.table.messages import Announcement, NewGame, PauseRequest
from kikimimi.voice.catalog import Catalog, catalog


def _value(value: Any, said: Words) -> str:
    """A set-up value as the note shows it (on/off for a yes-no key)."""
    return said.say(f"setup.bool.{str(value).lower()}") if isinstance(value, bool) else str(value)

KEEP_LINES = 400
Announce = Callable[[list[Say]], None]


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
        self.on_change: Callable[[Step], object] | None = None
        self._lines: deque[Spoken] = deque(maxlen=keep)
        self._last_public: list[Say] = []
        self._repeating: list[list[Say]] = []  # repeats asked of the loop, not yet said
        self._lock = threading.Lock()

    def on_step(self, step: Step) -> None:
        says = [e for e in step.effects if isinstance(e, Say)]
        with self._lock:
            announce = isinstance(step.event, Announcement)
            if isinstance(step.event, NewGame):
                self._lines.append(Spoken(0, SPEAKER, self._new_game(dict(step.event.setup)), note=True))
                self._last_public = []
                self._repeating = []
            repeat = announce and bool(says) and says in self._repeating
            if repeat:
                self._repeating.remove(says)
            for say in says:
                self._lines.append(Spoken(step.seq, say.to, phrase_text(self.words, say.key, say.params),
                                          repeat=repeat))
            public = [s for s in says if s.to == SPEAKER]
            # The table's own announcements (a reader down) and a pause's "paused" / "the game goes on" are not
            # the game's: repeat says the game's last public line again.
            if public and not announce and not isinstance(step.event, PauseRequest):
                self._last_public = public
        if self.on_change is not None:
            self.on_change(step)

    def _new_game(self, setup: dict[str, Any]) -> str:
        """The note for a new game; from now on its phrases render the lines (called under the lock)."""
        game = str(setup.get("game", ""))
        try:
            info = get_info(game)
        except UnknownGame:
            return words(self.words.lang).say("note.new_game", title=game or "?", chosen="")
        self.words = catalog(self.words.lang, info.catalog)
        said = words(self.words.lang)
        known = [key.name for key in info.setup_keys]  # only what the Priest chose, never a drawn secret
        chosen = said.say("list.comma").join(
            said.say("note.key", name=said.get(f"setup.{info.id}.{name}.label", name),
                     value=said.get(f"setup.{info.id}.choice.{setup[name]}.label", _value(setup[name], said)))
            for name in known if name in setup)
        return said.say("note.new_game", title=info.title(self.words.lang),
                        chosen=said.say("note.chosen", chosen=chosen) if chosen else "")

    def lines(self) -> list[Spoken]:
        with self._lock:
            return list(self._lines)

    @property
    def last_public(self) -> list[Say]:
        with self._lock:
            return list(self._last_public)

    def repeat_public(self, announce: Announce | None) -> list[Say]:
        """Ask the loop to say the last public announcement again on the speaker (`announce` is
        `TableLoop.announce`; not journaled: it changes nothing). The lines appear when the loop says them."""
        says = self.last_public
        if says and announce is not None:
            with self._lock:
                self._repeating.append(says)
            announce(says)
        return says
