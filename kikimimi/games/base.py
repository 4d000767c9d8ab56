"""The protocol every game of the table implements.

A game is pure: `apply(state, event) -> (state, effects)`, with no I/O, clock, threads or randomness.
The input state is never changed. Events are what the table heard (a tap on a named reader) or what
the referee did; effects are data that the table turns into speech, alerts and records.

Readers are named `field`, `hand:N` and, for games that need one, any other role the game lists
(e.g. a `table` reader for a card the table holds face down). Outputs are named `speaker` and
`hand:N`. A seat's secret choice is just a tap the game keeps in its state until every seat has chosen
(Numeron's number on that seat's hand reader; 6 nimmt!'s card on the field reader, the card telling whose
it is); what each seat may know is `observe(state, seat)`, kept apart from the state itself (as in
OpenSpiel).
"""

from __future__ import annotations

import importlib
import math
import random
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

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


def hears(output: str, seat: int | None) -> bool:
    """Whether a person at `seat` may hear (or see on a screen) what is said on `output`.

    The one privacy rule of the table, used by the router, the transcript, the console and bring-up:
    the speaker is public; an earphone is its own seat's only. `seat` None is the referee with hands
    revealed (everything); 0 is anyone at the table (the speaker only).
    """
    if seat is None or output == SPEAKER:
        return True
    return output == hand(seat)


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


# One fact of a finished game beyond its ranking, winners and scores: a plain value (a whole game's:
# Numeron's `practice`, the Trident's seat that crashed) or one per seat (`{seat: value}`: the Trident's
# `pieces` left in hand, Suhjong's `rounds`). Which facts there are is each game's own affair.
Detail = int | float | str | bool | None | Sequence[Any] | Mapping[int, Any]


@dataclass(frozen=True)
class Outcome:
    """How a game ended, the same shape for every game.

    `ranking` lists every seat best first; `winners` every seat that won (a shared win names several,
    an abandoned game none); `scores` each seat's score in the game's own unit (the Trident's points,
    6 nimmt!'s bullheads, Royal Nine's total); `details` whatever else the game records, by name (see
    `Detail`). Records keep all of it; a game's own ladder reads its own details.
    """

    ranking: tuple[int, ...]
    winners: tuple[int, ...] = ()
    scores: Mapping[int, int] = field(default_factory=dict)
    reason: str = ""
    details: Mapping[str, Detail] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        """The single winner, None for no winner or a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> dict[str, Any]:
        """Plain data with string seat keys (JSON objects have string keys)."""
        return {
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "scores": {str(seat): score for seat, score in self.scores.items()},
            "reason": self.reason,
            "details": _json_keys(self.details),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The inverse of `to_json`, checked (OutcomeError naming the field: a table's result is read here
        before it is stored); also reads the one game's shape journals held before outcomes were the same for
        every game (`winner`, `crashed`, `pieces`, `points`: journals in the wild keep it)."""
        if not isinstance(data, Mapping):
            raise OutcomeError("outcome", "must be a JSON object")
        if "winners" not in data:  # an older journal
            try:
                winner = data.get("winner")
                pieces = {str(k): v for k, v in (data.get("pieces") or {}).items()}
                points = {str(k): v for k, v in (data.get("points") or {}).items()}
            except (AttributeError, TypeError):
                raise OutcomeError("outcome", "is neither of the shapes an outcome has") from None
            data = {"ranking": data.get("ranking", []), "winners": [winner] if winner is not None else [],
                    "scores": points, "reason": data.get("reason", ""),
                    "details": {"crashed": data.get("crashed"), "pieces": pieces}}
        check_outcome_json(data)
        details = dict(data.get("details") or {})
        for name, value in details.items():
            if isinstance(value, dict) and all(isinstance(k, str) and k.isdigit() for k in value):
                details[name] = {int(k): v for k, v in value.items()}
        return cls(tuple(data.get("ranking", ())), tuple(data.get("winners", ())),
                   {int(k): v for k, v in (data.get("scores") or {}).items()}, data.get("reason", ""), details)


# The bounds of an outcome as it travels (a table's report, a journal line): far beyond any game's, and small
# enough that no figure overflows a database column or a sum, and no text fills a page.
MAX_SEATS = 16
MAX_NUMBER = 10**9
MAX_TEXT = 200
MAX_ITEMS = 256
MAX_DETAILS = 32
OUTCOME_FIELDS = frozenset({"ranking", "winners", "scores", "reason", "details"})


