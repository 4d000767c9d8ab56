"""A meeting's standings: who has won most so far, pure over the meeting's recorded games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kikimimi.records.results import GameRecord


@dataclass(frozen=True)
class Standing:
    position: int  # equal players share a position
    player: str
    games: int
    wins: int
    places: tuple[int, ...]  # how many 1st, 2nd, 3rd ... places
    crashes: int
    points: int  # points left in hand, summed (competition rules rank by these)
    pieces: int

    def as_dict(self) -> dict[str, object]:
        return {
            "position": self.position,
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "places": list(self.places),
            "crashes": self.crashes,
            "points": self.points,
            "pieces": self.pieces,
        }


def standings(games: Iterable[GameRecord], players: Sequence[str] = ()) -> list[Standing]:
    """Most wins first, then fewest points left in hand, then fewest crashes.

    `players` lists the meeting's players so that someone without a game yet still shows.
    """
    games = list(games)
    names = list(dict.fromkeys([*players, *(r.player for g in games for r in g.results)]))
    size = max([len(names), *(len(g.results) for g in games)], default=0)
    rows = []
    for name in names:
        mine = [r for g in games for r in g.results if r.player == name]
        places = [0] * size
        for r in mine:
            places[r.place - 1] += 1
        rows.append(
            (
                name,
                len(mine),
                places[0] if places else 0,
                tuple(places),
                sum(r.crashed for r in mine),
                sum(r.points or 0 for r in mine),
                sum(r.pieces or 0 for r in mine),
            )
        )
    rows.sort(key=lambda row: (-row[2], row[5], row[4]))
    result: list[Standing] = []
    for index, (name, played, wins, places, crashes, points, pieces) in enumerate(rows):
        position = index + 1
        if result and (result[-1].wins, result[-1].points, result[-1].crashes) == (wins, points, crashes):
            position = result[-1].position
        result.append(Standing(position, name, played, wins, places, crashes, points, pieces))
    return result
