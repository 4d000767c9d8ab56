"""The demo's keyboard seat: a piece keeps its number while it is held (issue 15, item 14), pieces are numbered
in the order they were dealt and heard, `h` says what each command does, and Numeron and Royal Nine have one
too (issue 21, point 18)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

from rich.console import Console

from kikimimi.games.base import Scan
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


def _typed(monkeypatch, text: str) -> io.StringIO:
    """The person's typing on stdin, and a console that shows what the seat is told."""
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return io.StringIO()


def test_pieces_are_numbered_in_the_order_they_were_dealt_and_heard():
    seat = KeyboardSeat(1, seed=4, console=Console(file=io.StringIO()))
    state = Trident().initial({"first": 1})
    dealt = ["spade-8", "heart-1", "diamond-5", "clover-2", "heart-7"]  # as the table dealt them to seat 1
    for piece in dealt:
        seat.observe(Scan("hand:2", "spade-1"))  # another seat's deal is not this seat's order
        seat.observe(Scan("hand:1", piece))
    state.set_hand(1, frozenset(dealt))
    assert seat.pieces(state) == dict(enumerate(dealt, start=1))


def test_listening_to_a_piece_no_longer_held_says_which_are_held(monkeypatch):
    shown = _typed(monkeypatch, "l 6\nl 2\n")
    seat = KeyboardSeat(1, seed=4, console=Console(file=shown, width=200))
    state = Trident().initial({"first": 1})
    state.set_hand(1, frozenset(sorted(PIECES)[:6]))
    seat.pieces(state)
    state.set_hand(1, frozenset(sorted(PIECES)[:6]) - {seat.pieces(state)[6]})  # piece 6 was played
    state.phase = "turn"
    assert seat.decide(state) == Scan("hand:1", seat.pieces(state)[2])
    assert "you hold no piece 6 now; your pieces: 1 2 3 4 5" in shown.getvalue()


def test_h_says_what_each_command_does(monkeypatch):
    shown = _typed(monkeypatch, "h\nq\n")
    seat = KeyboardSeat(1, seed=4, console=Console(file=shown, width=200))
    state = Trident().initial({"first": 1})
    state.phase = "turn"
    assert seat.decide(state) == "quit"
    help_text = shown.getvalue().split("this help")[1]  # what `h` printed (the first help is at the start)
    for command in seat.commands:
        assert f"{command.typed:<10} {command.does}" in help_text


def test_numeron_and_royal_nine_have_a_keyboard_seat(tmp_path):
    for game, typed, heard in (("numeron", "s 042\nq\n", "hand:1 earphone  Number set: 042."),
                               ("royal-nine", "c\nd\np 1 1\nq\n", "hand:1 earphone  Seat 1 ")):
        proc = subprocess.run([sys.executable, "-m", "kikimimi", "demo", "--game", game, "--seat", "1", "--fast",
                               "--text-only", "--lang", "en", "--seed", "3"], input=typed, capture_output=True,
                              text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert heard in proc.stdout, proc.stdout
        assert "hand:2 earphone" not in proc.stdout  # the bot's earphone stays private
