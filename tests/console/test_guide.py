"""What the console tells the Priest: the game's own guide when its GameInfo names one, else whose turn."""

from types import SimpleNamespace

from kikimimi.console.guide import generic_guide as keyed_generic_guide
from kikimimi.console.guide import guide as keyed_guide
from kikimimi.console.guide import load_guide, name_actions, say_guide
from kikimimi.console.words import words
from kikimimi.games.registry import get_info


def generic_guide(report):
    return say_guide(keyed_generic_guide(report), words("en"))


def guide(report, state, game_guide):
    return say_guide(keyed_guide(report, state, game_guide), words("en"))


def test_generic_guide_says_whose_turn_or_that_it_is_over():
    assert generic_guide({"phase": "turn", "turn": 2}) == ["Next: seat 2 to move."]
    assert generic_guide({"phase": "deal", "turn": None}) == ["Next: the deal."]  # the table waits for it too
    assert say_guide(keyed_generic_guide({"phase": "deal", "turn": None}), words("ja")) == ["次:配り。"]
    assert generic_guide({"phase": "over"}) == ["Next: the game is over. For a new game, {new_game}."]
    assert generic_guide({"phase": "scoring", "result": {"winners": [1]}})[0].startswith("Next: the game is over")


def test_a_games_own_guide_is_used_and_a_failing_one_falls_back():
    assert guide({"turn": 1}, None, lambda report, state: ["Priest: give seat 1 a card."]) == [
        "Priest: give seat 1 a card."]

    def broken(report, state):
        raise RuntimeError("boom")

    lines = guide({"turn": 3}, None, broken)
    assert "guide failed" in lines[0] and lines[1] == "Next: seat 3 to move."


def test_a_guide_is_loaded_from_the_game_info_when_it_names_one():
    def broken_ui():
        raise ImportError("kikimimi.no.such")

    assert load_guide(SimpleNamespace(guide_function=lambda: None)) is None
    assert load_guide(SimpleNamespace(guide_function=lambda: keyed_generic_guide)) is keyed_generic_guide
    assert load_guide(SimpleNamespace(guide_function=broken_ui)) is None


def test_the_trident_names_its_guide_in_the_registry():
    trident_guide = load_guide(get_info("trident"))
    assert trident_guide is not None
    lines = say_guide(trident_guide({"phase": "over", "rules": "standard"}, None), words("en"))
    assert lines[0].startswith("Next: The game is over")


def test_each_console_names_an_action_its_own_way():
    line = "Seat 1 chooses (or {tap_for} for them). For a new game, {new_game}."
    keys = {"tap_for": "press t", "new_game": "press n"}
    assert name_actions(line, keys.get) == "Seat 1 chooses (or press t for them). For a new game, press n."
    assert name_actions(line, lambda action: None) == "Seat 1 chooses (or tap for for them). For a new game, new game."
    assert name_actions("no action here {1}", keys.get) == "no action here {1}"
