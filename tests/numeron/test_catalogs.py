"""Every phrase the engine can emit exists in ja and en with its parameters; numbers are said digit by digit."""

from __future__ import annotations

import pytest

from kikimimi.games.numeron.phrases import PHRASES
from kikimimi.voice.catalog import catalog


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_catalog_has_no_phrase_the_engine_never_says(lang):
    """(Every engine phrase with its parameters: tests/games/test_phrase_tables.py, for every game.)"""
    words = catalog(lang, "numeron")
    mine = {k for k, p in words.phrases.items() if p.source.endswith(f"numeron.{lang}.toml")}
    assert mine == set(PHRASES), f"{lang}: missing {sorted(set(PHRASES) - mine)}, extra {sorted(mine - set(PHRASES))}"


SAMPLE = {"seat": 2, "digit": 7, "number": "0319", "call": "0319", "number1": "1234", "number2": "5678",
          "eat": 1, "bite": 2, "slash": 9, "count": 5,
          "pos": "ten_thousands", "pos2": "ones", "cls": "high", "item": "high-low", "place": 5}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_phrase_renders_without_placeholders(lang):
    words = catalog(lang, "numeron")
    for key, params in PHRASES.items():
        line = words.render(key, {p: SAMPLE[p] for p in params})
        assert "[" not in line.text and "[" not in line.reading, (key, line)


def test_numbers_are_said_digit_by_digit():
    assert catalog("en", "numeron").render("set.number_set", {"number": "031"}).reading == "Number set: zero three one."
    ja = catalog("ja", "numeron").render("repeat.call", {"seat": 1, "call": "031", "eat": 1, "bite": 1})
    assert "ぜろ さん いち" in ja.reading and "イート" in ja.reading and "バイト" in ja.reading
    judged = catalog("ja", "numeron").render("call.judged", {"call": "031", "eat": 1, "bite": 1})
    assert judged.text == "1イート 1バイト"  # the digits were each echoed at their tap: not said again
    assert "ヌメロン" in catalog("ja", "numeron").render("call.numeron", {"call": "031", "seat": 1}).reading


def test_item_names_as_players_say_them():
    ja = catalog("ja", "numeron")
    names = {v: ja.render("item.uses", {"seat": 1, "item": v}).reading for v in
             ("double", "high-low", "target", "slash", "shuffle", "change", "move")}
    assert "ダブル" in names["double"] and "ハイアンドロー" in names["high-low"] and "ムーブ" in names["move"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_pack_holds_the_judgements_and_digits_a_game_can_say_not_the_catalogs_number_range(lang):
    words = catalog(lang, "numeron")
    assert list(words.parameter_values("eat")) == list(words.parameter_values("bite")) == list(range(6))  # 3-5 digits
    assert list(words.parameter_values("digit")) == list(range(10))
    assert len(list(words.combinations("call.judged"))) == 36
    assert 60 in words.parameter_values("count")  # a count of calls keeps the number range
