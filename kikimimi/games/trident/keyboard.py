"""The Trident at the keyboard: a person plays one seat of the demo (`kikimimi demo --seat N`).

Pieces look alike on the real table, so the keyboard player sees only numbered pieces ("piece 3") and
learns what they are by listening. Pieces are numbered in the order they were dealt and heard, and a piece
keeps its number while held: what was learnt of "piece 3" stays true after a draw.
"""

from __future__ import annotations

from rich.console import Console

from kikimimi.games.base import FIELD, Event, Referee, Scan, hand
from kikimimi.games.keyboard import QUIT, Command, KeyboardPlayer
from kikimimi.games.trident.bots import BotTable
from kikimimi.games.trident.pieces import SUITS
from kikimimi.games.trident.state import CHOOSE_SUIT, DRAWING, START, TridentState
from kikimimi.words import counted


class KeyboardSeat(KeyboardPlayer):
    """A person at one seat, typing what they would do with their hands."""

    commands = (
        Command("m", "my pieces: their numbers (1 is the first dealt to you)"),
        Command("l N", "listen: tap your piece N on your hand reader; your earphone says what it is"),
        Command("p N", "play your piece N: tap it on the field reader"),
        Command("d", "draw: a piece from the basket onto your hand reader"),
        Command("b", "a basket piece straight onto the field (the start, or a draw you play at once)"),
        Command("x", "pass (after drawing)"),
        Command("t", "declare Trident"),
        Command("s SUIT", "choose a suit: heart, diamond, spade or clover (a few letters do)"),
        Command("forgot", "the Priest's \"everyone forgot\""),
    )

    def __init__(self, seat: int, seed: int, console: Console) -> None:
        super().__init__(seat, seed, console)
        self.bots = BotTable(seed + 1)  # for "a piece from the basket": the person does not choose it

    def pieces(self, s: TridentState) -> dict[int, str]:
        """My pieces by their numbers (see KeyboardPlayer.numbered)."""
        return self.numbered(s.hand(self.seat))

    def decide(self, s: TridentState) -> Event | str | None:
        mine = self.pieces(s)
        prompt = {DRAWING: f"draw {s.owed}: d", CHOOSE_SUIT: "choose a suit: s SUIT",
                  START: "a basket piece to the field: b"}.get(s.phase, "your move")
        while True:
            command, arg = self.ask(f"{counted(len(mine), 'piece')}, {prompt}")
            if command == "q":
                return QUIT
            if command == "m":
                self.console.print(" ".join(f"piece {i}" for i in mine) or "no pieces")
            elif command in ("l", "p") and arg.isdigit():
                if int(arg) not in mine:
                    self.which_held(arg, mine)
                    continue
                return Scan(hand(self.seat) if command == "l" else FIELD, mine[int(arg)])
            elif command in ("d", "b"):
                piece = self.bots._basket_piece(s)
                if piece is None:
                    self.console.print("the basket is empty")
                    continue
                return Scan(hand(self.seat) if command == "d" else FIELD, piece)
            elif command == "x":
                return Scan(hand(self.seat), "ctl-pass")
            elif command == "t":
                return Scan(hand(self.seat), "ctl-trident")
            elif command == "s" and (suit := _suit(arg)):
                return Scan(hand(self.seat), f"ctl-{suit}")
            elif command == "forgot":
                return Referee("forgot")
            else:
                self.not_understood(f"{command} {arg}".strip())


def _suit(text: str) -> str | None:
    matches = [s for s in SUITS if s.startswith(text.lower())] if text else []
    return matches[0] if len(matches) == 1 else None
