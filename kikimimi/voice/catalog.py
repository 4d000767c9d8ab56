"""Phrase catalogs: a phrase key and its parameters to text in one language.

Catalogs are TOML files in `voices/catalog/`, one per game (plus `common`) and language:
`trident.en.toml`, `trident.ja.toml`. Each game's file is its own namespace: a game's phrases are
looked up in `common` plus that game's file only, so two games may use the same key. Each holds

    language = "ja"
    [params]                           # optional: this game's parameter names and their types
    card = "number"                    # seat | number | digits | text | the name of a [values] table
    [ranges]                           # optional: the values a voice pack renders (default seat 1-3, number 0-60)
    seat = [1, 10]
    number = [0, 104]
    [values.suit]                      # spoken names of enumerated parameter values
    heart = { text = "ハート", kana = "はーと" }
    [phrases."turn.seat"]
    text = "{seat}番の番です"            # display text
    kana = "{seat}ばんのばんです"         # reading for espeak-ng (Japanese only; kanji are not read)
    short = "{seat}番"                  # optional: said instead when the output is behind (same parameters)
    short_kana = "{seat}ばん"            # its reading (Japanese: required with `short`)
    supersedes = "turn"                 # optional: a newer phrase of group "turn" replaces this one while
                                        # it still waits on the speaker (never a private one, never one playing)
    outdates = ["turn"]                 # optional: groups whose waiting speaker phrases this one also drops,
                                        # without joining them ("1." of a new call makes "seat 2 to call" stale)
    brisk = true                        # optional: always said at the pace of a phrase that is behind (a
                                        # reveal everyone waits for); a joined phrase is brisk when every part is
    [readings]                          # optional (Japanese): words Open JTalk misreads in the display text,
    "の位" = "のくらい"                  # and what it is given instead (`kikimimi voices check` finds them)

Parameters are typed by name (PARAM_TYPES, plus a game's `[params]`): seats and numbers are spoken as
numbers, `digits` one digit at a time ("zero three one"), `suit` and `kind` by their names from the
`values` tables, and `phrases` as a sequence of this catalog's own phrases, given as (key, params) pairs
and said one after the other: one utterance for an announcement of variable length (a whole reveal), each
part an ordinary phrase of the pack, the whole spoken live. Pure: no audio here, so replay and the rules' tests
use it without a sound stack.
"""

from __future__ import annotations

import contextlib
import re
import string
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

from kikimimi.paths import data_dir
from kikimimi.voice.kana import katakana, number_kana
from kikimimi.voice.languages import LANGUAGES as LANGUAGES  # its home is a light module (commands' options)

# Parameter name -> its type. A phrase's parameters must all be listed here.
PARAM_TYPES: dict[str, str] = {
    "seat": "seat",
    "first": "seat",
    "second": "seat",
    "third": "seat",
    "count": "number",
    "place": "number",
    "suit": "suit",
    "kind": "kind",
    "title": "title",  # a rank or peerage (Bishop, Baroness ...)
    "name": "text",  # a player's name: spoken as written, so never pre-rendered into a pack
}

PARAM_KINDS = ("seat", "number", "digits", "text", "phrases")  # besides these, a type names a [values] table

# The values a type takes at the table: what a voice pack renders (a game's [ranges] widens them).
SEAT_VALUES = range(1, 4)
NUMBER_VALUES = range(0, 61)
COMMON = "common"
SHORT_SUFFIX = "~short"  # a short form's entry in a voice pack: `<entry>~short[params]`

_DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_DIGIT_KANA = ("ぜろ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう")


class CatalogError(ValueError):
    """A catalog file that cannot be used, with the file and what is wrong."""


@dataclass(frozen=True, slots=True)
class Line:
    """A phrase rendered in one language: what to show and what to read aloud."""

    key: str
    text: str
    reading: str  # the text for a speech engine (kana for Japanese, else the text)
    lang: str
    entry: str = ""  # the key as a voice pack stores it (game phrases carry their namespace)
    voiced: str = ""  # what a natural-Japanese engine (Open JTalk) reads: the display text with the catalog's
    # [readings] applied and digit strings spelled out (empty: the display text)

    @property
    def natural(self) -> str:
        """The text Open JTalk reads."""
        return self.voiced or self.text


