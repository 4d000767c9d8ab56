"""A meeting's standings: who has won most so far, pure over the meeting's recorded games.

Any game: a win is what the game's outcome says (`won`; a shared win counts for each winner), and
players level on wins stand by the sum of their places, where players level in a game (both won or
both not, on the same score) share the better place. A game's ladder module may say otherwise
(`meeting_win(place, won)`, `standing_key(standing)`): the Trident counts every 1st place and then
orders by points left in hand and crashes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from kikimimi.records.results import GameRecord


@dataclass(frozen=True)
class Standing:
    position: int  # equal players share a position
    player: str
    games: int
    wins: int
    places: tuple[int, ...]  # how many 1st, 2nd, 3rd ... places
    crashes: int
    points: int  # the scores summed (the Trident's points left in hand)
    pieces: int
    place_sum: int = 0

    @property
    def score(self) -> int:
        return self.points

    def as_dict(self) -> dict[str, object]:
        return {
            "position": self.position,
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "places": list(self.places),
            "crashes": self.crashes,
            "points": self.points,
            "score": self.points,
            "pieces": self.pieces,
        }


def _won(place: int, won: bool) -> bool:
    return won


def _key(standing: Standing) -> tuple[int, int]:
    return (-standing.wins, standing.place_sum)


def _shared_place(game: GameRecord, result: Any) -> int:
    """The result's place, or the best place of those level with it in the game (same win, same score)."""
    if result.score is None:
        return int(result.place)
    return min(r.place for r in game.results if (r.won, r.score) == (result.won, result.score))


def standings(
    games: Iterable[GameRecord], players: Sequence[str] = (), ladder: ModuleType | None = None
) -> list[Standing]:
    """Most wins first, then the game's own order (see the module); equal players share a position.

    `players` lists the meeting's players so that someone without a game yet still shows; `ladder`
    is the meeting's game's ladder module, if it has one.
    """
    is_win: Callable[[int, bool], bool] = getattr(ladder, "meeting_win", _won)
    key: Callable[[Standing], Any] = getattr(ladder, "standing_key", _key)
    games = list(games)
    names = list(dict.fromkeys([*players, *(r.player for g in games for r in g.results)]))
    size = max([len(names), *(len(g.results) for g in games)], default=0)
    rows = []
    shared = {(g.number, r.player): _shared_place(g, r) for g in games for r in g.results}
    for name in names:
        mine = [r for g in games for r in g.results if r.player == name]
        places = [0] * size
        for r in mine:
            places[r.place - 1] += 1
        rows.append(
            Standing(
                0,
                name,
                len(mine),
                sum(is_win(r.place, r.won) for r in mine),
                tuple(places),
                sum(r.crashed for r in mine),
                sum(r.score or 0 for r in mine),
                sum(r.pieces or 0 for r in mine),
                sum(shared[g.number, name] for g in games if g.of(name) is not None),
            )
        )
    rows.sort(key=key)  # stable: equals keep the meeting's seat order
    result: list[Standing] = []
    for index, row in enumerate(rows):
        position = result[-1].position if result and key(result[-1]) == key(row) else index + 1
        result.append(Standing(position, row.player, row.games, row.wins, row.places, row.crashes,
                               row.points, row.pieces, row.place_sum))
    return result
