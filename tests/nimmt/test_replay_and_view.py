"""The seed's script replays to the contract's report; the replay equals a live session; the console
panel hides hands and choices unless revealed."""

from __future__ import annotations

import json
from pathlib import Path

from nimmt_table import SEED_TURNS, seed_table

from kikimimi.games.registry import get_info
from kikimimi.games.tableview import table_model
from kikimimi.table.replay import replay

SCRIPT = Path(__file__).parents[1] / "scripts" / "nimmt_seed_turns.jsonl"


def test_seed_script_replays_to_the_contract_report():
    result = replay(SCRIPT.read_text().splitlines(), "en")
    assert result.ok
    report = result.report()
    json.dumps(report)
    assert report["game"] == "nimmt" and report["phase"] == "choose" and report["round"] == 1
    assert report["rows"] == [[45, 47], [15], [48, 51, 77], [92, 96, 100]]
    assert report["bullheads"] == {"1": 10, "2": 0, "3": 2, "4": 0} == report["totals"]
    assert report["taker"] is None and report["result"] is None
    assert all(len(h) == 7 for h in report["hands"].values())
    held = sum(len(h) for h in report["hands"].values()) + sum(len(r) for r in report["rows"]) + \
        sum(len(t) for t in report["taken"].values()) + sum(c is not None for c in report["chosen"].values())
    assert held == 10 * 4 + 4
    texts = [s["text"] for s in report["spoken"] if s["to"] == "speaker"]
    # The reveal of turn 3 is one utterance: each card with its seat and its row, lowest first.
    assert texts[-2:] == ["All have chosen:", "35 seat 3, row 1. 39 seat 4, row 1. 45 seat 1, sixth card: takes "
                                              "row 1, 10 bullheads. 47 seat 2, row 1."]


def test_replay_equals_the_live_session():
    live = seed_table()
    for turn in SEED_TURNS[:2]:
        live.play(turn)
    live.field("row-2")
    live.play(SEED_TURNS[2])
    report = replay(SCRIPT.read_text().splitlines(), "en").report()
    for key in ("spoken", "alerts", "refused_lines"):
        report.pop(key, None)
    assert report == live.report


def drawn(table, *, reveal: bool, players=None) -> str:
    """6 nimmt!'s view model (what both consoles draw) with its words' parameters, as text."""
    info = get_info("nimmt")
    return repr(table_model(info.model_function(), table.report, info.game.observe(table.state, None),
                            reveal=reveal, players=players, seats=3))


def test_view_hides_hands_and_choices_unless_revealed():
    table = seed_table()
    table.play(SEED_TURNS[0])
    table.field(96)
    hidden = drawn(table, reveal=False)
    assert "'cards': '48 51 77'" in hidden and "model.nimmt.chosen" in hidden
    assert "96" not in hidden and "45" not in hidden
    shown = drawn(table, reveal=True, players={1: "Aoi"})
    assert "96" in shown and "45" in shown and "Aoi" in shown
    table.play([34, 15, 100])
    during = drawn(table, reveal=False)
    assert "'15'" in during  # revealed cards are public: on the field
