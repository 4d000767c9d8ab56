"""A meeting's standings: who has won most so far, pure over the meeting's recorded games.

Any game: a win is what the game's outcome says (`won`; a shared win counts for each winner), and
players level on wins stand by the sum of their places, where players level in a game (both won or
both not, on the same score) share the better place. A game's ladder may say otherwise
(`meeting_win`, `standing_key`) and names the figures of its own the standings show
(`standing_figures`, from the summed score and the `counts` of the results' details).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.games.ladder import AnyLadder
from kikimimi.records.results import GameRecord, PlayerResult


@dataclass(frozen=True)
class Standing:
    position: int  # equal players share a position
    player: str
    games: int
    wins: int
    places: tuple[int, ...]  # how many 1st, 2nd, 3rd ... places
    score: int  # the scores summed, in the game's own unit
    place_sum: int = 0
    # Each whole-number detail of the player's results summed, each true flag counted, by its name.
    counts: Mapping[str, int] = field(default_factory=dict, hash=False)
    figures: Mapping[str, int] = field(default_factory=dict, hash=False)  # the game's own, by its ladder

    def as_dict(self) -> dict[str, object]:
        return {
            "position": self.position,
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "places": list(self.places),
            **(self.figures or {"score": self.score}),
        }


def _shared_place(game: GameRecord, result: PlayerResult) -> int:
    """The result's place, or the best place of those level with it in the game (same win, same score)."""
    if result.score is None:
        return int(result.place)
    return min(r.place for r in game.results if (r.won, r.score) == (result.won, result.score))


def _counts(results: Iterable[PlayerResult]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for r in results:
        for name, value in r.details.items():
            if isinstance(value, bool | int):  # a flag counts 1 when true; a whole number adds itself
                counts[name] += int(value)
    return dict(counts)


def _default_key(standing: Any) -> tuple[Any, ...]:
    return (-standing.wins, standing.place_sum)


def standings(
    games: Iterable[GameRecord], players: Sequence[str] = (), ladder: AnyLadder | None = None
) -> list[Standing]:
    """Most wins first, then the game's own order (see the module); equal players share a position.

    `players` lists the meeting's players so that someone without a game yet still shows; `ladder`
    is the meeting's game's ladder, if it has one.
    """
    key = ladder.standing_key if ladder is not None else _default_key
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
        wins = sum(ladder.meeting_win(r.place, r.won) if ladder is not None else r.won for r in mine)
        row = Standing(0, name, len(mine), wins, tuple(places), sum(r.score or 0 for r in mine),
                       sum(shared[g.number, name] for g in games if g.of(name) is not None), _counts(mine))
        rows.append(row if ladder is None else Standing(
            row.position, row.player, row.games, row.wins, row.places, row.score, row.place_sum, row.counts,
            ladder.standing_figures(row)))
    rows.sort(key=key)  # stable: equals keep the meeting's seat order
    result: list[Standing] = []
    for index, row in enumerate(rows):
        position = result[-1].position if result and key(result[-1]) == key(row) else index + 1
        result.append(Standing(position, row.player, row.games, row.wins, row.places, row.score, row.place_sum,
                               row.counts, row.figures))
    return result
