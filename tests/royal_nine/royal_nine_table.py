"""A Royal Nine table for tests: the generic one (tests/game_table.py), what was said, and whole rounds
from grids."""

from __future__ import annotations

from typing import Any

from game_table import GameTable

from kikimimi.games.base import SPEAKER, Effect, Event
from kikimimi.games.royal_nine.invariants import phrase_problems, state_problems


class Table(GameTable):
    """Royal Nine on the generic test table (tests/game_table.py), each step also checked for its phrases
    and its state on their own."""

    def __init__(self, **setup: Any) -> None:
        super().__init__("royal-nine", setup)

    @property
    def last(self) -> list[Effect]:
        return self.effects

    def report(self) -> dict:
        return self.game_report()

    def feed(self, event: Event) -> list[Effect]:
        effects = super().feed(event)
        problems = phrase_problems(effects) + state_problems(self.state)
        assert not problems, problems
        return effects

    def said(self, to: str | None = None) -> list[tuple[str, dict]]:
        """What was said phrase by phrase (a joined utterance's parts in their place)."""
        return [(e.key, dict(e.params)) for e in self.phrases() if to is None or e.to == to]

    def heard(self, to: str | None = None) -> list[str]:
        return [key for key, _ in self.said(to)]

    def speaker(self) -> list[tuple[str, dict]]:
        return self.said(SPEAKER)

    # -- whole steps ---------------------------------------------------------------------------

    def deal(self, cards: dict[int, list[str]]) -> None:
        for seat, held in cards.items():
            for card in held:
                self.hand(seat, card)

    def place(self, seat: int, placement: dict[str, int]) -> None:
        """card -> cell number (1..9)."""
        for card, cell in placement.items():
            self.hand(seat, card)
            self.hand(seat, f"cell-{cell}")

    def play_round(self, common: str, grids: dict[int, list[str | None]]) -> None:
        """Lay `common`, deal and place each seat's grid (9 entries, the 5th ignored): the first four
        own cards in reading order in the first half, the rest in the second. Stops before the reveal."""
        self.field(common)
        halves: dict[int, list[dict[str, int]]] = {}
        for seat, grid in grids.items():
            own = [(card, i + 1) for i, card in enumerate(grid) if i != 4]
            halves[seat] = [dict(own[:4]), dict(own[4:])]
        for half in (0, 1):
            self.deal({seat: list(halves[seat][half]) for seat in grids})
            for seat in grids:
                self.place(seat, halves[seat][half])


W1 = ["blue-5", "blue-9", "blue-8", "red-4", None, "red-6", "blue-3", "red-1", "blue-2"]
W2 = ["red-1", "red-2", "red-3", "red-6", None, "red-4", "red-9", "red-7", "red-8"]
W3 = ["blue-1", "blue-2", "blue-3", "blue-4", None, "blue-6", "blue-7", "blue-8", "blue-9"]
# A seat-2 grid that can share a round with W1 (common red-5).
W1_OTHER = ["red-2", "red-3", "red-7", "red-8", None, "red-9", "blue-1", "blue-4", "blue-6"]
