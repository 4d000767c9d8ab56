"""The game registry: every game of the table declares itself here once, with its metadata.

In the spirit of OpenSpiel's `register_game` and python-chess's variants: a game package
(`kikimimi/games/<package>/__init__.py`) builds one small `GameInfo` (what listing and set-up need) and
calls `register(info)`. The table, journal, replay, voice, console, bring-up, decks, records and the
conformance suite ask the registry and never name a game. The entry declares the game's parts, each
imported on first use (listing the games costs no engine imports): the engine class (`game_class`, a
`GameClass`: a `GameEngine`, whose typed methods are the rules' capabilities: invariants, privacy, clock,
prepare, ladder, speech merging), its bots (`bots`, a `BotSet`: the engine never imports them), the module
that reports a state (`report`), the console's UI object (`ui`, a `GameUI`) and a benchmark (`bench`). The
engine takes its tags and seats from the entry (`GameEngine.entry`), so they are said once.

A package that declares no bots, report or UI is looked for by the older convention (the engine's `bots()`,
the package's `report` and `view.UI` modules), so a game written that way still joins.

Adding a game: its package under `kikimimi/games/<package>/` (which registers itself), its catalogs
`voices/catalog/<id>.{ja,en}.toml`, its deck `devices/decks/<id>.toml`, its rules page
`docs/rules/<id>.md`. Nothing else.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from kikimimi.games.base import FIELD, BotFactory, Bots, GameEngine, SetupError, StepCheck, hand

DEFAULT_GAME = "trident"  # a script without a set-up line, a config without `game`
GAME_PATH = "KIKIMIMI_GAME_PATH"  # more folders of game packages (os.pathsep between), besides the shipped


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
        number = cast(int, value)  # a range is given for integer keys only
        if self.minimum is not None and number < self.minimum:
            return f"{self._label} must be at least {self.minimum}, not {value!r}"
        if self.maximum is not None and number > self.maximum:
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


@dataclass(frozen=True)
class GameUI:
    """What the console, the demo and bring-up need of a game: kept apart from the game class, so that
    no engine module imports `rich` and a table without a screen loads none of it."""

    view: Callable[..., Any] | None = None  # (report, *, reveal, players=None, titles=None) -> rich Text:
    #   the console's (and the demo's) panel of the game
    guide: Callable[[Mapping[str, Any], Any], list[Any]] | None = None  # (report, state) -> what the
    #   Priest is told the table waits for ("give seat 2 two pieces"); without one, whose turn it is
    keyboard: Callable[..., Any] | None = None  # (seat, seed, console) -> an object with
    #   decide(state) -> Event | "quit": a person plays one seat of the demo from the keyboard
    tag_phrase: Callable[[str, str], tuple[str, dict[str, Any]]] | None = None  # (tag id, role) -> the
    #   phrase that names a tag on a reader in bring-up (privacy as in play); else "a tag of the deck"
    model: Callable[..., Any] | None = None  # (data, *, reveal, players) -> kikimimi.games.tableview.TableModel:
    #   what the Priest sees of the table as data (seats, field, basket, the game's items); each console draws it


# -- the entry's loaders: one piece that every game's package uses, so no package writes its own -------------


@dataclass(frozen=True)
class GameClass:
    """The entry's `game_class` loader: the class `name` of the package's `engine` module, imported on the
    first call (the entry itself stays free of engine imports)."""

    package: str  # the game's package: its `__name__` where the entry is built
    name: str

    def __call__(self) -> type[GameEngine[Any]]:
        found = getattr(importlib.import_module(f"{self.package}.engine"), self.name)
        if not (isinstance(found, type) and issubclass(found, GameEngine)):
            raise TypeError(f"{self.package}.engine.{self.name} is not a GameEngine class")
        return found


@dataclass(frozen=True)
class BotSet:
    """The entry's `bots`: bot factories by name, functions of the package's `bots` module (`factories`: bot
    name -> function name), imported on first use. The bots import the rules; the rules never import them."""

    package: str
    factories: Mapping[str, str]
    default: str = "bot"

    def __call__(self) -> dict[str, BotFactory]:
        module = importlib.import_module(f"{self.package}.bots")
        return {name: getattr(module, function) for name, function in self.factories.items()}


@dataclass(frozen=True)
class EngineBots:
    """The bots of an entry that declares none (the older way): the ones its engine lists itself (`bots()`,
    the default one named `default_bot`)."""

    game: GameEngine[Any]

    def __call__(self) -> dict[str, BotFactory]:
        return dict(self.game.bots())

    @property
    def default(self) -> str:
        return self.game.default_bot


@dataclass(frozen=True)
class PackageModule:
    """One module of the game's package the entry names (its `report`), imported on first use."""

    package: str
    name: str

    def __call__(self) -> ModuleType:
        return importlib.import_module(f"{self.package}.{self.name}")


