"""Outcomes as journals and outboxes kept them before outcomes were the same for every game (one game's
shape: `winner`, `crashed`, `pieces`, `points`) still load, and are recorded as the engine's outcome
of the same game is today. `data/journal-outcomes-v1.jsonl` holds two such outcomes: a game won by
going out, and one ended by a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kikimimi.games.base import GameOver, Outcome
from kikimimi.games.codec import effect_from_json, effect_to_json, outcome_from_json
from kikimimi.games.trident.ladder import LADDER
from kikimimi.records.results import game_details, results_from_outcome

OLD = [json.loads(line) for line in (Path(__file__).parent / "data" / "journal-outcomes-v1.jsonl").open()]
SEATS = {1: "Ann", 2: "Bob", 3: "Cid"}


def as_the_engine_ends_it(old: dict) -> Outcome:
    """The same game as the Trident's engine ends one now."""
    return Outcome(ranking=tuple(old["ranking"]), winners=(old["winner"],) if old["winner"] else (),
                   scores={int(k): v for k, v in old["points"].items()}, reason=old["reason"],
                   details={"crashed": old["crashed"], "pieces": {int(k): v for k, v in old["pieces"].items()}})


@pytest.mark.parametrize("old", OLD, ids=["out", "crash"])
def test_an_old_outcome_loads_and_records_as_todays(old):
    loaded = outcome_from_json(old)
    assert loaded == as_the_engine_ends_it(old)
    assert effect_from_json({"over": old}) == GameOver(loaded)  # a journal's or script's `over` effect
    assert effect_from_json(effect_to_json(GameOver(loaded))) == GameOver(loaded)  # written anew, read back
    results = results_from_outcome(SEATS, loaded, LADDER)
    crashed = [r.player for r in results if r.details.get("crashed")]
    assert crashed == ([SEATS[old["crashed"]]] if old["crashed"] else [])
    assert {r.player: (r.score, r.details["pieces"]) for r in results} == {
        SEATS[int(k)]: (old["points"][k], old["pieces"][k]) for k in old["points"]}
    assert game_details(loaded, LADDER) == {}  # the crash is its seat's, not the game's
