"""A Suhjong table for tests: taps by card value, every step checked for invariants and privacy."""

from __future__ import annotations

from kikimimi.games.base import Referee, Say, Scan
from kikimimi.games.phrasebook import flat
from kikimimi.games.session import Session
from kikimimi.games.suhjong.engine import Suhjong
from kikimimi.games.suhjong.invariants import check, privacy_leaks
from kikimimi.games.suhjong.pieces import CARDS, VALUE

OPS = {"*": "op-times", "+": "op-plus", "=": "op-equals", "(": "op-open", ")": "op-close"}


class Table:
    def __init__(self, **setup) -> None:
        self.game = Suhjong()
        self.session = Session(self.game, setup)
        self.effects: list = []
        self.spoken: list[Say] = []

    @property
    def state(self):
        return self.session.state

    def report(self) -> dict:
        return self.game.report(self.state)

    def feed(self, event) -> list:
        before = self.state
        snapshot = before.copy()
        effects = self.session.feed(event)
        assert before == snapshot, "apply changed its input"
        if not (isinstance(event, Referee) and event.action == "undo"):
            problems = check(before, event, effects, self.state) + privacy_leaks(before, event, effects, self.state)
            assert not problems, problems
        self.effects = effects
        self.spoken += [e for e in effects if isinstance(e, Say)]
        return effects

    def tap(self, reader: str, tag: str | None) -> list:
        return self.feed(Scan(reader, tag))

    def phrases(self) -> list[Say]:
        """What the last event said phrase by phrase (a joined utterance's parts in their place)."""
        return flat(e for e in self.effects if isinstance(e, Say))

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
