"""Does Open JTalk read a phrase as the catalog means it? Its reading of the text it is given (`Line.natural`)
is compared with the catalog's kana, sound by sound.

Both sides go through Open JTalk's own phonemes: the kana turned into katakana (so that hiragana particles
are not re-parsed: "はいって" is not "wa itte"), the text as it is. Long vowels written either way (とう,
とー), devoiced vowels, せい/せー and the particle written は or わ count as the same. Numbers are filled
in with 3 and digit strings with 12: these take no counter sound change (いっこ for いちこ is Open JTalk
being right, not a misreading). Every named value ([values] tables) is checked on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kikimimi.voice.catalog import Catalog, Line
from kikimimi.voice.kana import katakana
from kikimimi.voice.tts import open_jtalk

SAMPLE_NUMBER = 3
SAMPLE_DIGITS = "12"


@dataclass(frozen=True)
class Misreading:
    entry: str
    given: str  # what Open JTalk was given
    heard: str  # Open JTalk's reading of it, katakana
    meant: str  # the catalog's kana

    def describe(self) -> str:
        return f"{self.entry}: {self.given!r} is read {self.heard}, the catalog means {self.meant}"


def _sounds(text: str) -> str:
    phonemes = open_jtalk().g2p(text).lower().replace("pau", " ").split()
    # The particle は is written は or わ in the catalogs' kana; long vowels either way.
    # Open JTalk reads katakana ッキョ as "kiyo" and hiragana っきょ as "kyo".
    sounds = re.sub(r"([kgnhbpmr])iy([aou])", r"\1y\2", "".join(phonemes))
    return sounds.replace("wa", "ha").replace("ei", "ee").replace("ou", "oo")


def sample_params(words: Catalog, key: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name in words.phrases[key].params:
        kind = words.param_types.get(name)
        if kind in ("seat", "number"):
            params[name] = SAMPLE_NUMBER
        elif kind in ("digits", "text"):
            params[name] = SAMPLE_DIGITS
        else:
            params[name] = next(iter(words.parameter_values(name)), "")
    return params


def misreading(line: Line) -> Misreading | None:
    """None when Open JTalk reads the line as its kana says, else what it says instead."""
    if _sounds(line.natural) == _sounds(katakana(line.reading)):
        return None
    return Misreading(line.entry or line.key, line.natural, open_jtalk().g2p(line.natural, kana=True),
                      katakana(line.reading))


def misreadings(words: Catalog) -> list[Misreading]:
    """Every phrase (and short form) of a Japanese catalog that Open JTalk would read otherwise than meant."""
    found = []
    for key in sorted(words.phrases):
        params = sample_params(words, key)
        lines = [words.render(key, params)] + ([words.render(key, params, short=True)] if words.has_short(key) else [])
        found += [m for line in lines if (m := misreading(line)) is not None]
    for kind, named in sorted(words.values.items()):  # every named value, each on its own
        for value, (text, reading) in sorted(named.items()):
            line = Line(f"values.{kind}.{value}", text, reading, words.lang, voiced=words.read_as(text))
            found += [m] if (m := misreading(line)) is not None else []
    return found
