"""The example script replays through the table's generic replay, as the live game went."""

from __future__ import annotations

from pathlib import Path

from kikimimi.table.replay import replay

SCRIPT = Path(__file__).parents[1] / "scripts" / "suhjong_showdown.jsonl"


def test_the_showdown_script_replays_to_its_report():
    run = replay(SCRIPT.read_text().splitlines(), "en")
    assert run.ok
    report = run.report()
    assert report["game"] == "suhjong" and report["phase"] == "over"
    assert report["scores"] == {"1": [96, 10], "2": [23, 0]}
    assert report["result"] == {"winner": 1, "totals": {"1": 106, "2": 23}}
    texts = [s["text"] for s in report["spoken"]]
    assert "Seat 1 calls a showdown!" in texts and "This turn, discard at most 1." in texts
    assert "Not a complete equation. Tap on, or clear." in texts
    i = texts.index("96")  # the declaration's taps, said as tapped; then the declaration, in one utterance
    assert texts[i - 5:i + 2] == ["times", "4", "48", "equals", "9", "96",
                                  "Seat 1 declares: A role worth 96. Seat 2's equation."]
    private = [s for s in report["spoken"] if s["to"] == "hand:1"]
    assert private[0]["text"].startswith("Seat 1 holds 2 4 6 8 9. Seat 2 holds 2 2 3 3 7.")  # one utterance


def test_a_malformed_setup_line_is_refused_and_the_game_starts_with_defaults():
    run = replay(['{"game": "suhjong", "discard_max": 9}', '{"scan": "hand:1", "piece": "digit-1-1"}'], "en")
    assert not run.ok and run.setup_error
    assert run.report()["game"] == "suhjong" and run.report()["hands"]["1"] == ["digit-1-1"]