@dataclass(frozen=True)
class Phrase:
    key: str
    text: str
    kana: str | None
    params: tuple[str, ...]
    source: str
    short: str | None = None  # a shorter text with the same parameters, said when the output is behind
    short_kana: str | None = None
    supersedes: str | None = None  # its supersession group: a newer one of the group drops a queued one
    outdates: tuple[str, ...] = ()  # other groups whose queued phrases this one drops (it joins none of them)
    brisk: bool = False  # always said FAST_SPEED times faster, as when its output is behind


def phrase_params(template: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for _, name, _, _ in string.Formatter().parse(template) if name))


class Catalog:
    def __init__(self, lang: str, phrases: dict[str, Phrase], values: dict[str, dict[str, tuple[str, str]]],
                 namespace: str | None = None, param_types: Mapping[str, str] | None = None,
                 ranges: Mapping[str, range] | None = None, readings: Mapping[str, str] | None = None):
        self.lang = lang
        self.readings = dict(readings or {})  # display word -> what Open JTalk reads instead
        self.phrases = phrases
        self.values = values  # type -> value -> (text, reading)
        self.namespace = namespace  # the game whose phrases these are (None: a folder of any files)
        self.param_types = {**PARAM_TYPES, **(param_types or {})}
        self.ranges = {"seat": SEAT_VALUES, "number": NUMBER_VALUES, **(ranges or {})}

    @classmethod
    def load(cls, lang: str, folder: Path | None = None, namespace: str | None = None) -> Catalog:
        """`common.<lang>.toml` and the game's `<namespace>.<lang>.toml`, merged; a key defined twice is
        an error. Without a namespace: every `*.<lang>.toml` of `folder` (the shipped folder: the
        default game's)."""
        if folder is None and namespace is None:
            from kikimimi.games.registry import DEFAULT_GAME

            namespace = DEFAULT_GAME
        own = folder is None and namespace not in (None, COMMON)  # a game's file may be in its own folder
        folder = folder or data_dir("voices") / "catalog"
        if namespace is None:
            files = sorted(folder.glob(f"*.{lang}.toml"))
        else:
            game_file = folder / f"{namespace}.{lang}.toml"
            if own:
                from kikimimi.games.registry import UnknownGame, get_info

                with contextlib.suppress(UnknownGame):
                    game_file = get_info(namespace).data_file("catalog", game_file.name, folder)
            files = list(dict.fromkeys(p for p in (folder / f"{COMMON}.{lang}.toml", game_file) if p.exists()))
            if not game_file.exists():
                raise CatalogError(f"no phrase catalog {namespace}.{lang}.toml in {folder}")
        if not files:
            raise CatalogError(f"no phrase catalog for language {lang!r} in {folder} (expected *.{lang}.toml)")
        phrases: dict[str, Phrase] = {}
        values: dict[str, dict[str, tuple[str, str]]] = {}
        param_types: dict[str, str] = dict(PARAM_TYPES)
        ranges: dict[str, range] = {}
        readings: dict[str, str] = {}
        datas = []
        for path in files:
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except tomllib.TOMLDecodeError as exc:
                raise CatalogError(f"{path}: {exc}") from exc
            if data.get("language") != lang:
                raise CatalogError(f"{path}: language = {data.get('language')!r}, expected {lang!r}")
            param_types.update(_param_types(path, data.get("params", {})))
            ranges.update(_ranges(path, data.get("ranges", {}), param_types))
            readings.update(_readings(path, data.get("readings", {})))
            datas.append((path, data))
        for path, data in datas:
            for vtype, table in data.get("values", {}).items():
                for value, entry in table.items():
                    text, kana = _entry(path, f"values.{vtype}.{value}", entry, lang)
                    values.setdefault(vtype, {})[value] = (text, kana or text)
            for key, entry in data.get("phrases", {}).items():
                if key in phrases:
                    raise CatalogError(f"{path}: phrase {key!r} is also defined in {phrases[key].source}")
                text, kana = _entry(path, f"phrases.{key}", entry, lang)
                params = phrase_params(text)
                if kana is not None and set(phrase_params(kana)) != set(params):
                    raise CatalogError(f"{path}: phrase {key!r}: kana has parameters {phrase_params(kana)}, "
                                       f"text has {params}")
                unknown = [p for p in params if p not in param_types]
                if unknown:
                    raise CatalogError(f"{path}: phrase {key!r} uses unknown parameter(s) {unknown}; "
                                       f"known: {sorted(param_types)} (a game adds its own under [params])")
                short, short_kana, group = _extras(path, key, entry, lang, params)
                outdates = _outdates(path, key, entry)
                brisk = isinstance(entry, dict) and entry.get("brisk", False)
                if not isinstance(brisk, bool):
                    raise CatalogError(f"{path}: phrase {key!r}: brisk = {brisk!r}; give true or false")
                phrases[key] = Phrase(key, text, kana, params, str(path), short, short_kana, group, outdates,
                                      brisk)
        groups = {phrase.supersedes for phrase in phrases.values()}
        for phrase in phrases.values():
            if unknown_groups := [g for g in phrase.outdates if g not in groups]:
                raise CatalogError(f"{phrase.source}: phrase {phrase.key!r} outdates {unknown_groups}, a group no "
                                   f"phrase joins (groups: {sorted(g for g in groups if g)})")
        return cls(lang, phrases, values, namespace, param_types, ranges, readings)

    def entry_key(self, key: str) -> str:
        """A phrase's key as a voice pack stores it: game phrases carry their namespace."""
        phrase = self.phrases.get(key)
        if phrase is None or self.namespace is None or Path(phrase.source).name.startswith(f"{COMMON}."):
            return key
        return f"{self.namespace}:{key}"

    def render(self, key: str, params: Mapping[str, Any] | None = None, short: bool = False) -> Line:
        """The phrase in this language (with `short`, its short form if it has one; a pack stores that
        under `<entry>~short`). A missing key or value renders visibly instead of raising."""
        params = params or {}
        phrase = self.phrases.get(key)
        if phrase is None:
            return Line(key, f"[{key}]", key, self.lang, key)
        short = short and phrase.short is not None  # a sequence said short says its parts short too
        shown = {name: self._value(name, params.get(name), reading=False, short=short) for name in phrase.params}
        read = {name: self._value(name, params.get(name), reading=True, short=short) for name in phrase.params}
        # Open JTalk reads the display text (its counters and accents beat a kana string), except digit
        # strings, which it would read as one number ("12" is イチ、ニ in Numeron, not じゅうに; in katakana,
        # as hiragana runs into a particle before it: "はいち" is read "hai chi").
        voiced_values = {name: self._voiced_value(name, shown[name], read[name], params.get(name), short)
                         for name in phrase.params}
        if short and phrase.short is not None:
            text = phrase.short.format_map(shown)
            reading = (phrase.short_kana or phrase.short).format_map(read)
            voiced = self._voiced(phrase.short, voiced_values)
            return Line(key, text, reading, self.lang, f"{self.entry_key(key)}{SHORT_SUFFIX}", voiced)
        text = phrase.text.format_map(shown)
        reading = (phrase.kana or phrase.text).format_map(read)
        return Line(key, text, reading, self.lang, self.entry_key(key), self._voiced(phrase.text, voiced_values))

    def _voiced(self, template: str, values: Mapping[str, str]) -> str:
        """The text Open JTalk reads (empty in English): the catalog's [readings] applied to the template's
        own words and to its named values, never to a player's name."""
        if self.lang != "ja":
            return ""
        return self.read_as(template).format_map(values)

    def _voiced_value(self, name: str, shown: str, read: str, value: Any = None, short: bool = False) -> str:
        kind = self.param_types.get(name, "")
        if kind == "phrases":
            return self._joiner.join(line.natural for line in self._parts(value, short))
        if kind == "digits":
            return katakana(read).replace(" ", "、")
        return shown if kind in PARAM_KINDS else self.read_as(shown)

    def read_as(self, text: str) -> str:
        """Words of the display text as Open JTalk is given them (the catalog's [readings])."""
        for word, reading in self.readings.items():
            text = text.replace(word, reading)
        return text

    def parts(self, key: str, params: Mapping[str, Any], short: bool = False) -> list[tuple[Line, dict[str, Any]]]:
        """A joined phrase's parts (a `phrases` parameter), each rendered with the parameters its pack entry
        is stored under; empty for an ordinary phrase (so a table can play the parts' pack clips in turn)."""
        phrase = self.phrases.get(key)
        if phrase is None:
            return []
        short = short and phrase.short is not None
        return [item for name in phrase.params if self.param_types.get(name) == "phrases"
                for item in self._rendered_parts(params.get(name), short)]

    def _rendered_parts(self, value: Any, short: bool) -> list[tuple[Line, dict[str, Any]]]:
        """A `phrases` value's parts (pairs of a key and its parameters; a journal gives lists), each
        rendered, with the parameters its phrase takes (what its pack entry is stored under)."""
        out: list[tuple[Line, dict[str, Any]]] = []
        for part in value if isinstance(value, (list, tuple)) else ():
            if not (isinstance(part, (list, tuple)) and part and isinstance(part[0], str)):
                continue
            given = dict(part[1]) if len(part) > 1 and isinstance(part[1], Mapping) else {}
            inner = self.phrases.get(part[0])
            kept = {n: given[n] for n in inner.params if n in given} if inner is not None else given
            out.append((self.render(part[0], kept, short), kept))
        return out

    def has_short(self, key: str) -> bool:
        phrase = self.phrases.get(key)
        return phrase is not None and phrase.short is not None

    def brisk(self, key: str, params: Mapping[str, Any]) -> bool:
        """Whether the phrase is always said at the pace of one that is behind: it is marked `brisk`, or it
        is joined of parts that all are."""
        phrase = self.phrases.get(key)
        if phrase is None:
            return False
        parts = self.parts(key, params)
        return phrase.brisk or bool(parts) and all(
            (inner := self.phrases.get(line.key)) is not None and inner.brisk for line, _params in parts)

    def group(self, key: str) -> str | None:
        """The phrase's supersession group (None: a newer phrase never replaces it)."""
        phrase = self.phrases.get(key)
        return None if phrase is None else phrase.supersedes

    def drops(self, key: str) -> tuple[str, ...]:
        """The groups whose waiting speaker phrases a new phrase of `key` drops: its own group (`supersedes`)
        and the groups it `outdates`. Empty: it drops nothing."""
        phrase = self.phrases.get(key)
        if phrase is None:
            return ()
        own = (phrase.supersedes,) if phrase.supersedes else ()
        return tuple(dict.fromkeys((*own, *phrase.outdates)))

    def _value(self, name: str, value: Any, reading: bool, short: bool = False) -> str:
        vtype = self.param_types.get(name, "")
        if value is None:
            return f"[{name}]"
        if vtype == "text":
            return str(value)
        if vtype == "phrases":
            return self._joiner.join(line.reading if reading else line.text for line in self._parts(value, short))
        if vtype == "digits":
            digits = [int(d) for d in str(value) if d.isdigit()]
            if not reading:
                return str(value)
            words = _DIGIT_KANA if self.lang == "ja" else _DIGIT_WORDS
            return " ".join(words[d] for d in digits)
        if vtype in ("seat", "number"):
            if reading and self.lang == "ja" and isinstance(value, int) and 0 <= value < 10000:
                return number_kana(value)
            return str(value)
        entry = self.values.get(vtype, {}).get(str(value))
        if entry is None:
            return f"[{value}]"
        return entry[1] if reading else entry[0]

    @property
    def _joiner(self) -> str:
        return "" if self.lang == "ja" else " "  # parts end in their own punctuation

    def _parts(self, value: Any, short: bool = False) -> list[Line]:
        """A `phrases` parameter's parts, rendered."""
        return [line for line, _ in self._rendered_parts(value, short)]

    def parameter_values(self, name: str) -> Iterable[Any]:
        """Every value a parameter takes at the table (what a voice pack renders)."""
        vtype = self.param_types[name]
        if vtype in ("seat", "number"):
            return self.ranges.get(name, self.ranges[vtype])
        if vtype in ("text", "digits", "phrases"):
            return ()  # free text, digit strings, sequences of phrases: spoken live, nothing to render ahead
        return sorted(self.values.get(vtype, {}))

    def combinations(self, key: str) -> Iterator[dict[str, Any]]:
        """Every parameter combination of a phrase, for rendering a voice pack."""
        names = self.phrases[key].params
        for combo in product(*(self.parameter_values(n) for n in names)):
            yield dict(zip(names, combo, strict=True))


