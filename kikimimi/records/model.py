"""What the records store hands out (players, meetings, a meeting's tables, what was recorded) and how a
stored result is read back, typed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kikimimi.games.registry import DEFAULT_GAME
from kikimimi.records.kinds import GAMES_PER_MEETING, OFFICIAL_KINDS, title_forms
from kikimimi.records.names import RecordError
from kikimimi.records.results import PlayerResult
from kikimimi.shown import printable

MAX_ID = 2**31 - 1  # the largest row id every store holds (PostgreSQL's integer): a larger one names nothing
STORED_NUMBER = 10**12  # a stored score beyond it is not a game's (a sum of many stays exact)


def check_title_form(title_form: str | None) -> str:
    """A title form the ladders know (None: their default); RecordError naming them otherwise."""
    known = title_forms()
    if title_form is None:
        return known[0]
    if title_form not in known:
        raise RecordError(f"title form must be one of {', '.join(known)}, not {title_form!r}")
    return title_form


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")

@dataclass(frozen=True)
class Player:
    id: int
    name: str
    title_form: str
    created_at: str


@dataclass(frozen=True)
class MeetingInfo:
    id: int
    label: str | None
    kind: str
    held_at: str
    status: str
    finished_at: str | None
    players: tuple[str, ...]
    games_played: int
    winner: str | None
    game: str = DEFAULT_GAME
    tables: int = 1

    @property
    def games_due(self) -> int | None:
        """Games a trial has at each of its tables (10 or 5); None for a contest."""
        return GAMES_PER_MEETING[self.kind]

    @property
    def official(self) -> bool:
        return self.kind in OFFICIAL_KINDS

    @property
    def order(self) -> tuple[str, int]:
        return (self.held_at, self.id)

    def describe(self) -> str:
        due = f"/{self.games_due * self.tables}" if self.games_due else ""
        label = f" {self.label!r}" if self.label else ""
        game = "" if self.game == DEFAULT_GAME else f"{self.game} "
        tables = f", {self.tables} tables" if self.tables > 1 else ""
        return f"meeting {self.id}{label} ({game}{self.kind}{tables}, {self.status}, {self.games_played}{due} games)"


@dataclass(frozen=True)
class TableInfo:
    """One table of a meeting: its players by seat, its games, who controls it and what it last said."""

    meeting_id: int
    table: int  # 1-based table number
    players: tuple[str, ...]  # in seat order: players[0] sits at seat 1
    games_played: int
    games_due: int | None  # a trial's games per table; None for a contest
    controller: str | None  # the name the table's controller joined with; None until one joins
    joined_at: str | None  # ISO 8601 UTC
    last_seen: str | None  # ISO 8601 UTC of the table's last state report
    state: dict[str, Any]  # the last state the table reported (opaque to the store)

    @property
    def seat_players(self) -> dict[int, str]:
        return {seat: name for seat, name in enumerate(self.players, start=1)}


@dataclass(frozen=True)
class GameItem:
    """One game to record with `store.games.record_many` (the arguments of `games.record`)."""

    results: Sequence[PlayerResult]
    journal_game_id: str | None = None
    reason: str = ""
    details: Mapping[str, Any] | None = None
    table: int | None = None


@dataclass(frozen=True)
class Recorded:
    """A game `games.record_many` recorded, or found already recorded (`duplicate`): its number in the
    meeting and its round at its table."""

    number: int
    round: int
    duplicate: bool = False


def table_sizes(players: int, tables: int) -> list[int]:
    """Players dealt over tables as evenly as possible, the larger tables first (13 over 4: 4,3,3,3)."""
    base, extra = divmod(players, tables)
    return [base + 1 if t < extra else base for t in range(tables)]


def stored_json(text: str | None, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except (ValueError, RecursionError):
        raise ValueError(f"{what} are not JSON") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} are not a JSON object")
    return value


def stored_result(row: Any) -> PlayerResult:
    """One stored result, typed (ValueError saying which field is not what a result holds)."""
    place, score, won = row.place, row.score, row.won
    if type(place) is not int or not 1 <= place <= 64:
        raise ValueError(f"has place {printable(repr(place))[:40]}")
    if score is not None and (type(score) is not int or abs(score) > STORED_NUMBER):
        raise ValueError(f"has score {printable(repr(score))[:40]}")
    if won not in (0, 1, True, False):
        raise ValueError(f"has won {printable(repr(won))[:40]}")
    return PlayerResult(row.name, place, row.seat, score, bool(won),
                        seat_keys(stored_json(row.details, "details")))


def seat_keys(value: Any) -> Any:
    """JSON's string keys back to seat numbers where a detail is kept per seat."""
    if isinstance(value, dict):
        return {int(k) if isinstance(k, str) and k.isdigit() else k: seat_keys(v) for k, v in value.items()}
    return value




@dataclass(frozen=True)
class FinishedMeeting:
    """A meeting played elsewhere (a paper sheet), to add to the records finished: its games at one table,
    in the order played, and a contest's winner (None: the top of its standings)."""

    kind: str
    players: Sequence[str]
    game: str
    label: str | None
    held_at: str
    games: Sequence[GameItem]
    winner: str | None = None
