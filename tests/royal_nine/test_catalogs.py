"""Every phrase the engine can emit exists in both languages with its parameters and renders fully."""

from __future__ import annotations

import pytest

from kikimimi.games.royal_nine.cards import CARDS
from kikimimi.games.royal_nine.phrases import PHRASES
from kikimimi.games.royal_nine.scoring import LINES, ROLES
from kikimimi.voice.catalog import catalog


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_catalog_has_no_phrase_the_engine_never_says(lang):
    """(Every engine phrase with its parameters: tests/games/test_phrase_tables.py, for every game.)"""
    words = catalog(lang, "royal-nine")
    extra = sorted(k for k in words.phrases if k not in PHRASES and words.entry_key(k) != k)
    assert not extra, f"{lang}: phrases nobody says {extra}"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_value_renders(lang):
    words = catalog(lang, "royal-nine")
    for card in CARDS:
        assert "[" not in words.render("deal.card", {"seat": 1, "card": card}).text
        assert "[" not in words.render("cell.content", {"cell": 9, "content": card}).text
    for content in ("empty", "common"):
        assert "[" not in words.render("cell.content", {"cell": 5, "content": content}).text
    for line in LINES:
        for role in ROLES[:3]:
            line_text = words.render("score.line", {"line": line, "role": role, "points": 2})
            assert "[" not in line_text.text and "{" not in line_text.reading
    for role in ROLES[3:]:
        assert "[" not in words.render("score.grid", {"role": role, "points": 16}).text


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_combination_of_small_phrases_renders(lang):
    words = catalog(lang, "royal-nine")
    for key in PHRASES:
        if key in ("score.round", "score.total", "round.begin", "round.next", "score.line", "score.grid"):
            continue  # numbers 0..160: covered above
        for params in words.combinations(key):
            line = words.render(key, params)
            assert "[" not in line.text and "{" not in line.reading, (key, params, line)


def test_japanese_is_read_from_kana():
    line = catalog("ja", "royal-nine").render("place.card", {"seat": 2, "card": "blue-10", "cell": 7})
    assert line.text == "2番 青の10をマス7へ。"
    assert line.reading == "にばん、あおの じゅうを ますななえ。"
    en = catalog("en", "royal-nine").render("score.line", {"line": "col-2", "role": "straight flush", "points": 4})
    assert en.text == "column 2, straight flush, 4."
