"""The current game in the journal: its start, its events numbered in order, its end.

An event is written *before* it is applied; one that cannot be written is not counted, and the loop does not
apply it (nothing is applied twice on resume). A failure is logged and shown to the Priest as an alert.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kikimimi.games.base import Event, Outcome
from kikimimi.table.journal import Journal, JournalError

if TYPE_CHECKING:
    from kikimimi.table.loop import TableStatus

log = logging.getLogger(__name__)

RETRY_AFTER = 0.05  # seconds before the one retry of a write (a brief I/O error)


class GameRecorder:
    """Writes the loop's current game (`status.game_id`) into `journal`; without a journal it only counts."""

    def __init__(self, journal: Journal | None, status: TableStatus) -> None:
        self.journal = journal
        self.status = status
        self.seq = 0  # events journaled in this game (undo is an event too, so not len(session.events))

    @property
    def writing(self) -> bool:
        """Whether events go into the journal (a table without one, or before its first game, only counts)."""
        return self.journal is not None and self.status.game_id is not None

    def begin(self, game: str, setup: Mapping[str, Any]) -> str | None:
        """Write a new game's start; its id (None without a journal). The caller makes it current."""
        return self.journal.begin_game(game, dict(setup)) if self.journal is not None else None

    def resume(self, game_id: str) -> None:
        """Carry on numbering an unfinished game of the journal."""
        assert self.journal is not None  # only a journal has games to resume
        self.seq = self.journal.last_seq(game_id)

    def append(self, event: Event) -> str | None:
        """Number `event` and write it; the error's text when it could not be written (it is not counted then)."""
        seq = self.seq + 1
        if self.writing:
            error = self._write(seq, event)
            if error is not None:
                log.error("journal: could not save event %d (%s): not applied", seq, error)
                self.status.unsaved += 1
                self.status.alert("journal.failed", error=error)
                return error
        self.seq = seq
        return None

    def _write(self, seq: int, event: Event) -> str | None:
        """Append with one retry (a brief I/O error); the error's text when it still fails."""
        assert self.journal is not None and self.status.game_id is not None  # see `writing`
        error = ""
        for attempt in range(2):
            try:
                self.journal.append(self.status.game_id, seq, event)
                return None
            except Exception as exc:  # a full disk, a read-only file, a locked database
                error = str(exc)
                if attempt == 0:
                    time.sleep(RETRY_AFTER)
        return error

    def finish(self, outcome: Outcome | None) -> None:
        """Write the end of the current game; when the journal cannot take it, the Priest is told in one line
        (a resumed table finishes a game whose events all ended it, so nothing is lost)."""
        if self.journal is None or not self.status.game_id:
            return
        try:
            self.journal.finish(self.status.game_id, outcome)
        except JournalError as exc:
            log.error("%s", exc)
            self.status.alert("journal.failed", error=str(exc))
