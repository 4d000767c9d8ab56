"""Bots: they decide from one seat's observation, deal random undealt cards, leave human seats alone,
are reproducible, and the reference players follow the contract's definitions."""

from __future__ import annotations

import json
import random

import pytest
from game_table import play_bots
from nimmt_table import SEED_ROWS, SEED_TURNS, seed_table

from kikimimi.games.base import FIELD, Scan
from kikimimi.games.nimmt.bench import play_game
from kikimimi.games.nimmt.bots import NimmtBots, random_bots, safest_bots, table_bots
from kikimimi.games.nimmt.engine import Nimmt
from kikimimi.games.nimmt.invariants import check
from kikimimi.games.nimmt.mc import MonteCarlo
from kikimimi.games.nimmt.players import alone_cost, cheapest_row, safest_card
from kikimimi.games.registry import get_info

GAME = Nimmt()


def _play(bots, setup, humans=(), limit=20000):
    return play_bots(GAME, bots, setup, humans, limit, check)


@pytest.mark.parametrize("players", [2, 4, 10])
def test_random_bot_games_end_within_max_events(players):
    state, events = _play(random_bots(players, {"players": players}), {"players": players, "target": 66})
    assert GAME.is_over(state) and len(events) <= get_info("nimmt").max_events
    json.dumps(GAME.report(state))


def test_ten_monte_carlo_bots_play_a_round():
    state, _ = _play(table_bots(3, {"players": 10}), {"players": 10})
    assert GAME.is_over(state) and state.result.reason == "round"


def test_bots_are_reproducible():
    one = _play(safest_bots(5, {"players": 4}), {"players": 4})[1]
    two = _play(safest_bots(5, {"players": 4}), {"players": 4})[1]
    assert one == two
    assert play_game(11, "random")[0] == play_game(11, "random")[0]


def test_bots_wait_for_human_seats():
    state, _ = _play(random_bots(1, {"players": 3}), {"players": 3}, humans=(2,))
    assert state.phase == "deal" and len(state.hand(2)) == 0 and len(state.hand(1)) == 10


def seed_after_turn_1():
    table = seed_table()
    table.play(SEED_TURNS[0])
    return table.state


def test_bots_decide_from_the_observation_only():
    """The Monte Carlo bot gets the same card from a state and from another state that differs only in
    what its seat cannot know (the other hands)."""
    table = seed_table()
    table.play(SEED_TURNS[0])
    obs = GAME.observe(table.state, 1)
    assert set(obs["hands"]) == {"1"} and obs["chosen"]["2"] is None
    table.field(96)
    public = GAME.observe(table.state, None)
    assert public["hands"] == {} and set(public["chosen"].values()) == {None}
    assert public["has_chosen"]["1"] and public["last_reveal"] == [[16, 1], [27, 3], [51, 2], [77, 4]]
    assert GAME.observe(table.state, 1)["chosen"]["1"] == 96 and GAME.observe(table.state, 2)["chosen"]["1"] is None
    obs = GAME.observe(seed_after_turn_1(), 1)
    picks = {MonteCarlo(random.Random(4)).choose(obs) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(obs["hands"]["1"])
    other = seed_table()  # the same rows and own hand, other seats' hands swapped
    other.play(SEED_TURNS[0])
    s = other.state.copy()
    s.hands = (s.hands[0], s.hands[2], s.hands[1], s.hands[3])
    assert GAME.observe(s, 1)["hands"] == obs["hands"]
    assert MonteCarlo(random.Random(4)).choose(GAME.observe(s, 1)) in picks


def test_bot_takes_a_row_by_its_tag():
    table = seed_table()
    table.play(SEED_TURNS[0])
    table.play(SEED_TURNS[1])
    bots = table_bots(1, {"players": 4})
    event = bots.next_event(table.state)
    assert isinstance(event, Scan) and event.reader == FIELD and event.piece in ("row-1", "row-2", "row-3", "row-4")
    assert bots.next_event(table.state, humans=(3,)) is None


def test_safest_card_and_cheapest_row_as_the_contract_defines():
    rows = [[11, 16], [26, 27], [48, 51, 77], [92]]
    assert alone_cost(rows, 17) == (0, 1, 17)
    assert alone_cost(rows, 5) == (1, 105, 5)  # lower than every row: the cheapest row's bullheads (row 4)
    full = [[1, 2, 3, 4, 55], [60], [70], [80]]
    assert alone_cost(full, 56) == (11, 1, 56)  # a 6th card: the row's bullheads
    obs = {"seat": 1, "rows": rows, "hands": {"1": [5, 17, 30, 93]}}
    assert safest_card(obs) == 17  # 17 and 93 both cost 0 with gap 1: the lower card
    assert safest_card({"seat": 1, "rows": rows, "hands": {"1": [5, 30, 60, 93]}}) == 93  # smallest gap
    assert safest_card({"seat": 1, "rows": full, "hands": {"1": [56, 90]}}) == 90  # cost 0 beats a 6th card
    assert cheapest_row([[10, 20], [55], [1, 2, 3], [4]]) == 4  # fewest bullheads (1), row 4 has 1 card
    assert cheapest_row([[1, 2], [3], [6], [7]]) == 2  # 1 bullhead each for rows 2-4: fewest cards, then lowest


def test_the_deal_taps_random_undealt_cards():
    bots = NimmtBots(9, {})
    state = GAME.initial({"players": 2})
    seen = set()
    for _ in range(24):
        event = bots.next_event(state)
        assert event.piece not in seen
        seen.add(event.piece)
        state, _ = GAME.apply(state, event)
    assert state.phase == "choose" and [list(r)[0] for r in state.rows] != list(SEED_ROWS)


@pytest.mark.parametrize(("others", "careful"), [("safest", True), ("random", False)])
def test_the_bot_learns_from_public_reveals_how_careful_the_others_are(others, careful):
    from kikimimi.games.nimmt.bots import Player, random_player, safest_player

    mc = MonteCarlo(random.Random(2), samples=8)
    other = safest_player if others == "safest" else random_player
    seats = {1: Player(lambda obs, _rng: mc.choose(obs), lambda obs, _rng: mc.take_row(obs), "bot"),
             2: other(), 3: other(), 4: other()}
    state, _ = _play(NimmtBots(6, seats), {"players": 4})
    probabilities = mc._greedy(GAME.observe(state, 1))[1:]
    assert all((p > 0.8) if careful else (p < 0.2) for p in probabilities), probabilities