@dataclass(frozen=True)
class PackageUI:
    """The entry's `ui` loader: the `UI` object (a `GameUI`) of the package's `view` module (or `module`),
    imported on first use (a table without a screen never loads it)."""

    package: str
    module: str = "view"

    def __call__(self) -> GameUI:
        found = getattr(importlib.import_module(f"{self.package}.{self.module}"), "UI", None)
        if not isinstance(found, GameUI):
            raise TypeError(f"{self.package}.{self.module} has no UI = GameUI(...)")
        return found


def package_parts(package: str, report: str | None = "report", view: str | None = "view",
                  bench: str | None = "bench") -> dict[str, Any]:
    """The entry's `report`, `ui` and `bench`, declared by the modules of the package that hold them (None:
    the package has no such part): `GameInfo(..., **package_parts(__name__))`."""
    return {"report": PackageModule(package, report) if report else None,
            "ui": PackageUI(package, view) if view else None,
            "bench": f"{package}.{bench}" if bench else None}


@dataclass(frozen=True)
class EngineCheck:
    """A `setup_check` kept beside the rules in the package's `engine` module (`name`), imported when a
    set-up is first checked: listing the games still imports no engine."""

    package: str
    name: str

    def __call__(self, setup: Mapping[str, Any]) -> str | None:
        check: Callable[[Mapping[str, Any]], str | None] = getattr(
            importlib.import_module(f"{self.package}.engine"), self.name)
        return check(setup)


