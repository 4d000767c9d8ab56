"""Helpers to put a Trident game in a known position in a few lines."""

from __future__ import annotations

from collections.abc import Iterable

from kikimimi.games.base import FIELD, Effect, Referee, Say, Scan, hand
from kikimimi.games.trident.engine import Trident
from kikimimi.games.trident.invariants import check
from kikimimi.games.trident.state import TridentState

# A deal where nobody holds anything special, with room for each test to add what it needs.
DEFAULT_HANDS = {
    1: ["heart-1", "heart-2", "spade-1", "diamond-1", "clover-1"],
    2: ["heart-3", "heart-4", "spade-2", "diamond-2", "clover-2"],
    3: ["heart-5", "heart-6", "spade-3", "diamond-3", "clover-3"],
}


class Table:
    """A game driven by taps, checking the invariants after every event."""

    def __init__(self, first: int = 1, rules: str = "standard") -> None:
        self.game = Trident()
        self.state: TridentState = self.game.initial({"first": first, "rules": rules})
        self.effects: list[Effect] = []

    def apply(self, event) -> list[Effect]:
        before = self.state
        snapshot = before.copy()
        self.state, self.effects = self.game.apply(before, event)
        assert before == snapshot, "apply() changed its input state"
        problems = check(self.state, event, self.effects)
        assert not problems, problems
        return self.effects

    def hand_tap(self, seat: int, piece: str) -> list[Effect]:
        return self.apply(Scan(hand(seat), piece))

    def field_tap(self, piece: str) -> list[Effect]:
        return self.apply(Scan(FIELD, piece))

    def referee(self, action: str, **params) -> list[Effect]:
        return self.apply(Referee(action, params))

    def deal(self, hands: dict[int, Iterable[str]] | None = None) -> None:
        for seat, pieces in (hands or DEFAULT_HANDS).items():
            for piece in pieces:
                self.hand_tap(seat, piece)

    def start(self, hands: dict[int, Iterable[str]] | None = None, piece: str = "heart-8") -> None:
        self.deal(hands)
        self.field_tap(piece)

    # what was said
    def said(self, to: str | None = None) -> list[str]:
        return [e.key for e in self.effects if isinstance(e, Say) and (to is None or e.to == to)]

    def says(self) -> list[Say]:
        return [e for e in self.effects if isinstance(e, Say)]

    @property
    def report(self) -> dict:
        return self.game.report(self.state)


def hands_with(**changes: list[str]) -> dict[int, list[str]]:
    """DEFAULT_HANDS with some seats' hands replaced: hands_with(s1=[...])."""
    hands = {seat: list(pieces) for seat, pieces in DEFAULT_HANDS.items()}
    for key, pieces in changes.items():
        hands[int(key[1:])] = pieces
    return hands
