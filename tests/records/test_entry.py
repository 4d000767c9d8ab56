"""Typed and JSONL game results read into the table's Outcome."""

from __future__ import annotations

import pytest

from kikimimi.games.trident.ladder import LADDER
from kikimimi.records.entry import EntryError, parse_json_line
from kikimimi.records.entry import parse_typed as parse_any_game
from kikimimi.records.results import results_from_outcome

SEATS = {1: "Ann", 2: "Bob", 3: "Cid"}


def parse_typed(text, seats):
    """A typed result of the Trident (its ladder's `!` marks the crash)."""
    return parse_any_game(text, seats, LADDER)


def test_typed_names_seats_points_and_crash():
    o = parse_typed("bob:3 1:12 Cid:40!", SEATS)
    # As the Trident's engine says it: a game that ended by a crash has no winner (nobody went out).
    assert (o.ranking, o.winners, o.details, dict(o.scores)) == ((2, 1, 3), (), {"crashed": {3: True}},
                                                                 {2: 3, 1: 12, 3: 40})
    plain = parse_typed("Ann Bob Cid", SEATS)
    assert (plain.details, plain.winners) == ({}, (1,))
    # Recorded as the engine's own outcome of that game is: the crash on Cid's result.
    engine = type(o)(o.ranking, (), o.scores, "", {"crashed": 3})
    assert results_from_outcome(SEATS, o, LADDER) == results_from_outcome(SEATS, engine, LADDER)


def test_a_game_without_a_ladder_knows_no_marks():
    with pytest.raises(EntryError, match="'Cid!' is not a player"):
        parse_any_game("Ann Bob Cid!", SEATS)
    assert parse_any_game("Ann:3 Bob:5 Cid", SEATS).winners == (1,)  # the first wins, no ladder to say otherwise


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
    o = parse_json_line('{"ranking": ["Cid", 1, "Bob"], "crashed": "Bob", "pieces": {"Bob": 9}}', SEATS, LADDER)
    assert (o.ranking, o.details) == ((3, 1, 2), {"crashed": {2: True}, "pieces": {2: 9}})


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
        parse_json_line(line, SEATS, LADDER)
