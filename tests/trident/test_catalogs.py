"""The Trident's phrases rendered in every combination; readings have no kanji (every phrase with its parameters
in both languages: tests/games/test_phrase_tables.py)."""

from __future__ import annotations

import pytest

from kikimimi.games.trident.phrases import PHRASES
from kikimimi.voice.catalog import Catalog, CatalogError, catalog
from kikimimi.voice.kana import number_kana


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_combination_renders_without_placeholders(lang):
    words = catalog(lang)
    for key in PHRASES:
        for params in words.combinations(key):
            line = words.render(key, params)
            assert "[" not in line.text and "{" not in line.reading, (key, params, line)


def test_japanese_is_read_from_kana():
    line = catalog("ja").render("turn.attacked", {"seat": 3, "count": 14})
    assert line.text == "3番 14個取るか返して"
    assert line.reading == "さんばん じゅうよんこ とるか かえして"


def test_number_kana():
    assert [number_kana(n) for n in (0, 1, 10, 24, 54, 300, 1000)] == [
        "ぜろ", "いち", "じゅう", "にじゅうよん", "ごじゅうよん", "さんびゃく", "せん"]


def test_a_missing_kana_reading_or_kanji_in_it_is_refused(tmp_path):
    (tmp_path / "x.ja.toml").write_text('language = "ja"\n[phrases]\n"a.b" = { text = "番" }\n')
    with pytest.raises(CatalogError, match="kana"):
        Catalog.load("ja", tmp_path)
    (tmp_path / "x.ja.toml").write_text('language = "ja"\n[phrases]\n"a.b" = { text = "番", kana = "番" }\n')
    with pytest.raises(CatalogError, match="kanji"):
        Catalog.load("ja", tmp_path)


def test_a_key_defined_twice_or_an_unknown_parameter_is_refused(tmp_path):
    (tmp_path / "a.en.toml").write_text('language = "en"\n[phrases]\n"k" = "one"\n')
    (tmp_path / "b.en.toml").write_text('language = "en"\n[phrases]\n"k" = "two"\n')
    with pytest.raises(CatalogError, match="also defined"):
        Catalog.load("en", tmp_path)
    (tmp_path / "b.en.toml").write_text('language = "en"\n[phrases]\n"j" = "seat {colour}"\n')
    with pytest.raises(CatalogError, match="unknown parameter"):
        Catalog.load("en", tmp_path)


def test_a_missing_phrase_renders_visibly_instead_of_raising():
    assert catalog("en").render("no.such.key").text == "[no.such.key]"
