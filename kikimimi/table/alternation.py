"""Two tags on one reader: NFC-A picks one tag of several and EM4100 garbles with two, so a piece left
on a reader (the field reader under the pile of played pieces) shows as two tags taking turns.

The watch sees every tap of a reader; two different tags alternating (A, B, A) within `window`
seconds is not how a person taps, so the Priest gets an alert (at most one per reader per `quiet`
seconds). Nothing is refused: the taps themselves go to the game as usual. The loop watches real readers
only: nothing lies on a simulated one, and bots or a fed script tap it as fast as the table answers.
"""

from __future__ import annotations

from collections import deque


class AlternationWatch:
    def __init__(self, window: float = 1.5, quiet: float = 10.0) -> None:
        self.window = window
        self.quiet = quiet
        self._recent: dict[str, deque[tuple[float, str]]] = {}
        self._alerted: dict[str, float] = {}

    def tap(self, reader: str, uid: str, t: float) -> bool:
        """Record a tap; True when it completes an A, B, A alternation that deserves an alert."""
        recent = self._recent.setdefault(reader, deque(maxlen=3))
        recent.append((t, uid))
        if len(recent) < 3 or t - recent[0][0] > self.window:
            return False
        (_, a), (_, b), (_, c) = recent
        if a == c and a != b and t - self._alerted.get(reader, -self.quiet) >= self.quiet:
            self._alerted[reader] = t
            return True
        return False
