"""Typed and JSONL game results read into the table's Outcome."""

from __future__ import annotations

import pytest

from kikimimi.records.entry import EntryError, parse_json_line, parse_typed

SEATS = {1: "Ann", 2: "Bob", 3: "Cid"}


def test_typed_names_seats_points_and_crash():
    o = parse_typed("bob:3 1:12 Cid:40!", SEATS)
    # As the Trident's engine says it: a game that ended by a crash has no winner (nobody went out).
    assert (o.ranking, o.winners, o.crashed, dict(o.scores)) == ((2, 1, 3), (), 3, {2: 3, 1: 12, 3: 40})
    plain = parse_typed("Ann Bob Cid", SEATS)
    assert (plain.crashed, plain.winners) == (None, (1,))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ann Bob", "name all 3"),
        ("Ann Ann Cid", "twice"),
        ("Ann! Bob Cid", "last"),
        ("Ann Bob Zed", "not a player"),
        ("Ann Bob! Cid!", "only one"),
        ("Ann:x Bob Cid", "cannot read"),
    ],
)
def test_typed_mistakes_say_what_to_type(text, message):
    with pytest.raises(EntryError, match=message):
        parse_typed(text, SEATS)


def test_json_line():
    o = parse_json_line('{"ranking": ["Cid", 1, "Bob"], "crashed": "Bob", "pieces": {"Bob": 9}}', SEATS)
    assert (o.ranking, o.crashed, dict(o.pieces)) == ((3, 1, 2), 2, {2: 9})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "not JSON"),
        ('{"order": []}', "ranking"),
        ('{"ranking": ["Ann", "Bob"]}', "all 3"),
        ('{"ranking": ["Ann", "Bob", "Cid"], "points": {"Ann": "many"}}', "whole numbers"),
        ('{"ranking": ["Ann", "Bob", "Cid"], "crash": "Cid"}', "unknown field"),
    ],
)
def test_json_mistakes(line, message):
    with pytest.raises(EntryError, match=message):
        parse_json_line(line, SEATS)
