"""Open JTalk reads every Japanese phrase as its catalog's kana means it (its own readings are checked,
sound by sound, against the catalog's: a misread word is fixed in the catalog's [readings])."""

from __future__ import annotations

from pathlib import Path

from voice_helpers import make_catalog

from kikimimi.app.voice_cli import game_catalogs
from kikimimi.voice.catalog import Catalog
from kikimimi.voice.readings import misreadings


def test_every_shipped_japanese_phrase_is_read_as_meant() -> None:
    found = [m.describe() for words in game_catalogs("ja") for m in misreadings(words)]
    assert found == []


def test_a_misread_word_is_found_and_a_reading_fixes_it(tmp_path: Path) -> None:
    phrase = '"test.win" = { text = "{seat}番の勝ちです。", kana = "{seat}ばんの かちです。" }\n'
    plain = Catalog.load("ja", make_catalog(tmp_path, f'language = "ja"\n[phrases]\n{phrase}', "test.ja.toml"))
    [found] = misreadings(plain)
    assert found.entry == "test.win" and "ガチ" in found.heard and "カチ" in found.meant
    fixed = f'language = "ja"\n[readings]\n"の勝ち" = "のかち"\n[phrases]\n{phrase}'
    assert misreadings(Catalog.load("ja", make_catalog(tmp_path, fixed, "test.ja.toml"))) == []
