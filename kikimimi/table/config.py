"""A table's configuration (TOML): the game, the language, the decks, the journal, the readers, the voice.

    game = "trident"                    # any registered game (`kikimimi games`); its set-up keys follow
    rules = "standard"                  # the Trident's set-up keys: rules, first
    first = 1
    language = "ja"                     # ja | en
    deck = "trident-sim.toml"           # the game's deck. A bare name: shipped in devices/decks/; a path:
                                        # relative to this file
    [decks]                             # the decks of the other games this table plays (the console's
    numeron = "numeron-sim.toml"        # new game); a simulated table finds devices/decks/<game>-sim.toml
    journal = "~/.local/share/kikimimi/journal.sqlite"   # default: $KIKIMIMI_DATA/journal.sqlite
    debounce = 0.3                      # seconds: a tag lifted and tapped again within this counts once

    [readers.field]   ...               # kikimimi/devices/config.py
    [voice]           ...               # kikimimi/voice/config.py
    [outputs.speaker] ...

The embedded default, used when no file is given, is `devices/tables/trident-sim.toml` (each game has
its simulated table, `devices/tables/<game>-sim.toml`): simulated readers, the
default audio device (or the transcript when there is none).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.devices.config import ReaderSpec, parse_readers
from kikimimi.devices.deck import Deck, DeckError, load_deck
from kikimimi.games.base import SPEAKER, SetupError, hand
from kikimimi.games.registry import DEFAULT_GAME, GameInfo, UnknownGame, game_ids, get_info
from kikimimi.paths import data_dir, data_home, not_utf8
from kikimimi.voice.catalog import LANGUAGES
from kikimimi.voice.config import OutputSpec, VoiceSpec, parse_voice

TABLE_KEYS = {"game", "language", "deck", "decks", "journal", "debounce", "readers", "voice", "outputs", "records"}


class TableConfigError(ValueError):
    """A table configuration that cannot be used; the message says where, what and how to fix it."""


@dataclass(frozen=True)
class TableConfig:
    source: Path
    game: str
    game_setup: dict[str, Any]  # the game's complete set-up (defaults filled in), without `game`
    language: str
    deck: Deck  # the deck of `game`
    journal: Path
    debounce: float
    readers: list[ReaderSpec]
    voice: VoiceSpec
    outputs: list[OutputSpec]
    raw: dict[str, Any]
    deck_paths: dict[str, Path] = field(default_factory=dict)  # game -> deck file, from [decks]
    records_url: str | None = None  # [records] url: the records database (--db and $KIKIMIMI_RECORDS_URL win)

    @property
    def info(self) -> GameInfo:
        return get_info(self.game)

    @property
    def setup(self) -> dict[str, Any]:
        return {"game": self.game, **self.game_setup}

    @property
    def simulated(self) -> bool:
        return all(spec.protocol == "sim" for spec in self.readers)

    @property
    def roles(self) -> set[str]:
        return {spec.role for spec in self.readers}

    def deck_for(self, game: str) -> Deck:
        """The deck of any game this table may play; TableConfigError says what is missing."""
        if game == self.game:
            return self.deck
        cached = _DECKS.get((self.source, game))
        if cached is not None:
            return cached
        path = self.deck_paths.get(game)
        if path is None and self.simulated:
            path = get_info(game).data_file("decks", f"{game}-sim.toml", data_dir("devices") / "decks")
        if path is None:
            raise TableConfigError(f"{self.source}: no deck for {game}; enroll its tags (kikimimi enroll --game "
                                   f"{game} --deck FILE) and add it under [decks] as {game} = \"FILE\"")
        try:
            deck = load_deck(path)
        except DeckError as exc:
            raise TableConfigError(f"{self.source}: deck for {game}: {exc}") from exc
        if deck.game != game:
            raise TableConfigError(f"{self.source}: [decks] {game} = {str(path)!r} is a deck of {deck.game}")
        _DECKS[(self.source, game)] = deck
        return deck

    def cannot_play(self, game: str, setup: Mapping[str, Any]) -> str | None:
        """Why this table cannot play a game (unknown, bad set-up, no deck, readers or earphones missing), else
        None."""
        try:
            get_info(game).parse_setup(setup)
            self.deck_for(game)
        except (UnknownGame, SetupError, TableConfigError) as exc:
            return str(exc)
        return self.check_game(game, dict(setup))

    def check_game(self, game: str, setup: dict[str, Any]) -> str | None:
        """Why this table cannot play `game` with `setup` (readers or earphones missing), None if it can."""
        return _missing_hardware(get_info(game), setup, self.roles, {o.name for o in self.outputs}, str(self.source))


_DECKS: dict[tuple[Path, str], Deck] = {}


def _missing_hardware(info: GameInfo, setup: dict[str, Any], roles: set[str], outputs: set[str],
                      where: str) -> str | None:
    seats = info.seat_count(setup)
    missing = [role for role in info.readers(setup) if role not in roles]
    if missing:
        return (f"{where}: {info.title('en')} with {seats} seats needs readers for {missing} too "
                f"(add [readers.\"{missing[0]}\"] sections)")
    if outputs:
        needed = [SPEAKER, *(hand(seat) for seat in range(1, seats + 1))]
        absent = [name for name in needed if name not in outputs]
        if absent:
            return (f"{where}: {info.title('en')} with {seats} seats needs outputs for {absent}: each seat "
                    f"hears its private phrases on its own earphone only (add [outputs.\"{absent[0]}\"])")
    return None


def default_config_path(game: str = DEFAULT_GAME) -> Path:
    """A game's simulated table (the default game's unless told)."""
    shipped = data_dir("devices") / "tables"
    try:
        return get_info(game).data_file("tables", f"{game}-sim.toml", shipped)
    except UnknownGame:  # said by whoever loads it: no such file
        return shipped / f"{game}-sim.toml"


def _resolve(base: Path, value: str, shipped: str) -> Path:
    """A bare name is a shipped file (devices/<shipped>/NAME); a path is relative to the config file."""
    path = Path(value).expanduser()
    if path.is_absolute():
        return path
    if "/" not in value:
        return data_dir("devices") / shipped / value
    return base / path


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> TableConfig:
    source = Path(path) if path else default_config_path()
    raw = _read_toml(source)
    raw.update(overrides or {})
    where = str(source)
    game = raw.get("game", DEFAULT_GAME)
    try:
        info = get_info(game)
    except (UnknownGame, TypeError):
        raise TableConfigError(f"{where}: game = {game!r}; this table knows {game_ids()}") from None
    setup_keys = {key.name for key in info.setup_keys}
    unknown = set(raw) - TABLE_KEYS - setup_keys
    if unknown:
        raise TableConfigError(f"{where}: unknown setting(s) {sorted(unknown)}; known: {sorted(TABLE_KEYS)} "
                               f"and {info.id}'s set-up keys {sorted(setup_keys)}")
    try:
        game_setup = info.parse_setup({k: v for k, v in raw.items() if k in setup_keys})
    except SetupError as exc:
        raise TableConfigError(f"{where}: {exc}") from None
    language = raw.get("language", "ja")
    if language not in LANGUAGES:
        raise TableConfigError(f"{where}: language = {language!r}; use one of {list(LANGUAGES)}")
    debounce = raw.get("debounce", 0.3)
    if not isinstance(debounce, int | float) or not 0 <= debounce <= 5:
        raise TableConfigError(f"{where}: debounce = {debounce!r}; give seconds between 0 and 5 (default 0.3)")
    base = source.parent
    deck, deck_paths = _decks(raw, info, base, where)
    journal = Path(str(raw["journal"])).expanduser() if "journal" in raw else data_home() / "journal.sqlite"
    if not journal.is_absolute():
        journal = base / journal
    if "readers" not in raw:
        raise TableConfigError(f"{where}: no [readers.field] / [readers.\"hand:1\"] sections; "
                               f"see {default_config_path()} for an example")
    try:
        readers = parse_readers(raw["readers"], where)
        voice, outputs = parse_voice(raw.get("voice", {}), raw.get("outputs", {}), language, where, base)
    except ValueError as exc:  # ReaderConfigError and VoiceConfigError
        raise TableConfigError(str(exc)) from exc
    problem = _missing_hardware(info, game_setup, {spec.role for spec in readers}, {o.name for o in outputs}, where)
    if problem:
        raise TableConfigError(problem)
    return TableConfig(source, info.id, game_setup, language, deck, journal, float(debounce), readers, voice,
                       outputs, raw, deck_paths, _records_url(raw.get("records", {}), where))


def _read_toml(source: Path) -> dict[str, Any]:
    """A configuration file's TOML; TableConfigError says in one line why it cannot be read."""
    try:
        return tomllib.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableConfigError(
            f"{source}: no such table configuration (examples: {default_config_path().parent})"
        ) from None
    except OSError as exc:
        raise TableConfigError(f"{source}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise TableConfigError(not_utf8(source, exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise TableConfigError(f"{source}: not valid TOML: {exc}") from exc


def _decks(raw: Mapping[str, Any], info: GameInfo, base: Path, where: str) -> tuple[Deck, dict[str, Path]]:
    """The configured game's deck (loaded) and the `[decks]` of the other games it may play (paths)."""
    deck_value = raw.get("deck", f"{info.id}-sim.toml")
    try:
        deck = load_deck(_resolve(base, str(deck_value), "decks"))
    except DeckError as exc:
        raise TableConfigError(f"{where}: deck = {deck_value!r}: {exc}") from exc
    if deck.game != info.id:
        raise TableConfigError(f"{where}: deck = {deck_value!r} is a deck of {deck.game}, but game = {info.id!r}")
    decks_table = raw.get("decks", {})
    if not isinstance(decks_table, dict):
        raise TableConfigError(f"{where}: [decks] must map game ids to deck files")
    for name in decks_table:
        if name not in game_ids():
            raise TableConfigError(f"{where}: [decks] {name}: unknown game; known: {game_ids()}")
    return deck, {name: _resolve(base, str(value), "decks") for name, value in decks_table.items()}


def _records_url(section: Any, where: str) -> str | None:
    """[records] url = "postgresql://user@host/db" (or "sqlite:///path"): where the records are kept."""
    if not isinstance(section, dict) or set(section) - {"url"}:
        raise TableConfigError(f'{where}: [records] takes one key, url = "postgresql://user@host/records"')
    url = section.get("url")
    if url is None:
        return None
    scheme = url.split("://", 1)[0] if isinstance(url, str) and "://" in url else ""
    if not isinstance(url, str) or scheme.split("+")[0] not in ("postgresql", "postgres", "sqlite"):
        shown = f"a {scheme}:// URL" if scheme else repr(url) if not isinstance(url, str) else "not a URL"
        raise TableConfigError(f'{where}: [records] url is {shown}; give a database URL such as '
                               f'"postgresql://kikimimi@db.club.lan/records" or "sqlite:////var/lib/kikimimi/records.sqlite"')
    return url
