"""Whole bot games: no invariant violation, every rule exercised, the same seed gives the same game."""

from __future__ import annotations

import json

from kikimimi.app.cli import main
from kikimimi.games.trident.bots import BotRates
from kikimimi_bench.trident_games import play_game, play_games


def test_many_games_without_a_violation_and_every_ending_reached():
    totals = play_games(300, seed=5)
    assert totals.violations == []
    assert totals.games == 300
    assert set(totals.ended_by) == {"out", "crash"}
    assert set(totals.wins) == {1, 2, 3} and set(totals.crashes) == {1, 2, 3}
    assert totals.penalties["wrong_play"] > 0 and totals.penalties["no_declaration"] > 0


def test_legal_bots_never_make_a_wrong_play():
    totals = play_games(100, seed=9, rates=BotRates.perfect())
    assert totals.violations == [] and totals.penalties["wrong_play"] == 0


def test_the_same_seed_plays_the_same_game():
    assert play_game(42) == play_game(42)
    assert play_game(42) != play_game(43)


def test_simulate_command_prints_totals(capsys):
    assert main(["simulate", "--games", "50", "--seed", "3", "--json"]) == 0
    totals = json.loads(capsys.readouterr().out)
    assert totals["games"] == 50 and totals["invariant_violations"] == 0
    assert totals["invariant_checks"] >= 50 * totals["mean_events_per_game"] * 0.99  # one per event
    crashes = sum(count for seat, count in totals["crashed_by_value"].items() if seat != "None")
    assert sum(totals["wins_by_seat"].values()) + crashes == 50
