"""Numeron at the keyboard: a person plays one seat of the demo (`kikimimi demo --game numeron --seat N`).

The person types what they would tap: their number's digits on their own hand reader, a call's digits on
the field (the call strip's cards), an item card on the field, a place tag. The table answers as it
would the cards; the transcript shows only what this seat may hear.
"""

from __future__ import annotations

from rich.console import Console

from kikimimi.games.base import FIELD, Event, Scan, hand
from kikimimi.games.keyboard import QUIT, Command, KeyboardPlayer
from kikimimi.games.numeron.pieces import CTL_CLEAR, CTL_REPEAT, ITEMS
from kikimimi.games.numeron.state import DOUBLE_CHOICE, SET, NumeronState, other

CALL_STRIP = 3  # the digit cards of the call strip (copies 1 and 2 are each seat's own)


class KeyboardSeat(KeyboardPlayer):
    """A person at one Numeron seat; a typed command may be several taps, made one after the other."""

    commands = (
        Command("m", "my number and the items I have used"),
        Command("s 042", "set my number: its digits on my hand reader, left to right (clears an entry first)"),
        Command("c 123", "call: the digits on the field reader, left to right; the speaker judges"),
        Command("i NAME", f"use an item on the field before the call ({', '.join(ITEMS)})"),
        Command("k K", "tap place K on my hand reader (when the other seat's DOUBLE asks me for a place)"),
        Command("f ID", "tap any card or tag on the field reader (an item's step: a digit-V-3, pos-K...)"),
        Command("y ID", "tap any card or tag on my hand reader"),
        Command("x", "clear: my entry, my call in progress, or an item not yet spent"),
        Command("r", "repeat: hear again what my hand reader said last"),
    )

    def __init__(self, seat: int, seed: int, console: Console) -> None:
        super().__init__(seat, seed, console)
        self.pending: list[Event] = []  # the rest of a typed number or call

    def decide(self, s: NumeronState) -> Event | str | None:
        if self.pending:
            return self.pending.pop(0)
        mine = hand(self.seat)
        while True:
            command, arg = self.ask(self._prompt(s))
            if command == "q":
                return QUIT
            if command == "m":
                number = s.number(self.seat) or s.entries[self.seat - 1] or "not set"
                used = ", ".join(s.used_by(self.seat)) or "none"
                self.console.print(f"your number: {number}; items used: {used}")
                continue
            taps = self._taps(s, command, arg, mine)
            if taps is None:
                self.not_understood(f"{command} {arg}".strip())
                continue
            self.pending = taps[1:]
            return taps[0]

    def _prompt(self, s: NumeronState) -> str:
        if s.phase == SET:
            return f"set your {s.digits}-digit number: s DIGITS"
        if s.step == DOUBLE_CHOICE and s.turn == other(self.seat):
            return "the other seat's DOUBLE: choose a place, k K"
        return f"your turn: c {s.digits} DIGITS to call" + (", i NAME for an item" if s.items else "")

    def _taps(self, s: NumeronState, command: str, arg: str, mine: str) -> list[Event] | None:
        if command in ("s", "c") and arg.isdigit():
            if command == "s":
                clear: list[Event] = [Scan(mine, CTL_CLEAR)] if s.entries[self.seat - 1] else []
                return clear + [Scan(mine, f"digit-{d}-{self.seat}") for d in arg]
            return [Scan(FIELD, f"digit-{d}-{CALL_STRIP}") for d in arg]
        if command == "i" and arg in ITEMS:
            return [Scan(FIELD, f"item-{arg}-{self.seat}")]
        if command == "k" and arg.isdigit():
            return [Scan(mine, f"pos-{arg}")]
        if command in ("f", "y") and arg:
            return [Scan(FIELD if command == "f" else mine, arg)]
        if command == "x":
            return [Scan(mine, CTL_CLEAR)]
        if command == "r":
            return [Scan(mine, CTL_REPEAT)]
        return None
