"""A test table: a Session over the engine with helpers to deal given hands and play turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kikimimi.games.base import FIELD, SPEAKER, Effect, Event, Referee, Say, Scan, hand
from kikimimi.games.nimmt.engine import Nimmt
from kikimimi.games.nimmt.invariants import check
from kikimimi.games.nimmt.pieces import card_id
from kikimimi.games.phrasebook import flat
from kikimimi.games.session import Session
from kikimimi.voice.catalog import catalog

SEED_ROWS = (11, 26, 48, 92)
SEED_TURNS = ((16, 51, 27, 77), (96, 34, 15, 100), (45, 47, 35, 39))


class Table:
    def __init__(self, players: int = 4, target: int = 0, first: int = 1) -> None:
        self.session = Session(Nimmt(), {"players": players, "target": target, "first": first})
        self.effects: list[Effect] = []
        self.problems: list[str] = []

    @property
    def state(self):
        return self.session.state

    @property
    def report(self) -> dict:
        return self.session.game.report(self.state)

    def feed(self, event: Event) -> list[Effect]:
        before = self.state
        fx = self.session.feed(event)
        if not (isinstance(event, Referee) and event.action == "undo"):
            self.problems += check(before, event, fx, self.state)
        self.effects = fx
        return fx

    def tap(self, reader: str, card: int | str | None) -> list[Effect]:
        piece = card_id(card) if isinstance(card, int) else card
        return self.feed(Scan(reader, piece))

    def field(self, card: int | str | None) -> list[Effect]:
        return self.tap(FIELD, card)

    def hand(self, seat: int, card: int | str | None) -> list[Effect]:
        return self.tap(hand(seat), card)

    def deal(self, hands: Mapping[int, Sequence[int]], rows: Sequence[int]) -> None:
        for card in rows:
            self.field(card)
        for seat, cards in hands.items():
            for card in cards:
                self.hand(seat, card)

    def play(self, cards: Sequence[int]) -> list[Effect]:
        """Every seat chooses (seat 1 first); the effects of all the taps."""
        out: list[Effect] = []
        for card in cards:
            out += self.field(card)
        return out

    def phrases(self, effects: Sequence[Effect] | None = None) -> list[Say]:
        """What was said phrase by phrase (a joined utterance's parts in their place)."""
        return flat(e for e in (self.effects if effects is None else effects) if isinstance(e, Say))

    def said(self, to: str = SPEAKER, lang: str = "en", effects: Sequence[Effect] | None = None) -> list[str]:
        words = catalog(lang, "nimmt")
        return [words.render(e.key, e.params).text for e in self.phrases(effects) if e.to == to]

    def sent(self, effects: Sequence[Effect] | None = None) -> list[tuple[str, str]]:
        return [(e.to, e.key) for e in self.phrases(effects)]


def filler(hands: Mapping[int, Sequence[int]], rows: Sequence[int], size: int = 10) -> dict[int, list[int]]:
    """The given cards of each seat completed to `size` with unused cards (highest first)."""
    used = set(rows) | {c for cards in hands.values() for c in cards}
    spare = [c for c in range(104, 0, -1) if c not in used]
    out = {}
    for seat, cards in hands.items():
        extra = [spare.pop(0) for _ in range(size - len(cards))]
        out[seat] = [*cards, *extra]
    return out


def seed_table() -> Table:
    """The seed's game: seats 1-4 are players a-d, rows 11 / 26 / 48 / 92."""
    table = Table(4)
    given = {seat: [turn[seat - 1] for turn in SEED_TURNS] for seat in range(1, 5)}
    table.deal(filler(given, SEED_ROWS), SEED_ROWS)
    return table
