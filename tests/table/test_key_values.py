"""The one KEY=VALUE reader: `--set` set-up keys and a phrase's parameters are typed alike."""

import pytest

from kikimimi.app.table_cli import parse_assignments
from kikimimi.app.voice_cli import parse_params
from kikimimi.keyvalue import parse_key_values


def test_numbers_and_true_false_are_typed_and_everything_else_is_text():
    items = ["seat=2", "rate=0.5", "practice=true", "secret=0123", "card=card-3", "note=[1]", "empty="]
    expected = {"seat": 2, "rate": 0.5, "practice": True, "secret": "0123", "card": "card-3", "note": "[1]",
                "empty": ""}
    assert parse_key_values(items) == parse_assignments(items) == parse_params(items) == expected


@pytest.mark.parametrize("item", ["seat", "=2"])
def test_an_item_without_a_key_is_refused_naming_it(item):
    with pytest.raises(ValueError, match=f"{item!r}: write KEY=VALUE"):
        parse_params([item])
