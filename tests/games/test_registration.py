"""What a registration entry declares and its engine reads back: tags and seats said once, bots named there."""

from __future__ import annotations

import inspect

import pytest

from kikimimi.games.base import GameEngine, Say
from kikimimi.games.registry import GameInfo, games


@pytest.mark.parametrize("info", [info for info in games() if info.package.startswith("kikimimi.")],
                         ids=lambda info: info.id)
def test_a_shipped_engine_takes_its_tags_and_seats_from_its_entry(info):
    engine = type(info.game)
    assert engine.entry is info
    assert isinstance(inspect.getattr_static(engine, "tags"), property), "the engine says its own tags"
    assert info.game.tags == frozenset(info.pieces) | frozenset(info.controls)
    assert info.game.seats == info.seats[0]
    assert info.bots is not None and info.roster.default in info.roster()


def test_an_engine_that_says_other_tags_than_its_entry_is_refused():
    class Other(GameEngine):
        tags = frozenset({"card-1"})

    entry = GameInfo(id="other", titles={"en": "Other"}, seats=(2, 2), game_class=lambda: Other, pieces=("card-2",))
    with pytest.raises(TypeError, match="tags are not the entry's pieces"):
        assert entry.game is None


def test_speech_is_merged_by_the_hook_not_by_overriding_apply():
    said = [Say("speaker", "a"), Say("speaker", "b")]
    assert GameEngine().merge_speech(list(said)) == said  # by default each phrase is its own
    shipped = {info.id: type(info.game) for info in games() if info.package.startswith("kikimimi.")}
    whole = sorted(game for game, engine in shipped.items() if engine.apply is not GameEngine.apply)
    assert whole == ["trident"]  # the one engine on a hot path, whose apply is its own whole
    merging = sorted(game for game, engine in shipped.items() if engine.merge_speech is not GameEngine.merge_speech)
    assert merging == ["nimmt", "royal-nine", "suhjong"]
