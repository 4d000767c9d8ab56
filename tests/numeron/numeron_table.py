"""A Numeron table for tests: taps by name, every step checked for privacy leaks and purity."""

from __future__ import annotations

import copy
from typing import Any

from kikimimi.games.base import FIELD, Effect, Event, Referee, Say, Scan, hand
from kikimimi.games.numeron.engine import Numeron
from kikimimi.games.numeron.invariants import privacy_leaks
from kikimimi.games.registry import get_info

GAME = Numeron()


def digit(v: int | str, copy_: int = 3) -> str:
    return f"digit-{v}-{copy_}"


class Table:
    def __init__(self, **setup: Any) -> None:
        self.setup = get_info("numeron").parse_setup(setup)
        self.state = GAME.initial(self.setup)
        self.effects: list[Effect] = []  # of the last event
        self.all: list[Effect] = []

    def feed(self, event: Event) -> list[Effect]:
        before = self.state
        snapshot = copy.deepcopy(before)
        after, fx = GAME.apply(before, event)
        assert before == snapshot, "apply changed its input"
        leaks = privacy_leaks(before, event, fx, after)
        assert not leaks, leaks
        self.state, self.effects = after, fx
        self.all += fx
        return fx

    # taps
    def hand(self, seat: int, tag: str) -> list[Effect]:
        return self.feed(Scan(hand(seat), tag))

    def field(self, tag: str) -> list[Effect]:
        return self.feed(Scan(FIELD, tag))

    def referee(self, action: str, **params: Any) -> list[Effect]:
        return self.feed(Referee(action, params))

    def set_number(self, seat: int, number: str) -> None:
        for d in number:
            self.hand(seat, digit(d, seat))

    def start(self, n1: str, n2: str) -> Table:
        self.set_number(1, n1)
        self.set_number(2, n2)
        assert self.state.phase == "play"
        return self

    def call(self, number: str) -> list[Effect]:
        out: list[Effect] = []
        for d in number:
            out += self.field(digit(d))
        return out

    def item(self, seat: int, name: str) -> list[Effect]:
        return self.field(f"item-{name}-{seat}")

    # what was said
    def says(self, key: str | None = None, to: str | None = None) -> list[Say]:
        return [e for e in self.effects if isinstance(e, Say) and (key is None or e.key == key)
                and (to is None or e.to == to)]

    def said(self, key: str, to: str | None = None, **params: Any) -> bool:
        return any(all(e.params.get(k) == v for k, v in params.items()) for e in self.says(key, to))

    def keys(self) -> list[str]:
        return [e.key for e in self.effects if isinstance(e, Say)]

    @property
    def report(self) -> dict[str, Any]:
        return GAME.report(self.state)
