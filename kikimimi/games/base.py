"""The protocol every game of the table implements.

A game is pure: `apply(state, event) -> (state, effects)`, with no I/O, clock, threads or randomness.
The input state is never changed. Events are what the table heard (a tap on a named reader) or what
the referee did; effects are data that the table turns into speech, alerts and records.

Readers are named `field`, `hand:N` and, for games that need one, any other role the game lists
(e.g. a `table` reader for a card the table holds face down). Outputs are named `speaker` and
`hand:N`. A seat's secret choice (6 nimmt!'s card, Numeron's number) is just a tap on that seat's hand
reader that the game keeps in its state until every seat has chosen; what each seat may know is
`observe(state, seat)`, kept apart from the state itself (as in OpenSpiel).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

SPEAKER = "speaker"
FIELD = "field"


def hand(seat: int) -> str:
    """The name of a seat's hand reader, which is also the name of its earphone output."""
    return f"hand:{seat}"


def seat_of(role: str) -> int | None:
    """The seat of a `hand:N` reader or output; None for any other role."""
    if role.startswith("hand:"):
        try:
            return int(role[5:])
        except ValueError:
            return None
    return None


# -- events ---------------------------------------------------------------------------------------


class Scan(NamedTuple):
    """A tag tapped on a reader. `piece` is a canonical piece or control id, None for an unknown tag."""

    reader: str
    piece: str | None
    uid: str | None = None


class Referee(NamedTuple):
    """A referee (Priest) action: `forgot`, `undo`, `penalty`, `move`, `end`, ... with its parameters."""

    action: str
    params: Mapping[str, Any] = {}


Event = Scan | Referee


# -- effects --------------------------------------------------------------------------------------


class Say(NamedTuple):
    """Speak the phrase `key` with `params` on output `to` (`speaker` or `hand:N`)."""

    to: str
    key: str
    params: Mapping[str, Any] = {}


class Alert(NamedTuple):
    """Something the referee should see (a piece on a foreign hand reader, a refused referee action)."""

    key: str
    params: Mapping[str, Any] = {}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the ranking of seats best first, and what each seat kept."""

    ranking: tuple[int, ...]
    winner: int | None
    crashed: int | None
    pieces: Mapping[int, int] = field(default_factory=dict)
    points: Mapping[int, int] = field(default_factory=dict)
    reason: str = ""


class GameOver(NamedTuple):
    outcome: Outcome


Effect = Say | Alert | GameOver

S = TypeVar("S")


class Game(Protocol, Generic[S]):
    """One game of the table. Implementations are stateless objects; all state lives in `S`."""

    name: str

    def readers(self, seats: int) -> Sequence[str]:
        """The reader roles this game listens to."""
        ...

    def initial(self, setup: Mapping[str, Any]) -> S:
        """The state before the first event, from a set-up (first player, rules, ...)."""
        ...

    def apply(self, state: S, event: Event) -> tuple[S, list[Effect]]:
        """The state after `event` and what to say. Never raises on any event."""
        ...

    def observe(self, state: S, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (None: what everyone at the table may know)."""
        ...

    def report(self, state: S) -> dict[str, Any]:
        """The full state as plain data (the referee's view and the replay report)."""
        ...

    def summary(self, state: S) -> list[Effect]:
        """Public phrases that say where the game stands (after an undo, on resuming)."""
        ...

    def is_over(self, state: S) -> bool: ...