@dataclass(frozen=True)
class GameInfo:
    """A game's small eager entry: what listing and set-up need. The game class (rules and capabilities)
    is imported on first use of `game`, the UI object on first use of a view, guide, keyboard or tag
    phrase: listing the games imports no engine."""

    id: str  # in set-up lines, configs, decks, journals, catalogs (`voices/catalog/<id>.<lang>.toml`)
    titles: Mapping[str, str]  # language -> title ("ja", "en")
    seats: tuple[int, int]  # fewest and most seats
    game_class: Callable[[], type[GameEngine[Any]]]  # imports and returns the game class
    pieces: tuple[str, ...]  # canonical piece ids (a deck gives each one tag)
    controls: tuple[str, ...] = ()  # control ids (a deck may give each several tags, e.g. one per seat)
    setup_keys: tuple[SetupKey, ...] = ()
    seat_key: str | None = None  # the set-up key that gives the seat count (6 nimmt!'s `players`)
    setup_check: Callable[[Mapping[str, Any]], str | None] | None = None  # rules across keys
    extra_readers: tuple[str, ...] = ()  # reader roles besides field and hand:N
    bots: BotSet | None = None  # the game's bots; without them, the engine's own `bots()` (the older way)
    report: PackageModule | None = None  # observation, state_report and summary of a state; without one,
    #   the package's `report` module
    ui: Callable[[], GameUI] | None = None  # imports and returns the game's UI object (`PackageUI`); without
    #   one, the `UI` of the package's `view` module when it has one
    bench: str | None = None  # `kikimimi bench <id>`: the module (add_arguments, run) that measures the game
    referee_actions: tuple[RefereeAction, ...] = ()
    max_events: int = 5000  # a bot game longer than this is a bug (the conformance suite's bound)
    summary: str = ""  # one line for `kikimimi games`
    # Phrases the players wait to hear before they tap again (a simultaneous-choice game's reveal): the lag
    # benches start the next taps a tap's time after such a phrase has been heard.
    heard_before_next: frozenset[str] = frozenset()

    # -- the game and its set-up --------------------------------------------------------------------

    @cached_property
    def game(self) -> GameEngine[Any]:
        game = self.game_class()()
        entry = type(game).entry
        if entry is not None and entry is not self:
            raise TypeError(f"{type(game).__name__}.entry is {entry.id}'s registration, not {self.id}'s")
        says_own_tags = not isinstance(inspect.getattr_static(type(game), "tags"), property)
        if says_own_tags and game.tags != self.tag_ids:  # an engine of the older way: they must agree
            raise TypeError(f"{self.id}: the engine's tags are not the entry's pieces and controls")
        return game

    @cached_property
    def tag_ids(self) -> frozenset[str]:
        """Every piece and control id: what the game's engine knows as tags."""
        return frozenset(self.pieces) | frozenset(self.controls)

    @property
    def package(self) -> str:
        """The game's package (where its entry, and so its loader, is defined)."""
        if isinstance(self.game_class, GameClass):
            return self.game_class.package
        return self.game_class.__module__

    @property
    def folder(self) -> Path:
        """The folder of the game's package."""
        return Path(str(sys.modules[self.package].__file__)).parent

    def data_file(self, kind: str, name: str, shipped: Path) -> Path:
        """One of the game's files (kind: catalog, decks, tables, rules): the one its package carries in
        `data/<kind>/` (a game added in its own folder), else the shipped one in `shipped`."""
        own = self.folder / "data" / kind / name
        return own if own.exists() else shipped / name

    @cached_property
    def _ui(self) -> GameUI:
        if self.ui is not None:
            return self.ui()
        if importlib.util.find_spec(f"{self.package}.view") is None:
            return GameUI()
        found = getattr(importlib.import_module(f"{self.package}.view"), "UI", None)
        if not isinstance(found, GameUI):
            raise TypeError(f"{self.package}.view has no UI = GameUI(...)")
        return found

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
        return tag_id in self.tag_ids

    # -- what the table asks for on demand ------------------------------------------------------------

    @property
    def roster(self) -> BotSet | EngineBots:
        """The game's bots: `roster()` gives their factories by name, `roster.default` the default one's name."""
        return self.bots if self.bots is not None else EngineBots(self.game)

    def new_bots(self, seed: int, setup: Mapping[str, Any] | None = None, name: str | None = None) -> Bots:
        roster = self.roster
        factories = roster()
        factory = factories.get(name or roster.default)
        if factory is None:
            raise KeyError(f"{self.id} has no bot {name!r} (bots: {', '.join(factories) or 'none'})")
        return factory(seed, dict(setup or self.setup_defaults))

    def view_function(self) -> Callable[..., Any] | None:
        """The game's console panel: f(report, *, reveal, players=None, titles=None) -> rich Text."""
        return self._ui.view

    def model_function(self) -> Callable[..., Any] | None:
        """The game's view model of the table: f(data, *, reveal, players=None) -> TableModel."""
        return self._ui.model

    def guide_function(self) -> Callable[[Mapping[str, Any], Any], list[Any]] | None:
        return self._ui.guide

    def keyboard_class(self) -> Callable[..., Any] | None:
        return self._ui.keyboard

    def prepare_setup(self, setup: Mapping[str, Any], rng: Any) -> dict[str, Any]:
        """The set-up with the table's random draws made (the game's `prepare`), ready to journal."""
        return dict(self.game.prepare(dict(setup), rng))

    def name_tag(self, tag_id: str, role: str) -> tuple[str, dict[str, Any]]:
        """The phrase that names a tag of this game on a reader (bring-up)."""
        if self._ui.tag_phrase is not None:
            return self._ui.tag_phrase(tag_id, role)
        return "bringup.known_tag", {}

    def clock_function(self) -> Callable[[Any], tuple[int, int] | None] | None:
        """The game's turn clock; None for a game that keeps none (its class has the default)."""
        game = self.game
        return game.clock if type(game).clock is not GameEngine.clock else None

    def privacy_check(self) -> StepCheck | None:
        game = self.game
        return game.privacy if type(game).privacy is not GameEngine.privacy else None

    def invariant_check(self) -> StepCheck | None:
        game = self.game
        return game.invariants if type(game).invariants is not GameEngine.invariants else None


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
    for folder in filter(None, os.environ.get(GAME_PATH, "").split(os.pathsep)):
        if folder not in sys.path:
            sys.path.append(folder)
        for module in pkgutil.iter_modules([folder]):
            if module.ispkg:
                importlib.import_module(module.name)
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
