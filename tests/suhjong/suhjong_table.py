"""A Suhjong table for tests: the generic one (tests/game_table.py) with cards tapped by value."""

from __future__ import annotations

from game_table import GameTable

from kikimimi.games.suhjong.pieces import CARDS, VALUE

OPS = {"*": "op-times", "+": "op-plus", "=": "op-equals", "(": "op-open", ")": "op-close"}


class Table(GameTable):
    """Suhjong on the generic test table (tests/game_table.py), with cards tapped by value."""

    def __init__(self, **setup) -> None:
        super().__init__("suhjong", setup)

    def report(self) -> dict:
        return self.game_report()

    def heard(self) -> list[str]:
        return [e.key for e in self.phrases()]

    def said(self, key: str, to: str | None = None) -> bool:
        return any(e.key == key and (to is None or e.to == to) for e in self.phrases())

    # cards by value ---------------------------------------------------------------------------------

    def pile_card(self, value: int) -> str:
        pile = self.state.pile()
        return next(c for c in CARDS if VALUE[c] == value and c in pile)

    def hand_card(self, seat: int, value: int) -> str:
        return next(c for c in sorted(self.state.hand(seat)) if VALUE[c] == value)

    def river_card(self, seat: int, value: int) -> str:
        return next(c for c in self.state.river(seat) if VALUE[c] == value)

    def deal(self, one: str, two: str) -> None:
        for seat, values in ((1, one), (2, two)):
            for v in values:
                self.tap(f"hand:{seat}", self.pile_card(int(v)))

    def discard(self, seat: int, values: str) -> None:
        for v in values:
            self.tap("field", self.hand_card(seat, int(v)))

    def pickup(self, seat: int, values: str) -> None:
        other = 3 - seat
        for v in values:
            self.tap(f"hand:{seat}", self.river_card(other, int(v)))

    def draw(self, seat: int, values: str) -> None:
        for v in values:
            self.tap(f"hand:{seat}", self.pile_card(int(v)))

    def write(self, seat: int, text: str) -> None:
        """Tap an equation's cards (from `seat`'s hand) and operators on the field."""
        used: set[str] = set(self.state.taps)
        for ch in text:
            if ch in OPS:
                self.tap("field", OPS[ch])
            else:
                card = next(c for c in sorted(self.state.hand(seat)) if VALUE[c] == int(ch) and c not in used)
                used.add(card)
                self.tap("field", card)

    def declare(self, seat: int, text: str) -> None:
        self.write(seat, text)
        self.tap(f"hand:{seat}", "ctl-declare")
