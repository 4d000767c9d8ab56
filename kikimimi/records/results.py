"""One game's results per player, and how a table's `Outcome` (of any game) becomes them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.games.base import Outcome
from kikimimi.games.ladder import AnyLadder
from kikimimi.records.names import name_key


class ResultError(ValueError):
    """Results that cannot be recorded, with what is wrong and how to put it right."""


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in one game.

    `place` is the player's index in the game's ranking (1..n, each once, best first); `won` whether
    the outcome names the player among its winners (a shared win names several; a game may end with
    none); `score` the player's score in the game's own unit; `details` what else the game says of
    this seat, by name (its ladder reads its own: see `kikimimi.games.ladder`).
    """

    player: str
    place: int
    seat: int | None = None
    score: int | None = None
    won: bool = False
    details: Mapping[str, Any] = field(default_factory=dict, compare=True, hash=False)


@dataclass(frozen=True)
class GameRecord:
    """A recorded game of a meeting: its number in the meeting, its game, every player's result."""

    number: int
    results: tuple[PlayerResult, ...]
    journal_game_id: str | None = None
    reason: str = ""
    game: str = ""
    details: Mapping[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def of(self, player: str) -> PlayerResult | None:
        return next((r for r in self.results if r.player == player), None)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(r.player for r in sorted(self.results, key=lambda r: r.place) if r.won)


def check_results(results: Sequence[PlayerResult], where: str = "game", rules: AnyLadder | None = None) -> None:
    """Places 1..n once each; the winners (none, one, or a shared win) hold the best places; one
    player a seat; and what the game's ladder (`rules`) says its rules cannot give. Raises
    ResultError saying what is wrong."""
    names = [name_key(r.player) for r in results]  # "jo" and "Jo" are one player
    if len(results) < 2:
        raise ResultError(f"{where}: a game needs at least 2 players, got {len(results)}")
    dupes = sorted({r.player for r in results if names.count(name_key(r.player)) > 1})
    if dupes:
        raise ResultError(f"{where}: player listed twice: {', '.join(dupes)}")
    places = sorted(r.place for r in results)
    if places != list(range(1, len(results) + 1)):
        raise ResultError(
            f"{where}: places must be 1..{len(results)}, each once; got {places} "
            f"(give every player a different place, best first; players level on the game's score "
            f"keep the order of its ranking, and a shared win marks each winner as won)"
        )
    winners = sorted(r.place for r in results if r.won)
    if winners != list(range(1, len(winners) + 1)):
        raise ResultError(
            f"{where}: winners hold places {winners}; the winners of a game are its best places, "
            f"1..{len(winners)}"
        )
    problems = rules.result_problems(results) if rules is not None else []
    if problems:
        raise ResultError(f"{where}: {problems[0]}")
    seats = [r.seat for r in results if r.seat is not None]
    if len(seats) != len(set(seats)):
        raise ResultError(f"{where}: two players on one seat: {seats}")


def seat_details(outcome: Outcome, seat: int) -> dict[str, Any]:
    """What the outcome's details say of one seat: every detail kept per seat (`{"rounds": {1: [...]}}`)."""
    return {key: value[seat] for key, value in outcome.details.items() if isinstance(value, Mapping) and seat in value}


def game_details(outcome: Outcome, rules: AnyLadder | None) -> dict[str, Any]:
    """The outcome's details that belong to no seat, less the ladder's result fields (kept per result)."""
    own = rules.result_fields if rules is not None else {}
    return {key: value for key, value in outcome.details.items()
            if key not in own and not isinstance(value, Mapping)}


def results_from_outcome(seat_players: Mapping[int, str], outcome: Outcome,
                         rules: AnyLadder | None) -> tuple[PlayerResult, ...]:
    """Each seated player's place (their index in the ranking), win, score and details (with what the
    game's ladder `rules` keeps on each seat: the game's `ladder`, None for a game without one, always
    said, since leaving it out would lose the game's own facts)."""
    seats = set(seat_players)
    if set(outcome.ranking) != seats or len(outcome.ranking) != len(seats):
        raise ResultError(
            f"outcome ranking {list(outcome.ranking)} does not name each seat {sorted(seats)} exactly once"
        )
    strangers = sorted(set(outcome.winners) - seats)
    if strangers or len(set(outcome.winners)) != len(outcome.winners):
        raise ResultError(f"outcome winners {list(outcome.winners)} must be seats of {sorted(seats)}, each once")
    try:
        own = rules.seat_details(outcome, sorted(seats)) if rules is not None else {}
    except ValueError as exc:
        raise ResultError(str(exc)) from None
    results = tuple(
        PlayerResult(
            player=seat_players[seat],
            place=place,
            seat=seat,
            score=outcome.scores.get(seat),
            won=seat in outcome.winners,
            details={**seat_details(outcome, seat), **own.get(seat, {})},
        )
        for place, seat in enumerate(outcome.ranking, start=1)
    )
    check_results(results, "outcome", rules)
    return results
