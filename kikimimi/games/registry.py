"""The game registry: every game of the table declares itself here once, with its metadata.

In the spirit of OpenSpiel's `register_game` and python-chess's variants: a game package
(`kikimimi/games/<package>/__init__.py`) builds one `GameInfo` and calls `register(info)`. The table,
journal, replay, voice, console, bring-up, decks, records and the conformance suite ask the registry
and never name a game. The engine, bots, console view and benchmark are named by `module:attribute`
strings and imported on first use, so that listing the games costs no engine imports.

Adding a game: its package under `kikimimi/games/<package>/` (which registers itself), its catalogs
`voices/catalog/<id>.{ja,en}.toml`, its deck `devices/decks/<id>.toml`, its rules page
`docs/rules/<id>.md`. Nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from kikimimi.games.base import FIELD, Effect, Event, Game, SetupError, hand

DEFAULT_GAME = "trident"  # a script without a set-up line, a config without `game`


class UnknownGame(KeyError):
    def __str__(self) -> str:  # KeyError's own str() quotes its message
        return str(self.args[0])


@dataclass(frozen=True)
class SetupKey:
    """One set-up key: its type, default and allowed values (`choices`, or `minimum`..`maximum`)."""

    name: str
    default: Any
    type: type = int
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def check(self, value: Any) -> str | None:
        """Why `value` is not allowed, None when it is."""
        # bool is an int in Python: keep true/false out of integer keys and 0/1 out of boolean ones.
        if type(value) is not self.type:
            return f"{self._label} must be {_type_name(self.type)}, not {value!r}"
        if self.choices is not None and value not in self.choices:
            return f"{self._label} must be one of {', '.join(map(_show, self.choices))}, not {_show(value)}"
        if self.minimum is not None and value < self.minimum:
            return f"{self._label} must be at least {self.minimum}, not {value!r}"
        if self.maximum is not None and value > self.maximum:
            return f"{self._label} must be at most {self.maximum}, not {value!r}"
        return None

    @property
    def _label(self) -> str:
        return f"{self.name} ({self.help})" if self.help else self.name

    def describe(self) -> str:
        if self.choices is not None:
            allowed = "|".join(map(_show, self.choices))
        elif self.minimum is not None or self.maximum is not None:
            allowed = f"{'' if self.minimum is None else self.minimum}..{'' if self.maximum is None else self.maximum}"
        else:
            allowed = _type_name(self.type)
        return f"{self.name} = {allowed} (default {_show(self.default)})" + (f": {self.help}" if self.help else "")


def _type_name(kind: type) -> str:
    return {int: "an integer", bool: "true or false", str: "a string"}.get(kind, kind.__name__)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class RefereeAction:
    """A referee action a game adds to the console's generic ones (undo, end, new game, move...).

    `params` names what the console asks before sending `Referee(action, params)`: `seat` (one of the
    game's seats), `piece` (a piece id), or `name=a|b|c` (a choice).
    """

    action: str
    label: str
    key: str  # the console's keyboard binding
    params: tuple[str, ...] = ()


class Bots(Protocol):
    """Bots that play seats through the same taps a player makes.

    `next_event(state)` is the next tap (or referee action) a bot makes, for any seat not in `humans`;
    None when the game waits for a human seat or is over. A good bot decides from
    `game.observe(state, seat)` only; the driver may read the state to know whose move it is.
    """

    def next_event(self, state: Any, humans: Collection[int] = ()) -> Event | None: ...


# What a game's privacy check returns for one step: a sentence per leak, empty when nothing leaked.
PrivacyCheck = Callable[[Any, Event, Sequence[Effect], Any], list[str]]
# What a game's invariants return for one step (before, event, effects, after): a sentence per broken rule.
InvariantCheck = Callable[[Any, Event, Sequence[Effect], Any], list[str]]


@dataclass(frozen=True)
class GameInfo:
    """What the table knows about a game: everything but its rules."""

    id: str  # in set-up lines, configs, decks, journals, catalogs (`voices/catalog/<id>.<lang>.toml`)
    titles: Mapping[str, str]  # language -> title ("ja", "en")
    seats: tuple[int, int]  # fewest and most seats
    engine: str  # "module:Class" of the Game
    pieces: tuple[str, ...]  # canonical piece ids (a deck gives each one tag)
    controls: tuple[str, ...] = ()  # control ids (a deck may give each several tags, e.g. one per seat)
    setup_keys: tuple[SetupKey, ...] = ()
    seat_key: str | None = None  # the set-up key that gives the seat count (6 nimmt!'s `players`)
    setup_check: Callable[[Mapping[str, Any]], str | None] | None = None  # rules across keys
    extra_readers: tuple[str, ...] = ()  # reader roles besides field and hand:N
    bots: Mapping[str, str] = field(default_factory=dict)  # name -> "module:factory(seed, setup) -> Bots"
    default_bot: str = "bot"
    view: str | None = None  # "module:function(report, *, reveal, players, titles) -> rich Text": the
    #   console's (and the demo's) panel of the game
    tag_phrase: str | None = None  # "module:function(tag_id, role) -> (key, params)": how bring-up names a
    #   tag of this game on a reader (privacy as in play); without it bring-up says "a tag of the deck"
    keyboard: str | None = None  # "module:Class(seat, seed, console)" with decide(state) -> Event | "quit":
    #   a person plays one seat of the demo from the keyboard
    guide: str | None = None  # "module:function(report, state) -> list[str]": what the Priest is told the
    #   table waits for ("give seat 2 two pieces from the basket"); without one, whose turn it is
    referee_actions: tuple[RefereeAction, ...] = ()
    privacy: str | None = None  # "module:function" (a PrivacyCheck) for the conformance suite
    invariants: str | None = None  # "module:function" (an InvariantCheck): what must hold after every
    #   event (simulate and the conformance suite check it; the suite refuses a game without one)
    bench: str | None = None  # a module with add_arguments(parser) and run(args): `kikimimi bench <id>`
    clock: str | None = None  # "module:function(state) -> (seat, seconds) | None": the seat the table
    #   waits for and its time; the live table restarts its timer whenever that changes, warns the seat
    #   10 s before and then sends Referee("timeout") (journaled like any event)
    prepare: str | None = None  # "module:function(setup, rng: random.Random) -> setup": what the table
    #   draws at random when it begins a new game (Numeron practice's secret), stored in the set-up in the
    #   journal so that replay and resume need no randomness; never called on replay or resume
    ladder: str | None = None  # a module of ranks, peerage and streaks derived from this game's results
    #   (records compute them from this game's results only; games without one keep plain results)
    max_events: int = 5000  # a bot game longer than this is a bug (the conformance suite's bound)
    summary: str = ""  # one line for `kikimimi games`

    # -- the game and its set-up --------------------------------------------------------------------

    @cached_property
    def game(self) -> Game:
        return load(self.engine)()

    @property
    def catalog(self) -> str:
        """The phrase catalog namespace: `voices/catalog/<id>.<lang>.toml`."""
        return self.id

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.id

    @property
    def setup_defaults(self) -> dict[str, Any]:
        return {key.name: key.default for key in self.setup_keys}

    def parse_setup(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """A complete set-up (defaults filled in) from given keys; SetupError says what is wrong."""
        known = {key.name: key for key in self.setup_keys}
        unknown = sorted(set(raw) - set(known) - {"game"})
        if unknown:
            raise SetupError(f"unknown set-up key(s) {unknown} for {self.id} (keys: {', '.join(known) or 'none'})")
        setup = self.setup_defaults
        for name, value in raw.items():
            if name == "game":
                continue
            problem = known[name].check(value)
            if problem:
                raise SetupError(problem)
            setup[name] = value
        if self.setup_check is not None:
            problem = self.setup_check(setup)
            if problem:
                raise SetupError(problem)
        return setup

    def seat_count(self, setup: Mapping[str, Any] | None = None) -> int:
        if self.seat_key is not None:
            return int((setup or {}).get(self.seat_key, self.setup_defaults.get(self.seat_key, self.seats[0])))
        return self.seats[0]

    def readers(self, setup: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """Every reader role a table needs for this game and set-up."""
        return (FIELD, *(hand(seat) for seat in range(1, self.seat_count(setup) + 1)), *self.extra_readers)

    def outputs(self, setup: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        return ("speaker", *(hand(seat) for seat in range(1, self.seat_count(setup) + 1)))

    def is_known_id(self, tag_id: str) -> bool:
        return tag_id in self._ids

    @cached_property
    def _ids(self) -> frozenset[str]:
        return frozenset(self.pieces) | frozenset(self.controls)

    # -- what the table asks for on demand ------------------------------------------------------------

    def new_bots(self, seed: int, setup: Mapping[str, Any] | None = None, name: str | None = None) -> Bots:
        factory = self.bots.get(name or self.default_bot)
        if factory is None:
            raise KeyError(f"{self.id} has no bot {name!r} (bots: {', '.join(self.bots) or 'none'})")
        return load(factory)(seed, dict(setup or self.setup_defaults))

    def view_function(self) -> Callable[..., Any] | None:
        """The game's console panel: f(report, *, reveal, players=None, titles=None) -> rich Text."""
        return load(self.view) if self.view else None

    def prepare_setup(self, setup: Mapping[str, Any], rng: Any) -> dict[str, Any]:
        """The set-up with the table's random draws made (the game's `prepare`), ready to journal."""
        return dict(load(self.prepare)(dict(setup), rng)) if self.prepare else dict(setup)

    def name_tag(self, tag_id: str, role: str) -> tuple[str, dict[str, Any]]:
        """The phrase that names a tag of this game on a reader (bring-up)."""
        if self.tag_phrase:
            return load(self.tag_phrase)(tag_id, role)
        return "bringup.known_tag", {}

    def clock_function(self) -> Callable[[Any], tuple[int, int] | None] | None:
        return load(self.clock) if self.clock else None

    def privacy_check(self) -> PrivacyCheck | None:
        return load(self.privacy) if self.privacy else None

    def invariant_check(self) -> InvariantCheck | None:
        return load(self.invariants) if self.invariants else None


def load(target: str) -> Any:
    """`package.module:attribute` imported and looked up."""
    module, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


_REGISTRY: dict[str, GameInfo] = {}
_discovered = False


def register(info: GameInfo) -> GameInfo:
    """Called once by each game package on import."""
    existing = _REGISTRY.get(info.id)
    if existing is not None and existing is not info:
        raise ValueError(f"game id {info.id!r} is registered twice")
    _REGISTRY[info.id] = info
    return info


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    import kikimimi.games as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            importlib.import_module(f"{package.__name__}.{module.name}")
    _discovered = True


def games() -> list[GameInfo]:
    """Every registered game, the default first, then by id."""
    _discover()
    return sorted(_REGISTRY.values(), key=lambda info: (info.id != DEFAULT_GAME, info.id))


def game_ids() -> list[str]:
    return [info.id for info in games()]


def get_info(game_id: str) -> GameInfo:
    _discover()
    info = _REGISTRY.get(game_id)
    if info is None:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(game_ids())})")
    return info
