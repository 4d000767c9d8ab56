"""The demo's keyboard player keeps a piece's number while it is held (issue 15, item 14): what the
person learnt of "piece 2" by listening stays true after a draw."""

from __future__ import annotations

import io

from rich.console import Console

from kikimimi.games.trident.engine import Trident
from kikimimi.games.trident.keyboard import KeyboardSeat
from kikimimi.games.trident.pieces import PIECES


def test_piece_numbers_stay_with_their_pieces_across_draws():
    seat = KeyboardSeat(1, seed=4, console=Console(file=io.StringIO()))
    state = Trident().initial({"first": 1})
    basket = sorted(PIECES)
    hands = [frozenset(basket[:5])]
    for n in range(6, 12):  # one piece more each time, as draws bring them
        hands.append(hands[-1] | {basket[n]})
    hands.append(hands[-1] - {basket[2]})  # one played
    before: dict[int, str] = {}
    for held in hands:
        state.set_hand(1, held)
        now = seat.pieces(state)
        assert set(now.values()) == set(held)
        assert all(now[n] == piece for n, piece in before.items() if n in now), (before, now)
        before = now