_KANA_ONLY = re.compile(r"^[\u3040-\u30ff\u30fc\s\d{}、。！？!?,.・ー〜a-zA-Z_-]*$")


def _entry(path: Path, where: str, entry: Any, lang: str) -> tuple[str, str | None]:
    if isinstance(entry, str):
        entry = {"text": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
        raise CatalogError(f"{path}: {where}: expected a string or a table with `text`")
    kana = entry.get("kana")
    if lang == "ja":
        if not isinstance(kana, str):
            raise CatalogError(f"{path}: {where}: Japanese entries need a `kana` reading (espeak-ng reads no kanji)")
        if not _KANA_ONLY.match(kana):
            raise CatalogError(f"{path}: {where}: kana reading {kana!r} contains kanji")
    return entry["text"], kana


def _extras(path: Path, key: str, entry: Any, lang: str,
            params: tuple[str, ...]) -> tuple[str | None, str | None, str | None]:
    """A phrase's optional `short` (and `short_kana`) form and `supersedes` group, checked."""
    if not isinstance(entry, dict):
        return None, None, None
    where = f"{path}: phrase {key!r}"
    short, short_kana, group = entry.get("short"), entry.get("short_kana"), entry.get("supersedes")
    if short is not None:
        if not isinstance(short, str) or not short.strip():
            raise CatalogError(f"{where}: `short` must be a non-empty string")
        if set(phrase_params(short)) != set(params):
            raise CatalogError(f"{where}: short form has parameters {phrase_params(short)}, text has {params} "
                               f"(a short form says the same thing, so it takes the same parameters)")
    if short_kana is not None:
        if short is None:
            raise CatalogError(f"{where}: `short_kana` without a `short` text")
        if not isinstance(short_kana, str) or set(phrase_params(short_kana)) != set(params):
            raise CatalogError(f"{where}: short_kana must be a string with the parameters {params}")
        if not _KANA_ONLY.match(short_kana):
            raise CatalogError(f"{where}: short_kana reading {short_kana!r} contains kanji")
    elif short is not None and lang == "ja":
        raise CatalogError(f"{where}: a Japanese `short` form needs a `short_kana` reading")
    if group is not None and (not isinstance(group, str) or not group.strip()):
        raise CatalogError(f"{where}: `supersedes` must name a group, e.g. supersedes = \"turn\"")
    return short, short_kana, group


def _outdates(path: Path, key: str, entry: Any) -> tuple[str, ...]:
    """A phrase's optional `outdates` list of group names, checked."""
    groups = entry.get("outdates", []) if isinstance(entry, dict) else []
    if isinstance(groups, str):
        groups = [groups]
    if not isinstance(groups, list) or not all(isinstance(g, str) and g.strip() for g in groups):
        raise CatalogError(f"{path}: phrase {key!r}: `outdates` must list group names, e.g. outdates = [\"turn\"]")
    return tuple(groups)


def _param_types(path: Path, table: Any) -> dict[str, str]:
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise CatalogError(f"{path}: [params] must map parameter names to types ({', '.join(PARAM_KINDS)} "
                           f"or a [values] table)")
    return dict(table)


def _readings(path: Path, table: Any) -> dict[str, str]:
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) and k and v
                                              for k, v in table.items()):
        raise CatalogError(f"{path}: [readings] must map a word of the display text to what Open JTalk reads "
                           f'instead, e.g. "の位" = "のくらい"')
    return dict(table)


def _ranges(path: Path, table: Any, param_types: Mapping[str, str]) -> dict[str, range]:
    """A type's range (seat, number), or one parameter's of those types (Numeron's eat = [0, 5])."""
    out = {}
    for name, bounds in (table or {}).items():
        if name not in ("seat", "number") and param_types.get(name) not in ("seat", "number") or not (
                isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, int) for b in bounds)):
            raise CatalogError(f"{path}: [ranges] {name} = {bounds!r}; give seat, number or a parameter of "
                               f"either type = [lowest, highest]")
        out[name] = range(bounds[0], bounds[1] + 1)
    return out


@cache
def catalog(lang: str, namespace: str | None = None) -> Catalog:
    """The shipped catalog for a language and game (common phrases only for "common"), loaded once."""
    return Catalog.load(lang, namespace=namespace)
