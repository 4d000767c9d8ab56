"""The Trident at the keyboard: a person plays one seat of the demo (`kikimimi demo --seat N`).

Pieces look alike on the real table, so the keyboard player sees only numbered pieces ("piece 3") and
learns what they are by listening. A piece keeps its number while held (numbers are given in the order
pieces come to hand, which tells nothing about them): what was learnt of "piece 3" stays true after a draw.
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
        self.labels: dict[str, int] = {}  # piece -> its number, given when first held
        self.console = console
        self.bots = BotTable(seed + 1)  # for "a piece from the basket": the person does not choose it

    def to_move(self, s: TridentState) -> bool:
        if s.phase == DEAL:
            return False  # the bots hand out the deal; each piece is still spoken to its seat
        if s.phase == DRAWING:
            return s.drawer == self.seat
        return s.turn == self.seat

    def pieces(self, s: TridentState) -> dict[int, str]:
        """My pieces by their numbers: each numbered when it first came to hand, in an order that tells
        nothing about what they are (the hand is a set: newcomers are numbered by a hash, not by name)."""
        held = s.hand(self.seat)
        newcomers = held - self.labels.keys()
        for piece in sorted(newcomers, key=lambda p: hashlib.sha256(self.salt + p.encode()).hexdigest()):
            self.labels[piece] = len(self.labels) + 1
        return {self.labels[p]: p for p in sorted(held, key=self.labels.__getitem__)}

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
                self.console.print(" ".join(f"piece {i}" for i in mine) or "no pieces")
            elif cmd in ("l", "p") and arg.isdigit() and int(arg) in mine:
                piece = mine[int(arg)]
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
