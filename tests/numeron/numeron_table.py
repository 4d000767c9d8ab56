"""A Numeron table for tests: the generic one (tests/game_table.py) with numbers, calls and items."""

from __future__ import annotations

from typing import Any

from game_table import GameTable

from kikimimi.games.base import Effect, Say
from kikimimi.games.registry import get_info


def digit(v: int | str, copy_: int = 3) -> str:
    return f"digit-{v}-{copy_}"


class Table(GameTable):
    """Numeron on the generic test table (tests/game_table.py): numbers set and called digit by digit."""

    def __init__(self, **setup: Any) -> None:
        super().__init__("numeron", get_info("numeron").parse_setup(setup))

    @property
    def all(self) -> list[Effect]:
        """Everything said since the start."""
        return list(self.spoken)

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
        return [e for e in super().says() if (key is None or e.key == key) and (to is None or e.to == to)]

    def said(self, key: str, to: str | None = None, **params: Any) -> bool:
        return any(all(e.params.get(k) == v for k, v in params.items()) for e in self.says(key, to))

    def keys(self) -> list[str]:
        return [e.key for e in self.effects if isinstance(e, Say)]

    @property
    def report(self) -> dict[str, Any]:
        return self.game_report()
