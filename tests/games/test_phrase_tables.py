"""Every game's phrase table (`<package>/phrases.py`'s PHRASES: each key the engine says, with its parameters)
against its shipped catalogs: each key is there in both languages, with exactly those parameters. One test over
the registry; a game's own catalog tests keep only what is particular to it."""

from __future__ import annotations

import importlib

import pytest

from kikimimi.games.registry import games
from kikimimi.voice.catalog import LANGUAGES, catalog

TABLES = [(info, importlib.import_module(f"{info.game_class.package}.phrases").PHRASES) for info in games()]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("info", "phrases"), TABLES, ids=[info.id for info, _ in TABLES])
def test_every_engine_phrase_is_in_the_catalog_with_its_parameters(info, phrases, lang):
    words = catalog(lang, info.catalog)
    missing = sorted(set(phrases) - set(words.phrases))
    assert not missing, f"{info.id}, {lang}: missing phrases {missing}"
    wrong = {key: (words.phrases[key].params, want) for key, want in phrases.items()
             if set(words.phrases[key].params) != set(want)}
    assert not wrong, f"{info.id}, {lang}: parameters differ {wrong}"
