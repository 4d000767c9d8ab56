"""A table's configuration (TOML): the game, the language, the deck, the journal, the readers, the voice.

    game = "trident"
    rules = "standard"                  # or "competition"
    first = 1
    language = "ja"                     # ja | en
    deck = "sim.toml"                   # a bare name: shipped in devices/decks/; a path: relative to this file
    journal = "~/.local/share/kikimimi/journal.sqlite"   # default: $KIKIMIMI_DATA/journal.sqlite
    debounce = 0.3                      # seconds: a tag lifted and tapped again within this counts once

    [readers.field]   ...               # kikimimi/devices/config.py
    [voice]           ...               # kikimimi/voice/config.py
    [outputs.speaker] ...

The embedded default, used when no file is given, is `devices/tables/sim.toml`: simulated readers, the
default audio device (or the transcript when there is none).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi.devices.config import ReaderSpec, parse_readers
from kikimimi.devices.deck import Deck, DeckError, load_deck
from kikimimi.games.trident.engine import RULES
from kikimimi.paths import data_dir
from kikimimi.voice.catalog import LANGUAGES
from kikimimi.voice.config import OutputSpec, VoiceSpec, parse_voice

TOP_KEYS = {"game", "rules", "first", "language", "deck", "journal", "debounce", "readers", "voice", "outputs"}
GAMES = ("trident",)


class TableConfigError(ValueError):
    """A table configuration that cannot be used; the message says where, what and how to fix it."""


@dataclass(frozen=True)
class TableConfig:
    source: Path
    game: str
    rules: str
    first: int
    language: str
    deck: Deck
    journal: Path
    debounce: float
    readers: list[ReaderSpec]
    voice: VoiceSpec
    outputs: list[OutputSpec]
    raw: dict[str, Any]

    @property
    def setup(self) -> dict[str, Any]:
        return {"game": self.game, "first": self.first, "rules": self.rules}

    @property
    def simulated(self) -> bool:
        return all(spec.protocol == "sim" for spec in self.readers)


def default_config_path() -> Path:
    return data_dir("devices") / "tables" / "sim.toml"


def data_home() -> Path:
    """Where the journal and the records live unless a config says otherwise."""
    env = os.environ.get("KIKIMIMI_DATA")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "kikimimi"


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
    try:
        raw = tomllib.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableConfigError(
            f"{source}: no such table configuration (examples: {default_config_path().parent})"
        ) from None
    except OSError as exc:
        raise TableConfigError(f"{source}: cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise TableConfigError(f"{source}: not valid TOML: {exc}") from exc
    raw.update(overrides or {})
    where = str(source)
    unknown = set(raw) - TOP_KEYS
    if unknown:
        raise TableConfigError(f"{where}: unknown setting(s) {sorted(unknown)}; known: {sorted(TOP_KEYS)}")
    game = raw.get("game", "trident")
    if game not in GAMES:
        raise TableConfigError(f"{where}: game = {game!r}; this table knows {list(GAMES)}")
    rules = raw.get("rules", "standard")
    if rules not in RULES:
        raise TableConfigError(f"{where}: rules = {rules!r}; use one of {list(RULES)}")
    first = raw.get("first", 1)
    if first not in (1, 2, 3):
        raise TableConfigError(f"{where}: first = {first!r}; the first player is seat 1, 2 or 3")
    language = raw.get("language", "ja")
    if language not in LANGUAGES:
        raise TableConfigError(f"{where}: language = {language!r}; use one of {list(LANGUAGES)}")
    debounce = raw.get("debounce", 0.3)
    if not isinstance(debounce, int | float) or not 0 <= debounce <= 5:
        raise TableConfigError(f"{where}: debounce = {debounce!r}; give seconds between 0 and 5 (default 0.3)")
    base = source.parent
    deck_value = raw.get("deck", "sim.toml")
    try:
        deck = load_deck(_resolve(base, str(deck_value), "decks"))
    except DeckError as exc:
        raise TableConfigError(f"{where}: deck = {deck_value!r}: {exc}") from exc
    journal = Path(str(raw["journal"])).expanduser() if "journal" in raw else data_home() / "journal.sqlite"
    if not journal.is_absolute():
        journal = base / journal
    if "readers" not in raw:
        raise TableConfigError(f"{where}: no [readers.field] / [readers.\"hand:1\"] sections; "
                               f"see {default_config_path()} for an example")
    try:
        readers = parse_readers(raw["readers"], where)
        voice, outputs = parse_voice(raw.get("voice", {}), raw.get("outputs", {}), language, where, base)
    except ValueError as exc:  # the devices' and the voice's ConfigError
        raise TableConfigError(str(exc)) from exc
    roles = {spec.role for spec in readers}
    missing = {"field", "hand:1", "hand:2", "hand:3"} - roles
    if missing:
        raise TableConfigError(f"{where}: The Trident needs readers for {sorted(missing)} too")
    return TableConfig(source, game, rules, first, language, deck, journal, float(debounce), readers, voice,
                       outputs, raw)
