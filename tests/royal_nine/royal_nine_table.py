"""A Royal Nine table for tests: taps by name, what was said, and whole rounds from grids."""

from __future__ import annotations

from typing import Any

from kikimimi.games.base import FIELD, SPEAKER, Alert, Effect, Referee, Say, Scan
from kikimimi.games.phrasebook import flat
from kikimimi.games.royal_nine.engine import RoyalNine
from kikimimi.games.royal_nine.invariants import phrase_problems, privacy_leaks, state_problems
from kikimimi.games.session import Session


class Table:
    def __init__(self, **setup: Any) -> None:
        self.game = RoyalNine()
        self.session = Session(self.game, setup)
        self.last: list[Effect] = []
        self.spoken: list[Say] = []

    @property
    def state(self):
        return self.session.state

    def report(self) -> dict:
        return self.game.report(self.state)

    def feed(self, event) -> list[Effect]:
        before = self.state
        self.last = self.session.feed(event)
        problems = phrase_problems(self.last) + state_problems(self.state)
        if not (isinstance(event, Referee) and event.action == "undo"):
            problems += privacy_leaks(before, event, self.last, self.state)
        assert not problems, problems
        self.spoken += [e for e in self.last if isinstance(e, Say)]
        return self.last

    def tap(self, reader: str, tag: str | None) -> list[Effect]:
        return self.feed(Scan(reader, tag))

    def field(self, tag: str | None) -> list[Effect]:
        return self.tap(FIELD, tag)

    def hand(self, seat: int, tag: str | None) -> list[Effect]:
        return self.tap(f"hand:{seat}", tag)

    def referee(self, action: str, **params: Any) -> list[Effect]:
        return self.feed(Referee(action, params))

    def said(self, to: str | None = None) -> list[tuple[str, dict]]:
        """What was said phrase by phrase (a joined utterance's parts in their place)."""
        says = flat(e for e in self.last if isinstance(e, Say))
        return [(e.key, dict(e.params)) for e in says if to is None or e.to == to]

    def heard(self, to: str | None = None) -> list[str]:
        return [key for key, _ in self.said(to)]

    def alerts(self) -> list[str]:
        return [e.key for e in self.last if isinstance(e, Alert)]

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
