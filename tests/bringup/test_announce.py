"""What bring-up says for a tap, and on which output."""

import pytest

from kikimimi.bringup.announce import announce, output_for, phrase_for
from kikimimi.devices.simdeck import sim_uid
from kikimimi.table.config import load_config
from kikimimi.voice.catalog import catalog


@pytest.fixture(scope="module")
def deck():
    return load_config().deck


@pytest.mark.parametrize("role,output", [("field", "speaker"), ("hand:1", "hand:1"), ("hand:3", "hand:3"),
                                         ("table", None), ("hand:x", None)])
def test_each_reader_speaks_on_its_own_output_only(role, output):
    assert output_for(role) == output


def test_a_piece_is_named_by_its_kind(deck):
    heard = announce(deck, "hand:2", sim_uid("heart-3", 0))
    assert heard.tag_id == "heart-3"
    assert heard.say.to == "hand:2" and heard.say.key == "piece.heart"


def test_an_unknown_is_only_unknown_on_a_hand_reader_but_named_in_full_on_the_field(deck):
    uid = sim_uid("unknown-turn-left", 0)
    assert announce(deck, "hand:1", uid).say.key == "piece.unknown"
    assert announce(deck, "field", uid).say.key == "piece.unknown-turn-left"


def test_control_tags_and_tags_not_in_the_deck(deck):
    assert phrase_for("ctl-pass", "hand:1") == ("bringup.control_pass", {})
    assert phrase_for("ctl-trident", "field") == ("bringup.control_trident", {})
    assert phrase_for("ctl-spade", "hand:2") == ("bringup.control_suit", {"suit": "spade"})
    heard = announce(deck, "hand:3", "deadbeef")
    assert heard.tag_id is None and heard.say.key == "bringup.unknown_tag"


def test_a_reader_without_an_output_is_not_spoken(deck):
    assert announce(deck, "table", sim_uid("heart-1", 0)).say is None


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_phrase_bringup_says_renders_in_both_languages(lang, deck):
    words = catalog(lang, deck.game)
    for tag_id in [*set(deck.tags.values()), None]:
        for role in ("field", "hand:1"):
            key, params = phrase_for(tag_id, role)
            line = words.render(key, params)
            assert "[" not in line.text, (tag_id, role, line)
