"""Who hears of the loop's steps: the listeners told after each one, and the count that tests and scripts wait on."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kikimimi.table.loop import Listener, Step

log = logging.getLogger(__name__)


class StepFeed:
    """The listeners (the terminal log, the console, the demo's bots) and how many steps were handled.

    `listeners` is a plain list others append to and remove from; the count is kept under a condition so
    another thread can wait for a step without polling."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self._handled = 0
        self._progress = threading.Condition()

    @property
    def handled(self) -> int:
        return self._handled

    def tell(self, step: Step) -> None:
        """Every listener, in order (one that fails is logged and the others still hear), then count it."""
        for listener in list(self.listeners):
            try:
                listener(step)
            except Exception:
                log.exception("table listener failed")
        with self._progress:
            self._handled += 1
            self._progress.notify_all()

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until `count` steps have been handled; False when `timeout` seconds passed first."""
        with self._progress:
            return self._progress.wait_for(lambda: self._handled >= count, timeout)
