"""Every phrase the engine can emit exists in ja and en with its parameters; readings have no kanji."""

from __future__ import annotations

import pytest

from kikimimi.games.suhjong.phrases import PHRASES
from kikimimi.voice.catalog import catalog


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_catalog_has_no_phrase_the_engine_never_says(lang):
    """(Every engine phrase with its parameters: tests/games/test_phrase_tables.py, for every game.)"""
    words = catalog(lang, "suhjong")
    ours = {k for k, p in words.phrases.items() if "suhjong" in p.source}
    assert ours <= set(PHRASES), f"catalog phrases the engine never says: {sorted(ours - set(PHRASES))}"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_phrase_renders_without_placeholders(lang):
    words = catalog(lang, "suhjong")
    sample = {"seat": 2, "value": 48, "points": 96, "total": 120, "count": 7, "cards": "2 2 3", "next": 1,
              "parts": (("draw.pass", {"value": 3, "next": 1}), ("pile.count", {"count": 4}))}
    for key, params in PHRASES.items():
        line = words.render(key, {p: sample[p] for p in params})
        assert "[" not in line.text and "{" not in line.reading, (key, line)


def test_numbers_and_operators_are_read_in_kana():
    ja = catalog("ja", "suhjong")
    assert ja.render("eq.number", {"value": 48}).reading == "よんじゅうはち"
    assert ja.render("eq.times").reading == "かける"
    assert ja.render("eq.plus").reading == "たす"
    assert ja.render("eq.digits", {"cards": "05"}).reading == "ぜろ ご"
    assert ja.render("table.hand", {"seat": 1, "cards": "2 3"}).reading == "いちばんの てふだわ に さん。"
    en = catalog("en", "suhjong")
    assert en.render("eq.digits", {"cards": "05"}).reading == "zero five"
