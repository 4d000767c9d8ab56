"""The consoles' own words (buttons, questions, answers, set-up labels) in the table's language.

They live in `voices/catalog/console.<lang>.toml`, apart from the games' spoken phrases (which need
readings and voice packs; these are only read). Each file has `language` and tables of `key = "text"`;
nested tables make dotted keys (`[setup.trident]` + `first = …` is `setup.trident.first`). A text may
name parameters as `{name}`.

`[reasons]` holds the sentences the games give when they refuse a referee action (written in English in
the rules) as patterns: `"only during a turn (the game is in {phase})" = "…{phase}…"`; a reason no pattern
matches is shown as the table wrote it.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from kikimimi.paths import data_dir

LANGUAGES = ("ja", "en")


class WordsError(ValueError):
    """A console catalog that cannot be used: the file and what is wrong."""


def _flatten(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{key}.")
        elif isinstance(value, str):
            yield f"{prefix}{key}", value


class Words:
    """One language's console texts: `say(key, **params)`; a missing key is said as the key itself (a test
    keeps every shown key defined in both languages)."""

    def __init__(self, lang: str, texts: dict[str, str]) -> None:
        self.lang = lang
        self.texts = texts
        self._reasons = [(_pattern(english), text) for english, text in texts.items()
                         if english.startswith("reasons.")]

    def has(self, key: str) -> bool:
        return key in self.texts

    def say(self, key: str, **params: Any) -> str:
        """The text of `key` with its {params} filled in; a mark no parameter fills (a console action such as
        {new_game}) is left for the console to name."""
        text = self.texts.get(key)
        if text is None:
            return key
        shown = {k: str(self.value(v)) for k, v in params.items()}
        return MARK.sub(lambda mark: shown.get(mark.group(1), mark.group(0)), text)

    def render(self, line: Any) -> str:
        """A guide's line: a finished string, or [key, params] said in this language."""
        return self.value(line) if is_step(line) else str(line)

    def get(self, key: str, default: str) -> str:
        return self.texts.get(key, default)

    def value(self, value: Any) -> Any:
        """A parameter's value as shown: a phase, a place (hand:2, basket) or a word the catalog knows; a
        count of pieces ({"pieces": n}); a phrase of its own ([key, params]); a list of them said as one."""
        if is_step(value):
            return self.say(value[0], **value[1])
        if isinstance(value, Mapping) and "pieces" in value:
            count = int(value["pieces"])
            word = self.texts.get(f"numbers.n{count}", str(count))
            return self.say("pieces.one" if count == 1 else "pieces.many", count=count, word=word)
        if isinstance(value, list | tuple):
            items = [str(self.value(item)) for item in value]
            if len(items) <= 1:
                return "".join(items)
            return self.say("list.comma").join(items[:-1]) + self.say("list.and") + items[-1]
        if isinstance(value, str):
            seat = re.fullmatch(r"hand:(\d+)", value)
            if seat:
                return self.say("place.hand", seat=seat.group(1))
            return self.texts.get(f"values.{value}") or self.texts.get(f"action.{value}") or value
        return value

    def reason(self, why: str) -> str:
        """A game's reason for a refusal in this language (as written when no pattern knows it)."""
        for pattern, text in self._reasons:
            found = pattern.fullmatch(why)
            if found:
                return text.format(**{k: self.value(v) for k, v in found.groupdict().items()})
        return why

    def section(self, prefix: str) -> dict[str, str]:
        """Every text under `prefix.` by its key's rest (the page's words: `page.`)."""
        return {key[len(prefix) + 1:]: text for key, text in self.texts.items() if key.startswith(prefix + ".")}


MARK = re.compile(r"\{([a-z][a-z_]*)\}")


def is_step(value: Any) -> bool:
    """[key, params]: a phrase with its parameters (a guide's line, a part of one)."""
    return (isinstance(value, list | tuple) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], Mapping))


def _pattern(key: str) -> re.Pattern[str]:
    english = key[len("reasons."):]
    out = []
    for literal, name, _, _ in string.Formatter().parse(english):
        out.append(re.escape(literal))
        if name:
            out.append(f"(?P<{name}>.+?)")
    return re.compile("".join(out))


@cache
def words(lang: str) -> Words:
    """The console's words in `lang` (ja or en; another language gets English)."""
    lang = lang if lang in LANGUAGES else "en"
    path = data_dir("voices") / "catalog" / f"console.{lang}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise WordsError(f"{path}: {exc}") from exc
    if data.get("language") != lang:
        raise WordsError(f"{path}: language = {data.get('language')!r}, expected {lang!r}")
    texts = dict(_flatten({k: v for k, v in data.items() if k != "language"}))
    return Words(lang, texts)
