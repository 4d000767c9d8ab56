"""Bots: whole games end, keep every invariant, decide from observe() only; the conformance checks."""

from __future__ import annotations

import json

import pytest
from suhjong_table import Table

from kikimimi.games.conformance import play_bot_game
from kikimimi.games.registry import get_info
from kikimimi.games.suhjong.bots import Bot, GreedyPlayer, Plan, RandomPlayer, SuhjongBots, play_match
from kikimimi.games.suhjong.engine import Suhjong


@pytest.mark.parametrize("bots", ["bot", "random", "greedy"])
def test_bot_games_end_and_pass_the_conformance_checks(bots):
    info = get_info("suhjong")
    for seed in range(6):
        run = play_bot_game(info, seed, {"rounds": 2, "discard_max": 1 + seed % 5}, bots=bots, deep=seed == 0)
        assert not run.problems, run.problems
        assert run.outcome is not None and len(run.events) < info.max_events


def test_bots_leave_human_seats_alone():
    game = Suhjong()
    state = game.initial({})
    bots = SuhjongBots(1)
    for _ in range(5):
        event = bots.next_event(state, humans=(1,))
        assert event.reader == "hand:2"
        state, _ = game.apply(state, event)
    assert bots.next_event(state, humans=(1,)) is None  # seat 1 must deal its own


def test_players_plan_from_the_observation_only():
    t = Table()
    t.deal("98641", "22337")
    obs = Suhjong().observe(t.state, 1)
    seen = json.dumps(obs)
    assert not [card for card in t.state.pile() if f'"{card}"' in seen]  # no pile card is observed
    import random

    for player in (Bot(random.Random(1)), RandomPlayer(random.Random(1)), GreedyPlayer(random.Random(1))):
        plan = player.plan(obs, 1)
        assert isinstance(plan, Plan) and not plan.showdown and 1 <= len(plan.discard) <= 3


def test_greedy_discards_one_card_and_the_bot_declares_its_best_role():
    import random

    t = Table()
    t.deal("98641", "22337")
    obs = Suhjong().observe(t.state, 2)
    assert len(GreedyPlayer(random.Random(1)).plan(obs, 2).discard) == 1
    # The bot writes the solver's best role on the field and closes it.
    game = Suhjong()
    state = game.initial({})
    bots = SuhjongBots(5)
    while state.phase != "over":
        state, _ = game.apply(state, bots.next_event(state))
    for seat in (1, 2):
        declared = state.declared[seat - 1]
        if declared is not None and len(state.hand(seat)) == 5:
            assert declared[1] == (game.report(state)["best"][str(seat)] or 0)


def test_the_bot_wins_most_games_against_both_opponents():
    # A small sample here; `kikimimi bench suhjong` runs the 2,000-game figures.
    assert play_match("bot", "random", 40, 100)["wins"] >= 30
    assert play_match("bot", "greedy", 40, 100)["wins"] >= 20


def test_the_bot_folds_in_a_last_round_only_with_a_safe_lead():
    import random

    t = Table(rounds=1)
    t.deal("01257", "98642")
    obs = Suhjong().observe(t.state, 1)
    assert not Bot(random.Random(1)).plan(obs, 1).fold
    obs = dict(obs, totals={"1": 50, "2": 0}, round=2, rounds=2)
    assert Bot(random.Random(1)).plan(obs, 1).fold


def test_bots_that_could_swap_cards_for_ever_still_end_the_round():
    # Seed 1000036 once looped: both bots picked up each other's discards and never drew.
    run = play_bot_game(get_info("suhjong"), 1000036, {})
    assert not run.problems and run.outcome is not None and len(run.events) < 400
