"""Every phrase the engine can emit exists in both languages with exactly its parameters; every
combination a voice pack renders is complete; the ranges cover ten seats and card 104."""

from __future__ import annotations

import pytest

from kikimimi.games.nimmt.phrases import PHRASES
from kikimimi.voice.catalog import catalog


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_catalog_has_no_phrase_the_engine_never_says(lang):
    """(Every engine phrase with its parameters: tests/games/test_phrase_tables.py, for every game.)"""
    words = catalog(lang, "nimmt")
    game_keys = {key for key, phrase in words.phrases.items() if "nimmt." in phrase.source}
    assert game_keys == set(PHRASES), (sorted(set(PHRASES) - game_keys), sorted(game_keys - set(PHRASES)))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_combination_renders_without_placeholders(lang):
    words = catalog(lang, "nimmt")
    total = 0
    for key in PHRASES:
        for params in words.combinations(key):
            line = words.render(key, params)
            total += 1
            assert "[" not in line.text and "{" not in line.reading, (key, params, line)
    # A voice pack has all of them ahead (12,379 today: the reveal's card, seat and row are one phrase [N20]),
    # built from about 1,700 rendered parts.
    assert total < 13_000


def test_ranges_cover_ten_seats_and_every_card():
    words = catalog("en", "nimmt")
    assert list(words.parameter_values("seat")) == list(range(1, 11))
    assert max(words.parameter_values("card")) == 104


def test_japanese_numbers_and_bullhead_counts_are_read_in_kana():
    words = catalog("ja", "nimmt")
    line = words.render("card.b7", {"card": 55})
    assert (line.text, line.reading) == ("55、牛7頭。", "ごじゅうご、うし ななとう。")
    line = words.render("reveal.card", {"card": 104, "seat": 10})
    # A space where a comma is not needed (Open JTalk pauses less), never between two numbers (read as one).
    assert line.reading == "ひゃくよん、じゅうばん " and line.text == "104、10番 "
    line = words.render("reveal.place", {"card": 104, "seat": 10, "row": 4})
    assert line.reading == "ひゃくよん、じゅうばん よんれつ。" and line.text == "104、10番 4列。"
    assert words.render("take.bullheads", {"heads": 10}).reading == "うし じゅっとう。"
    assert words.render("row.bullheads", {"heads": 21}).reading == "うし にじゅういっとう。"


def test_english_singular_and_plural():
    words = catalog("en", "nimmt")
    assert words.render("row.reading", {"row": 2, "size": 1, "card": 15}).text == "Row 2: 1 card, ends at 15,"
    assert words.render("row.bullheads", {"heads": 1}).text == "1 bullhead."
    assert words.render("take.bullheads", {"heads": 7}).text == "7 bullheads."
