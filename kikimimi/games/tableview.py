"""One view of the table for both screens: what the Priest sees, as data.

Each game describes its table as a `TableModel` (its view module's `model`, named in its GameUI): the seats
with their names, counts, marks and whose turn it is; the field's last pieces; the basket; scores; and the
game's own items. Words are phrase keys of the console catalog with parameters (`["model.trident.required",
{"suit": "heart"}]`), said by each screen in its language; piece ids are printed on the pieces and shown as
they are. The tablet draws the model as a table (seats around it); hands are in it only when revealed.

Privacy: a game's `model` is given the public observation unless the Priest revealed the hands; it puts a
seat's hand in only when `reveal` is set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

Item = list[Any]  # [phrase key, params]


@dataclass
class SeatModel:
    seat: int
    name: str | None = None  # the player's name from the meeting, when there is one
    count: int | None = None  # pieces or cards in hand (public)
    hand: list[str] | None = None  # the pieces themselves: only when the Priest revealed the hands
    marks: list[Item] = dataclasses.field(default_factory=list)  # short words on the seat: declared, owes 2, chose
    score: int | None = None
    turn: bool = False  # the table waits for this seat


@dataclass
class TableModel:
    seats: list[SeatModel]
    phase: str | None = None
    field: list[str] = dataclasses.field(default_factory=list)  # the field's last pieces, oldest first
    basket: int | None = None  # pieces left to draw
    items: list[Item] = dataclasses.field(default_factory=list)  # the game's own: rows, calls, the required suit
    over: bool = False
    penalties: list[Item] = dataclasses.field(default_factory=list)  # each penalty given: seat and reason
    result: list[Item] = dataclasses.field(default_factory=list)  # the end: winner or ranking, final scores

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def mark(key: str, **params: Any) -> Item:
    return [key, params]


def seat_ids(mapping: Mapping[str, Any] | None) -> list[int]:
    return sorted(int(seat) for seat in (mapping or {}))


def penalty_items(data: Mapping[str, Any]) -> list[Item]:
    """The penalties a game records in its observation (`penalties`: [{seat, reason}]), one item each."""
    return [mark("model.penalty", seat=p.get("seat"), reason=p.get("reason"))
            for p in data.get("penalties") or [] if isinstance(p, Mapping)]


def winner_item(winner: Any, *, referee: bool = False) -> Item:
    """The end's first line: who won, or that no one did (or the Priest ended the game)."""
    if winner:
        return mark("model.result.winner", seat=winner)
    return mark("model.result.ended" if referee else "model.result.no_winner")


def score_items(scores: Mapping[str, Any] | None, key: str = "model.result.score") -> list[Item]:
    """Each seat's final figure (totals, bullheads, calls), seat by seat."""
    return [mark(key, seat=int(seat), score=value)
            for seat, value in sorted((scores or {}).items(), key=lambda kv: int(kv[0]))]


def table_model(function: Callable[..., Any] | None, report: Mapping[str, Any], public: Mapping[str, Any], *,
                reveal: bool, players: Mapping[int, str] | None = None, seats: int = 0) -> dict[str, Any]:
    """The game's model as JSON (from the public observation unless revealed); a game without one, or whose
    model fails, is drawn as its seats and whose turn it is."""
    data = report if reveal else public
    if function is not None:
        try:
            model: TableModel = function(data, reveal=reveal, players=players)
            if not model.penalties:  # penalties look the same in every game that records them
                model.penalties = penalty_items(data)
            return model.to_json()
        except Exception as exc:  # a game's model bug must not stop the console: the generic one, said
            generic = generic_model(data, players, seats)
            generic.items.insert(0, mark("model.failed", error=repr(exc)))
            return generic.to_json()
    return generic_model(data, players, seats).to_json()


def generic_model(data: Mapping[str, Any], players: Mapping[int, str] | None, seats: int) -> TableModel:
    turn = data.get("turn")
    return TableModel([SeatModel(seat, (players or {}).get(seat), turn=turn == seat) for seat in range(1, seats + 1)],
                      phase=data.get("phase"), over=data.get("phase") == "over", penalties=penalty_items(data))
