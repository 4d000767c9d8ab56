"""What every game's keyboard seat shares (`kikimimi demo --seat N`): the prompt, the help that says what each
command does, and pieces numbered in the order they were dealt and heard.

A game's own `keyboard.py` lists its commands and turns a typed command into the taps a person would make;
the demo hands it every step (`observe`), so it knows the order in which pieces reached its seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from kikimimi.games.base import Event, Scan, hand

QUIT = "quit"


@dataclass(frozen=True)
class Command:
    typed: str  # how it is typed: "l N"
    does: str  # what it does, in a few words


HELP = Command("h", "this help: what each command does")
LEAVE = Command("q", "leave the game")


class KeyboardPlayer:
    """The shared part: the help, the prompt, and numbering the pieces a seat holds."""

    commands: Sequence[Command] = ()
    noun = "piece"  # what the seat holds, as the person is told

    def __init__(self, seat: int, seed: int, console: Console) -> None:
        self.seat = seat
        self.console = console
        self.salt = str(seed).encode()
        self.labels: dict[str, int] = {}  # piece -> its number, given when it first came to hand
        self.heard: list[str] = []  # pieces tapped on this seat's reader, in order (what the seat heard)
        self.show_help()

    def show_help(self) -> None:
        lines = [f"You are seat {self.seat}. Type a command and Enter:"]
        lines += [f"  {c.typed:<10} {c.does}" for c in (*self.commands, HELP, LEAVE)]
        self.console.print(escape("\n".join(lines)))

    def observe(self, event: Event) -> None:
        """Every step of the table (the demo calls this): pieces reaching this seat's reader, in order."""
        if isinstance(event, Scan) and event.reader == hand(self.seat) and event.piece is not None:
            self.heard.append(event.piece)

    def numbered(self, held: Collection[str]) -> dict[int, str]:
        """The held pieces by their numbers. A piece is numbered when it first comes to hand, in the order it
        was dealt and heard on this seat's reader, and keeps its number while held; a piece that came by
        another way (the Priest moved it) is numbered after, in an order that tells nothing about it."""
        order = {piece: i for i, piece in enumerate(self.heard)}  # the last time each was heard
        newcomers = set(held) - self.labels.keys()
        for piece in sorted(newcomers, key=lambda p: (order.get(p, len(order)), self._blind(p))):
            self.labels[piece] = len(self.labels) + 1
        return {self.labels[p]: p for p in sorted(held, key=self.labels.__getitem__)}

    def _blind(self, piece: str) -> str:
        return hashlib.sha256(self.salt + piece.encode()).hexdigest()

    def ask(self, prompt: str) -> tuple[str, str]:
        """(command, argument) typed; ("q", "") at the end of input. `h` and an empty line show the help."""
        while True:
            try:
                text = self.console.input(f"[bold]seat {self.seat}[/] ({escape(prompt)})> ").strip()
            except EOFError:
                return LEAVE.typed, ""
            command, _, argument = text.partition(" ")
            if command in ("", HELP.typed, "?"):
                self.show_help()
                continue
            return command, argument.strip()

    def not_understood(self, text: str) -> None:
        self.console.print(f"not understood: {escape(repr(text))} (h: what each command does)")

    def which_held(self, typed: str, mine: dict[int, str]) -> None:
        """A number that is no piece of this seat (any more): say which pieces it holds."""
        held = " ".join(str(n) for n in mine) or "none"
        self.console.print(f"you hold no {self.noun} {escape(typed)} now; your {self.noun}s: {held}")
