"""The Trident at the keyboard: a person plays one seat of the demo (`kikimimi demo --seat N`).

Pieces look alike on the real table, so the keyboard player sees only numbered pieces ("piece 3") and
learns what they are by listening.
"""

from __future__ import annotations

import hashlib

from rich.console import Console

from kikimimi.games.base import FIELD, Event, Referee, Scan, hand
from kikimimi.games.trident.bots import BotTable
from kikimimi.games.trident.pieces import SUITS
from kikimimi.games.trident.state import CHOOSE_SUIT, DEAL, DRAWING, START, TridentState

HELP = """Your commands (you are seat {seat}; pieces are numbered, listen to learn them):
  l N   listen: tap your piece N on your hand reader      p N   play your piece N on the field
  d     draw: a piece from the basket onto your reader    b     a basket piece straight onto the field
  x     pass        t     declare Trident                   s SUIT  choose a suit (heart diamond spade clover)
  h     your pieces ?     this help                          q     leave the game"""


class KeyboardSeat:
    """A person at one seat, typing what they would do with their hands."""

    def __init__(self, seat: int, seed: int, console: Console) -> None:
        self.seat = seat
        console.print(HELP.format(seat=seat))
        self.salt = str(seed).encode()
        self.console = console
        self.bots = BotTable(seed + 1)  # for "a piece from the basket": the person does not choose it

    def to_move(self, s: TridentState) -> bool:
        if s.phase == DEAL:
            return False  # the bots hand out the deal; each piece is still spoken to its seat
        if s.phase == DRAWING:
            return s.drawer == self.seat
        return s.turn == self.seat

    def pieces(self, s: TridentState) -> list[str]:
        """My pieces in an order that tells nothing about what they are."""
        return sorted(s.hand(self.seat), key=lambda p: hashlib.sha256(self.salt + p.encode()).hexdigest())

    def decide(self, s: TridentState) -> Event | str | None:
        mine = self.pieces(s)
        prompt = {DRAWING: f"draw {s.owed}: d", CHOOSE_SUIT: "choose a suit: s SUIT",
                  START: "a basket piece to the field: b"}.get(s.phase, "your move")
        while True:
            try:
                text = self.console.input(f"[bold]seat {self.seat}[/] ({len(mine)} pieces, {prompt})> ").strip()
            except EOFError:
                return "quit"
            cmd, _, arg = text.partition(" ")
            if cmd == "q":
                return "quit"
            if cmd in ("?", ""):
                self.console.print(HELP.format(seat=self.seat))
            elif cmd == "h":
                self.console.print(" ".join(f"piece {i}" for i in range(1, len(mine) + 1)) or "no pieces")
            elif cmd in ("l", "p") and arg.isdigit() and 1 <= int(arg) <= len(mine):
                piece = mine[int(arg) - 1]
                return Scan(hand(self.seat) if cmd == "l" else FIELD, piece)
            elif cmd in ("d", "b"):
                piece = self.bots._basket_piece(s)
                if piece is None:
                    self.console.print("the basket is empty")
                    continue
                return Scan(hand(self.seat) if cmd == "d" else FIELD, piece)
            elif cmd == "x":
                return Scan(hand(self.seat), "ctl-pass")
            elif cmd == "t":
                return Scan(hand(self.seat), "ctl-trident")
            elif cmd == "s" and (suit := _suit(arg)):
                return Scan(hand(self.seat), f"ctl-{suit}")
            elif cmd == "forgot":
                return Referee("forgot")
            else:
                self.console.print(f"not understood: {text!r} (? for help)")


def _suit(text: str) -> str | None:
    matches = [s for s in SUITS if s.startswith(text.lower())] if text else []
    return matches[0] if len(matches) == 1 else None
