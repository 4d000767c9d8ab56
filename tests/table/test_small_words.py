"""Small words (issue 21, point 23): no "a 8" or "1 cards" in any English phrase, and the commands' summaries
count in the right number ("1 meeting", "5 games")."""

from __future__ import annotations

import re

import pytest

from kikimimi.games.registry import games
from kikimimi.voice.catalog import catalog
from kikimimi.words import counted

NUMERIC = ("number",)  # a count or a card's value (a seat is a name: "Seat 1 plays" is right)
A_BEFORE_VOWEL_SOUND = re.compile(r"\b[Aa] (8|11|18|eight|eleven|eighteen)\b")  # "a 8", said "a eight"
ONE_THEN_PLURAL = re.compile(r"\b1 ([a-z]+s)\b")


@pytest.mark.parametrize("game", [info.id for info in games()])
def test_no_english_phrase_says_a_8_or_1_cards(game):
    info = next(i for i in games() if i.id == game)
    words = catalog("en", info.catalog)
    wrong = []
    for key, phrase in words.phrases.items():
        numeric = [p for p in phrase.params if words.param_types.get(p) in NUMERIC]
        if not numeric:
            continue
        for value in (1, 8, 11, 18):
            params = {p: value if p in numeric else 2 for p in phrase.params}
            text = words.render(key, params).text
            if A_BEFORE_VOWEL_SOUND.search(text) or (value == 1 and (m := ONE_THEN_PLURAL.search(text))
                                                     and m.group(1) not in ("is", "was", "has", "does", "this")):
                wrong.append(f"{key}: {text}")
    assert not wrong, "\n".join(wrong)


def test_a_count_has_its_noun_in_the_right_number():
    assert [counted(n, "meeting") for n in (0, 1, 2)] == ["0 meetings", "1 meeting", "2 meetings"]
    assert counted(1, "crash", "crashes") == "1 crash" and counted(3, "crash", "crashes") == "3 crashes"


def test_a_players_summary_counts_one_meeting_as_one(tmp_path, monkeypatch, capsys):
    import json

    from kikimimi.app.cli import main

    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    results = [{"player": "Ann", "place": 1}, {"player": "Bob", "place": 2}, {"player": "Cid", "place": 3}]
    sheet = tmp_path / "sheet.jsonl"
    line = json.dumps({"meeting": "club", "kind": "half", "date": "2024-05-12", "results": results})
    sheet.write_text((line + "\n") * 5)  # a half trial: five games
    assert main(["records", "import", str(sheet)]) == 0
    capsys.readouterr()
    assert main(["players", "show", "Ann"]) == 0
    out = capsys.readouterr().out
    assert "5 games in 1 meeting;" in out and "in a row now: 5 wins, 0 crashes" in out, out
