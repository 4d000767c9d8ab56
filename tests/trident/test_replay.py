"""`kikimimi replay`: scripts built by hand from the contract give the state report it implies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kikimimi.app.cli import main
from kikimimi.table.replay import replay

SCRIPTS = Path(__file__).parents[1] / "scripts"


def run_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["replay", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_full_game_by_hand_ends_as_the_contract_implies(capsys):
    # Worked out by hand from spec/trident-rules.md: seat 1 declares with two pieces and goes out; seat 2's
    # heart on a diamond was a wrong play; seats 2 and 3 both keep 3 pieces, so the tie goes to seat 2
    # (earlier in play order from the first player).
    code, report = run_json(capsys, str(SCRIPTS / "trident_full_game.jsonl"), "--lang", "en")
    assert code == 0
    assert report["phase"] == "over" and report["turn"] is None
    assert report["hands"] == {"1": [], "2": ["clover-4", "heart-4", "heart-7"],
                               "3": ["clover-3", "heart-6", "spade-8"]}
    assert report["field"][:3] == ["heart-8", "heart-1", "draw2-1"] and report["field"][-1] == "clover-1"
    assert len(report["field"]) == 18 and report["basket_count"] == 30
    assert report["penalties"] == [{"seat": 2, "reason": "wrong_play"}]
    assert report["result"]["winner"] == 1 and report["result"]["ranking"] == [1, 2, 3]
    assert report["result"]["points"] == {"1": 0, "2": 7, "3": 9}
    assert report["required"] == "clover" and report["declared"]["1"] is True
    total = sum(len(h) for h in report["hands"].values()) + len(report["field"]) + report["basket_count"]
    assert total == 54
    out = {"to": "speaker", "key": "game.out",
           "text": "clover: seat 1 is out and wins! Second, seat 2; third, seat 3."}  # the last piece and the ranking
    assert out in report["spoken"] and report["spoken"][-1] == out


def test_spoken_private_lines_only_reach_the_seat_that_tapped():
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    result = replay(lines, lang="ja")
    for step in result.steps:
        for effect in step.effects:
            to = getattr(effect, "to", None)
            if to and to.startswith("hand:"):
                assert step.event.reader == to
    texts = [s["text"] for s in result.spoken]
    assert "ハート" in texts and all("[" not in t for t in texts)  # every phrase rendered in Japanese


def test_malformed_lines_are_reported_with_their_number_and_skipped(tmp_path, capsys):
    script = tmp_path / "bad.jsonl"
    script.write_text("\n".join([
        '{"game": "trident", "first": 2}',
        '{"scan": "hand:1", "piece": "heart-1"}',
        'not json',
        '{"scan": "table", "piece": "heart-2"}',
        '{"scan": "hand:1", "piece": "heart-99"}',
        '{"scan": "hand:1", "piece": "heart-2", "colour": "red"}',
        '{"scan": "field", "uid": "04aabbcc"}',
        '{"game": "trident"}',
        '',
        '{"scan": "hand:1", "piece": "heart-3"}',
    ]))
    code, report = run_json(capsys, str(script))
    assert code == 1
    assert [r["line"] for r in report["refused_lines"]] == [3, 4, 5, 6, 7, 8]
    assert "unknown piece 'heart-99'" in report["refused_lines"][2]["error"]
    assert "no deck" in report["refused_lines"][4]["error"]
    assert report["hands"]["1"] == ["heart-1", "heart-3"]  # the good lines still played
    assert report["first"] == 2


def test_rule_refusals_are_not_malformed(tmp_path, capsys):
    script = tmp_path / "refused.jsonl"
    script.write_text('{"scan": "hand:1", "piece": "ctl-pass"}\n{"scan": "field", "piece": "heart-1"}\n')
    code, report = run_json(capsys, str(script))
    assert code == 0 and report["refused_lines"] == []
    assert [s["key"] for s in report["spoken"]] == ["control.not_now", "deal.not_complete"]


def test_raw_uids_resolve_through_the_deck(tmp_path, capsys):
    deck = tmp_path / "deck.toml"
    deck.write_text('game = "trident"\n[tags]\n"04:A1:B2:C3" = "heart-1"\n"04a1b2c4" = "ctl-pass"\n')
    script = tmp_path / "uids.jsonl"
    script.write_text('{"scan": "hand:1", "uid": "04a1b2c3"}\n{"scan": "hand:2", "uid": "04A1B2C4"}\n'
                      '{"scan": "hand:2", "uid": "ffffffff"}\n')
    code, report = run_json(capsys, str(script), "--deck", str(deck))
    assert report["hands"]["1"] == ["heart-1"]
    assert report["spoken"][1]["key"] == "control.not_now"
    assert code == 1 and "unknown UID ffffffff" in report["refused_lines"][0]["error"]


def test_bad_setup_line_is_refused(tmp_path, capsys):
    script = tmp_path / "setup.jsonl"
    script.write_text('{"game": "trident", "first": 4}\n{"scan": "hand:1", "piece": "heart-1"}\n')
    code, report = run_json(capsys, str(script))
    assert code == 1 and "first player" in report["refused_lines"][0]["error"]
    assert report["hands"]["1"] == ["heart-1"]


def test_missing_script_and_bad_deck_are_clear_errors(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    deck = tmp_path / "deck.toml"
    deck.write_text('[tags]\n"04a1" = "heart-1"\n"04a2" = "heart-1"\n')
    assert main(["replay", str(SCRIPTS / "trident_full_game.jsonl"), "--deck", str(deck)]) == 2
    assert "deck.toml:3" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_transcript_shows_each_output_and_the_state(capsys, lang):
    assert main(["replay", str(SCRIPTS / "trident_full_game.jsonl"), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert "hand:3 earphone" in out and "speaker" in out and "state at the end" in out
    assert ("上がり" if lang == "ja" else "is out and wins") in out
