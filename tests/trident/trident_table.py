"""Helpers to put a Trident game in a known position in a few lines, on the generic test table."""

from __future__ import annotations

from collections.abc import Iterable

from game_table import GameTable

from kikimimi.games.base import Effect, Event

# A deal where nobody holds anything special, with room for each test to add what it needs.
DEFAULT_HANDS = {
    1: ["heart-1", "heart-2", "spade-1", "diamond-1", "clover-1"],
    2: ["heart-3", "heart-4", "spade-2", "diamond-2", "clover-2"],
    3: ["heart-5", "heart-6", "spade-3", "diamond-3", "clover-3"],
}


class Table(GameTable):
    """The Trident on the generic test table (tests/game_table.py), with taps by piece name."""

    def __init__(self, first: int = 1, rules: str = "standard") -> None:
        super().__init__("trident", {"first": first, "rules": rules})

    def apply(self, event: Event) -> list[Effect]:
        return self.feed(event)

    def hand_tap(self, seat: int, piece: str) -> list[Effect]:
        return self.hand(seat, piece)

    def field_tap(self, piece: str) -> list[Effect]:
        return self.field(piece)

    def deal(self, hands: dict[int, Iterable[str]] | None = None) -> None:
        for seat, pieces in (hands or DEFAULT_HANDS).items():
            for piece in pieces:
                self.hand_tap(seat, piece)

    def start(self, hands: dict[int, Iterable[str]] | None = None, piece: str = "heart-8") -> None:
        self.deal(hands)
        self.field_tap(piece)

    # what was said
    def said(self, to: str | None = None) -> list[str]:
        return [e.key for e in self.says() if to is None or e.to == to]

    @property
    def report(self) -> dict:
        return self.game_report()


def hands_with(**changes: list[str]) -> dict[int, list[str]]:
    """DEFAULT_HANDS with some seats' hands replaced: hands_with(s1=[...])."""
    hands = {seat: list(pieces) for seat, pieces in DEFAULT_HANDS.items()}
    for key, pieces in changes.items():
        hands[int(key[1:])] = pieces
    return hands
