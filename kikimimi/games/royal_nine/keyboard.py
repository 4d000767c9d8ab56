"""Royal Nine at the keyboard: a person plays one seat of the demo (`kikimimi demo --game royal-nine --seat N`).

Cards are open in Royal Nine (every dealt card is said aloud), so the person's cards are shown by name,
numbered in the order they were dealt. With a person at the table the bots only place their own cards:
the person also lays the common card, deals, opens the common card and starts the next round, as the
people at a real table do.
"""

from __future__ import annotations

import random

from rich.console import Console

from kikimimi.games.base import FIELD, Event, Scan, hand
from kikimimi.games.keyboard import QUIT, Command, KeyboardPlayer
from kikimimi.games.royal_nine.cards import CELL_TAGS, CTL_GRID, CTL_HINT, CTL_NEXT, CTL_OPEN, deck
from kikimimi.games.royal_nine.state import COMMON, DEALS, HALF, PLACES, REVEAL, SCORED, SEATS, RoyalNineState
from kikimimi.words import counted


class KeyboardSeat(KeyboardPlayer):
    """A person at one Royal Nine seat; a placement is two taps (the card, then the cell)."""

    noun = "card"

    commands = (
        Command("m", "my cards in hand, numbered in the order they were dealt"),
        Command("p N CELL", "place my card N in cell CELL (1-9 in reading order; 5 is the common card)"),
        Command("g", "hear my grid on my earphone, cell by cell"),
        Command("i", "a hint: the best cell for the card I selected last"),
        Command("c", "lay the common card face down (a random card: nobody sees it)"),
        Command("d", "deal this half's cards, four to each seat, at random"),
        Command("o", "open the common card: the speaker scores both grids"),
        Command("n", "the next round"),
    )

    def __init__(self, seat: int, seed: int, console: Console) -> None:
        super().__init__(seat, seed, console)
        self.rng = random.Random(seed + 1)  # the person deals blind: the cards come at random
        self.pending: list[Event] = []

    def decide(self, s: RoyalNineState) -> Event | str | None:
        if self.pending:
            return self.pending.pop(0)
        mine = self.numbered(s.hand(self.seat))
        while True:
            command, arg = self.ask(self._prompt(s, mine))
            if command == "q":
                return QUIT
            if command == "m":
                self.console.print("  ".join(f"{n} {card}" for n, card in mine.items()) or "no cards in hand")
                continue
            if command == "p":
                number, _, cell = arg.partition(" ")
                if not number.isdigit() or not cell.strip().isdigit() or not 1 <= int(cell) <= 9:
                    self.not_understood(f"p {arg}")
                    continue
                if int(number) not in mine:
                    self.which_held(number, mine)
                    continue
                self.pending = [Scan(hand(self.seat), CELL_TAGS[int(cell) - 1])]
                return Scan(hand(self.seat), mine[int(number)])
            taps = self._taps(s, command)
            if taps is None:
                self.not_understood(f"{command} {arg}".strip())
                continue
            if not taps:
                self.console.print("no card left to deal")
                continue
            self.pending = taps[1:]
            return taps[0]

    def _prompt(self, s: RoyalNineState, mine: dict[int, str]) -> str:
        if s.phase == COMMON:
            return "lay the common card: c"
        if s.phase in DEALS:
            return "deal: d"
        if s.phase in PLACES:
            return f"{counted(len(mine), 'card')} to place: p N CELL (m lists them)"
        if s.phase == REVEAL:
            return "open the common card: o"
        if s.phase == SCORED:
            return "next round: n"
        return "your move"

    def _taps(self, s: RoyalNineState, command: str) -> list[Event] | None:
        mine = hand(self.seat)
        simple = {"g": Scan(mine, CTL_GRID), "i": Scan(mine, CTL_HINT), "o": Scan(FIELD, CTL_OPEN),
                  "n": Scan(FIELD, CTL_NEXT)}
        if command in simple:
            return [simple[command]]
        undealt = [card for card in deck(s.tens) if card not in s.dealt() | {s.common}]
        self.rng.shuffle(undealt)
        if command == "c":
            return [Scan(FIELD, undealt[0])] if undealt else []
        if command == "d":
            owed = [seat for seat in SEATS for _ in range(HALF - len(s.hand(seat)))]
            return [Scan(hand(seat), card) for seat, card in zip(owed, undealt, strict=False)]
        return None
