"""One game's results per player, and how a table's `Outcome` becomes them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kikimimi.games.base import Outcome


class ResultError(ValueError):
    """Results that cannot be recorded, with what is wrong and how to put it right."""


@dataclass(frozen=True)
class PlayerResult:
    player: str
    place: int
    crashed: bool = False
    seat: int | None = None
    pieces: int | None = None
    points: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """A recorded game of a meeting: its number in the meeting and every player's result."""

    number: int
    results: tuple[PlayerResult, ...]
    journal_game_id: str | None = None
    reason: str = ""

    def of(self, player: str) -> PlayerResult | None:
        return next((r for r in self.results if r.player == player), None)


def check_results(results: Sequence[PlayerResult], where: str = "game") -> None:
    """Places 1..n once each, at most one crash and it is last; raises ResultError saying what."""
    names = [r.player for r in results]
    if len(results) < 2:
        raise ResultError(f"{where}: a game needs at least 2 players, got {len(results)}")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ResultError(f"{where}: player listed twice: {', '.join(dupes)}")
    places = sorted(r.place for r in results)
    if places != list(range(1, len(results) + 1)):
        raise ResultError(
            f"{where}: places must be 1..{len(results)}, each once; got {places} "
            f"(give every player a different place, best first)"
        )
    crashed = [r for r in results if r.crashed]
    if len(crashed) > 1:
        raise ResultError(f"{where}: only one player can crash in a game, got {[r.player for r in crashed]}")
    if crashed and crashed[0].place != len(results):
        raise ResultError(
            f"{where}: {crashed[0].player} crashed but has place {crashed[0].place}; a crash is last place"
        )
    seats = [r.seat for r in results if r.seat is not None]
    if len(seats) != len(set(seats)):
        raise ResultError(f"{where}: two players on one seat: {seats}")


def results_from_outcome(seat_players: Mapping[int, str], outcome: Outcome) -> tuple[PlayerResult, ...]:
    """Each seated player's place (from the ranking), crash, pieces and points."""
    seats = set(seat_players)
    if set(outcome.ranking) != seats or len(outcome.ranking) != len(seats):
        raise ResultError(
            f"outcome ranking {list(outcome.ranking)} does not name each seat {sorted(seats)} exactly once"
        )
    if outcome.crashed is not None and outcome.crashed not in seats:
        raise ResultError(f"outcome says seat {outcome.crashed} crashed, but seats are {sorted(seats)}")
    results = tuple(
        PlayerResult(
            player=seat_players[seat],
            place=place,
            crashed=outcome.crashed == seat,
            seat=seat,
            pieces=outcome.pieces.get(seat),
            points=outcome.points.get(seat),
        )
        for place, seat in enumerate(outcome.ranking, start=1)
    )
    check_results(results, "outcome")
    return results
