"""Privacy and consistency checks run after every event (tests, the conformance suite's bot games).

Contract "Privacy": a seat's number, or any digit of it, reaches only its own earphone, except the digit
DOUBLE reveals and both numbers at the end; CHANGE's new digit, MOVE's amount and SHUFFLE's order are
private. Each Say is checked against what its output may hear.
"""

from __future__ import annotations

from collections.abc import Iterable

from kikimimi.games.base import FIELD, SPEAKER, Effect, Event, Say, Scan, seat_of
from kikimimi.games.numeron.phrases import HAND_ONLY, PHRASES, SPEAKER_ONLY
from kikimimi.games.numeron.pieces import PLACE_NAMES, parse
from kikimimi.games.numeron.state import OVER, PLAY, SEATS, NumeronState
from kikimimi.games.phrasebook import phrase_problem

# Hand phrases a seat hears for a tap on another reader: the steps of its own item.
_FOR_FIELD_TAP = {"shuffle.prompt", "change.ask", "change.impossible", "move.ask", "move.impossible"}
# Speaker phrases whose digit is the digit just tapped on the field (a call, TARGET's question).
_TAPPED_ON_FIELD = {"call.digit", "target.in", "target.out"}
# Hand phrases whose digit is the digit just tapped on that hand reader.
_TAPPED_ON_HAND = {"set.digit", "set.repeated", "hear.digit", "shuffle.digit", "shuffle.refused",
                   "change.refused", "move.refused"}


def _tapped_digit(event: Event) -> int | None:
    if isinstance(event, Scan) and isinstance(event.piece, str):
        tag = parse(event.piece)
        if tag and tag[0] == "digit":
            return int(tag[1])
    return None


def privacy_leaks(before: NumeronState, event: Event, effects: Iterable[Effect], after: NumeronState) -> list[str]:
    """One sentence per leak or malformed phrase; empty when nothing leaked."""
    problems: list[str] = []
    reader = event.reader if isinstance(event, Scan) else None
    tapped = _tapped_digit(event)
    for effect in effects:
        if not isinstance(effect, Say):
            continue
        key, params = effect.key, effect.params
        problem = phrase_problem(effect, PHRASES)
        if problem:
            problems.append(problem)
            if key not in PHRASES:
                continue
        if effect.to == SPEAKER:
            if key in HAND_ONLY:
                problems.append(f"the speaker said the private phrase {key!r}")
            if any(name.startswith("number") for name in params) and not (
                    key in ("game.number", "game.numbers") and after.phase == OVER):  # number, number1, number2
                problems.append(f"the speaker said a number ({key}) before the end")
            if "digit" in params:
                if key in _TAPPED_ON_FIELD:
                    if reader != FIELD or tapped != params["digit"]:
                        problems.append(f"the speaker said digit {params['digit']} not tapped on the field")
                elif key == "double.reveal":
                    seat = params.get("seat")
                    pos = params.get("pos")
                    k = before.digits - PLACE_NAMES.index(pos) if pos in PLACE_NAMES[: before.digits] else None
                    shown = dict(after.revealed[seat - 1]) if seat in SEATS else {}
                    number = before.number(seat) if seat in SEATS else None
                    if k is None or shown.get(k) != params["digit"] or number is None \
                            or number[k - 1] != str(params["digit"]):
                        problems.append("DOUBLE's revealed digit does not match the number or the record")
                else:
                    problems.append(f"the speaker said a digit in {key!r}")
        else:
            seat = seat_of(effect.to)
            if seat not in SEATS:
                problems.append(f"unknown output {effect.to!r}")
                continue
            if key in SPEAKER_ONLY:
                problems.append(f"{effect.to} heard the speaker's phrase {key!r}")
            if effect.to != reader and not (key in _FOR_FIELD_TAP and reader == FIELD and before.turn == seat):
                problems.append(f"{effect.to} heard {key!r} for an event on {reader or 'the referee'}")
            own = {number for number in (before.number(seat), after.number(seat)) if number is not None}
            if "number" in params and params["number"] not in own:
                problems.append(f"{effect.to} heard a number that is not its own ({key})")
            if "digit" in params:
                if key in _TAPPED_ON_HAND:
                    if tapped != params["digit"]:
                        problems.append(f"{effect.to} heard digit {params['digit']} it did not tap ({key})")
                elif key == "hear.place":
                    if not any(n is not None and str(params["digit"]) in n for n in own):
                        problems.append(f"{effect.to} heard a digit that is not its own ({key})")
                else:
                    problems.append(f"{effect.to} heard a digit in {key!r}")
    return problems


def check(before: NumeronState, event: Event, effects: Iterable[Effect], after: NumeronState) -> list[str]:
    """Every broken invariant after an event, as a sentence: numbers are D distinct digits, play has a
    seat to move, items are spent at most once and within the allowance, calls are never taken back."""
    problems: list[str] = []
    s = after
    for seat in SEATS:
        number = s.number(seat)
        if number is not None and (len(number) != s.digits or not number.isdigit() or len(set(number)) != s.digits):
            problems.append(f"seat {seat}'s number {number!r} is not {s.digits} distinct digits")
        used = s.used_by(seat)
        if len(used) != len(set(used)) or len(used) > s.items:
            problems.append(f"seat {seat} spent items {list(used)} with an allowance of {s.items}")
        if s.calls_by(seat) < before.calls_by(seat):
            problems.append(f"seat {seat}'s calls went down")
    if s.phase == PLAY and (s.turn not in SEATS or s.number(2) is None or (s.number(1) is None and not s.practice)):
        problems.append("play without a seat to move or without the numbers set")
    if s.phase == OVER and not s.reason:
        problems.append("over without a reason")
    if s.winner is not None and (s.phase != OVER or s.winner not in SEATS):
        problems.append(f"winner {s.winner} outside the end")
    return problems
