"""6 nimmt!'s test table: the generic one (tests/game_table.py) with cards by number, dealing given hands
and playing turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game_table import GameTable

from kikimimi.games.base import SPEAKER, Effect
from kikimimi.games.nimmt.pieces import card_id
from kikimimi.voice.catalog import catalog

SEED_ROWS = (11, 26, 48, 92)
SEED_TURNS = ((16, 51, 27, 77), (96, 34, 15, 100), (45, 47, 35, 39))


class Table(GameTable):
    """6 nimmt! on the generic test table: cards by number."""

    def __init__(self, players: int = 4, target: int = 0, first: int = 1) -> None:
        super().__init__("nimmt", {"players": players, "target": target, "first": first})

    @property
    def report(self) -> dict:
        return self.game_report()

    def tap(self, reader: str, card: int | str | None) -> list[Effect]:
        return super().tap(reader, card_id(card) if isinstance(card, int) else card)

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