class OutcomeError(ValueError):
    """An outcome that is not of the shape every game's is: `field` names where (`outcome.scores.2`)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}")
        self.field = field


def _is_int(value: object) -> bool:
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER  # bool is not a number here


def _is_text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT and value.isprintable()


def _seat_key(key: object, seats: set[int]) -> int | None:
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2 and int(key) in seats:
        return int(key)
    return None


def _check_value(value: object, where: str, seats: set[int], depth: int = 0) -> None:
    """A detail's value: a bounded plain value, a list of them, or one per seat (`{"1": ...}`)."""
    if value is None or isinstance(value, bool) or _is_int(value) or _is_text(value):
        return
    if isinstance(value, float):
        if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
            raise OutcomeError(where, f"must be a finite number within {MAX_NUMBER:.0e}")
        return
    if isinstance(value, int):
        raise OutcomeError(where, f"must be a whole number from -{MAX_NUMBER} to {MAX_NUMBER}")
    if isinstance(value, str):
        raise OutcomeError(where, f"must be printable text of up to {MAX_TEXT} characters")
    if depth >= 3:
        raise OutcomeError(where, "is nested too deep (3 levels at most)")
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise OutcomeError(where, f"holds more than {MAX_ITEMS} items")
        for index, item in enumerate(value):
            _check_value(item, f"{where}.{index}", seats, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if _seat_key(key, seats) is None:
                raise OutcomeError(f"{where}.{str(key)[:20]}", f"is not a seat of the ranking {sorted(seats)}")
            _check_value(item, f"{where}.{key}", seats, depth + 1)
        return
    raise OutcomeError(where, "is not plain data")


def check_outcome_json(data: Mapping[str, Any]) -> None:
    """Every field of an outcome (`Outcome.to_json`'s shape) typed and bounded: the ranking names each seat once
    (seats 1..16), the winners are seats of it, each score a whole number of a seat, the reason printable text,
    the details plain bounded values by name. OutcomeError naming the first field that is not."""
    strangers = sorted(str(k)[:20] for k in data if k not in OUTCOME_FIELDS)
    if strangers:
        known = ", ".join(sorted(OUTCOME_FIELDS))
        raise OutcomeError(f"outcome.{strangers[0]}", f"is not a field of an outcome ({known})")
    ranking = data.get("ranking")
    if not isinstance(ranking, list) or not 1 <= len(ranking) <= MAX_SEATS:
        raise OutcomeError("outcome.ranking", f"must list the seats, best first (1 to {MAX_SEATS} of them)")
    for index, seat in enumerate(ranking):
        if type(seat) is not int or not 1 <= seat <= MAX_SEATS:
            raise OutcomeError(f"outcome.ranking.{index}", f"must be a seat number from 1 to {MAX_SEATS}")
    seats = set(ranking)
    if len(seats) != len(ranking):
        raise OutcomeError("outcome.ranking", "must name each seat once")
    winners = data.get("winners", [])
    if not isinstance(winners, list) or len(set(map(repr, winners))) != len(winners):
        raise OutcomeError("outcome.winners", "must list seats of the ranking, each once")
    for index, seat in enumerate(winners):
        if type(seat) is not int or seat not in seats:
            raise OutcomeError(f"outcome.winners.{index}", f"must be a seat of the ranking {sorted(seats)}")
    scores = data.get("scores", {})
    if not isinstance(scores, dict):
        raise OutcomeError("outcome.scores", 'must map seats to whole numbers ({"1": 12, ...})')
    for key, score in scores.items():
        if _seat_key(key, seats) is None:
            raise OutcomeError(f"outcome.scores.{str(key)[:20]}", f"is not a seat of the ranking {sorted(seats)}")
        if not _is_int(score):
            raise OutcomeError(f"outcome.scores.{key}", f"must be a whole number from -{MAX_NUMBER} to {MAX_NUMBER}")
    if not _is_text(data.get("reason", "")):
        raise OutcomeError("outcome.reason", f"must be printable text of up to {MAX_TEXT} characters")
    details = data.get("details", {})
    if details is None:
        return
    if not isinstance(details, dict) or len(details) > MAX_DETAILS:
        raise OutcomeError("outcome.details", f"must map up to {MAX_DETAILS} names to values")
    for name, value in details.items():
        if not (isinstance(name, str) and 0 < len(name) <= 40 and name.isprintable()):
            raise OutcomeError("outcome.details", "names must be printable text of up to 40 characters")
        _check_value(value, f"outcome.details.{name}", seats)


def _json_keys(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_keys(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_keys(v) for v in value]
    return value


class GameOver(NamedTuple):
    outcome: Outcome


Effect = Say | Alert | GameOver

S = TypeVar("S")


class Game(Protocol, Generic[S]):
    """One game of the table. Implementations are stateless objects; all state lives in `S`. Every game
    of the table builds on `GameEngine` below, which implements all of it but the rules."""

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


class Bots(Protocol):
    """Bots that play seats through the same taps a player makes.

    `next_event(state)` is the next tap (or referee action) a bot makes, for any seat not in `humans`;
    None when the game waits for a human seat or is over. A good bot decides from
    `game.observe(state, seat)` only; the driver may read the state to know whose move it is.
    """

    def next_event(self, state: Any, humans: Collection[int] = ()) -> Event | None: ...


BotFactory = Callable[[int, Mapping[str, Any]], Bots]  # (seed, set-up) -> bots for every seat
# One step's check, (before, event, effects, after) -> a sentence per problem (empty: all holds): what
# must hold after every event (invariants) and what no output may hear (privacy).
StepCheck = Callable[[Any, Event, Sequence[Effect], Any], list[str]]


class SetupError(ValueError):
    """A set-up that cannot start a game; the message says which key and why (the one for every game)."""


def refuse(action: str, why: str, fx: list[Effect]) -> None:
    """A referee action the game does not take now: said on the speaker, the reason to the Priest."""
    fx.append(Say(SPEAKER, "referee.refused"))
    fx.append(Alert("referee.refused", {"action": action, "why": why}))


if TYPE_CHECKING:
    from kikimimi.games.ladder import AnyLadder
    from kikimimi.games.registry import GameInfo


class GameEngine(Generic[S]):
    """The shell every engine builds on (as python-chess's variants build on its `Board`).

    `apply` here does what every game does alike: a reader the game does not use and an unknown tag
    change nothing (an alert; the tapping reader hears "unknown tag"); the Priest's `end` is refused
    once the game is over; a referee action the game does not know is refused. Only then does it call
    the game's own handlers, `tap`, `referee` and `end`, on the game's working copy of the state
    (`draft`). What the handlers said then passes `merge_speech`, where a game that speaks several phrases
    as one utterance joins them. `observe` and `report` default to the `observation` and `state_report`
    functions of the module the registration names as its `report`, imported on first use (it may import
    the engine).

    An engine on a hot path (the Trident's) may override `apply` whole and keep the rest.
    """

    entry: ClassVar[GameInfo | None] = None  # the game's registration: its tags and seats are said there once
    no_such_action: ClassVar[str] = "unknown referee action"  # the Priest's alert for any other action
    default_bot: ClassVar[str] = "bot"
    ladder: ClassVar[AnyLadder | None] = None  # ranks from this game's results (kikimimi.games.ladder)

    @property
    def tags(self) -> frozenset[str]:
        """Every piece and control id the game knows: its registration's pieces and controls."""
        return self.entry.tag_ids if self.entry is not None else frozenset()

    @property
    def seats(self) -> int:
        """Seats of the game: the fewest its registration allows (a game whose count is in its state
        overrides `seat_count`)."""
        return self.entry.seats[0] if self.entry is not None else 2

    # -- capabilities: the table, simulate and the conformance suite call these -------------------

    def bots(self) -> Mapping[str, BotFactory]:
        """The older way to give the game's bots (by name, the default one named `default_bot`), for a
        registration that declares none (`GameInfo.bots`, the way that keeps the rules from importing them)."""
        return {}

    def invariants(self, before: S, event: Event, effects: Sequence[Effect], after: S) -> list[str]:
        """What must hold after every event, one sentence per broken rule. Every game has some: the
        conformance suite refuses a game that keeps this default."""
        return []

    def privacy(self, before: S, event: Event, effects: Sequence[Effect], after: S) -> list[str]:
        """What was said where it may not be heard, one sentence per leak (the suite requires one too)."""
        return []

    def clock(self, state: S) -> tuple[int, int] | None:
        """The seat the table waits for and its seconds (None: no clock now). The live table restarts its
        timer whenever this changes, warns the seat 10 s before and then sends Referee("timeout")."""
        return None

    def prepare(self, setup: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        """The set-up with what the table draws at random when it begins a game (Numeron practice's
        secret): journaled with the set-up, so replay and resume need no randomness."""
        return dict(setup)

    # -- what a game writes ---------------------------------------------------------------------

    def initial(self, setup: Mapping[str, Any]) -> S:
        raise NotImplementedError

    def tap(self, state: S, reader: str, out: str, seat: int | None, tag: str, uid: str | None,
            fx: list[Effect]) -> S:
        """A known tag on one of the game's readers (`seat` None: the field; `out` where to answer)."""
        raise NotImplementedError

    def end(self, state: S, fx: list[Effect]) -> S:
        """The Priest ends a game that is not over."""
        raise NotImplementedError

    def referee(self, state: S, action: str, params: Mapping[str, Any], fx: list[Effect]) -> S | None:
        """A referee action of the game's own (besides `end`); None: the game has no such action."""
        return None

    def summary(self, state: S) -> list[Effect]:
        """Public phrases that say where the game stands (after an undo, on resuming)."""
        return list(self._report_module().summary(state))

    # -- what a game may change -----------------------------------------------------------------

    def draft(self, state: S) -> S:
        """The state a handler may work on: the state itself when states are immutable (the default);
        a game whose handlers change the state in place returns a copy."""
        return state

    def seat_count(self, state: S) -> int:
        return self.seats

    def output_of(self, state: S, reader: str) -> str | None:
        """Where a tap on `reader` is answered; None for a reader the game does not use."""
        if reader == FIELD:
            return SPEAKER
        seat = seat_of(reader)
        return reader if seat is not None and 1 <= seat <= self.seat_count(state) else None

    def unknown_reader(self, state: S, reader: str, tag: str | None, fx: list[Effect]) -> None:
        """A tap on a reader the game does not use (a bigger table's hand:K): the Priest sees it."""
        fx.append(Alert("reader.unknown", {"reader": reader, "tag": tag}))

    def is_over(self, state: S) -> bool:
        return getattr(state, "phase", None) == "over"

    def merge_speech(self, fx: list[Effect]) -> list[Effect]:
        """What one event said, as it is spoken: a game that says several phrases on an output as one
        utterance joins them here (`phrasebook.one_utterance_each`); by default each phrase is its own."""
        return fx

    # -- the shell ------------------------------------------------------------------------------

    def apply(self, state: S, event: Event) -> tuple[S, list[Effect]]:
        state, fx = self._handle(state, event)
        return state, self.merge_speech(fx)

    def _handle(self, state: S, event: Event) -> tuple[S, list[Effect]]:
        fx: list[Effect] = []
        if isinstance(event, Referee):
            action = str(event.action)
            if action == "end":
                if self.is_over(state):
                    refuse(action, "the game is already over", fx)
                    return state, fx
                return self.end(self.draft(state), fx), fx
            done = self.referee(self.draft(state), action, dict(event.params or {}), fx)
            if done is None:
                refuse(action, self.no_such_action, fx)
                return state, fx
            return done, fx
        if not isinstance(event, Scan):
            fx.append(Alert("event.unknown", {"event": repr(event)}))
            return state, fx
        reader, tag = event.reader, event.piece
        out = self.output_of(state, reader) if isinstance(reader, str) else None
        if out is None:
            self.unknown_reader(state, str(reader), tag, fx)
            return state, fx
        if not isinstance(tag, str) or tag not in self.tags:
            fx.append(Say(out, "tap.unknown_tag"))
            shown = tag if isinstance(tag, str) else None
            fx.append(Alert("tag.unknown", {"reader": reader, "uid": event.uid, "tag": shown}))
            return state, fx
        return self.tap(self.draft(state), reader, out, seat_of(reader), tag, event.uid, fx), fx

    def observe(self, state: S, seat: int | None) -> dict[str, Any]:
        return dict(self._report_module().observation(state, seat))

    def report(self, state: S) -> dict[str, Any]:
        return dict(self._report_module().state_report(state))

    @classmethod
    def _report_module(cls) -> ModuleType:
        module = cls.__dict__.get("_report")
        if module is None:
            if cls.entry is not None and cls.entry.report is not None:
                module = cls.entry.report()
            else:  # the older way: the game package's `report` module
                package = sys.modules[cls.__module__].__package__  # the game's package, from any of its modules
                module = importlib.import_module(f"{package}.report")
            # a per-class cache set on first use: not a declared attribute of every Game subclass
            cls._report = module  # type: ignore[attr-defined]
        return module
