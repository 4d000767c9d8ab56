"""The Numeron rules engine: `apply(state, event) -> (state, effects)`, pure.

Every rule here is a section of the rules page (`docs/rules/numeron.md`);
the tests are named after those sections. A refusal is a spoken phrase, never an exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kikimimi.games.base import SPEAKER, Alert, Effect, GameEngine, GameOver, Outcome, Say, hand
from kikimimi.games.numeron import INFO
from kikimimi.games.numeron.clock import turn_clock
from kikimimi.games.numeron.invariants import check, privacy_leaks
from kikimimi.games.numeron.judge import class_word, judge, slash, solver_calls
from kikimimi.games.numeron.pieces import CTL_CLEAR, ITEMS, klass, parse, place_name
from kikimimi.games.numeron.practice import prepare as draw_prepare
from kikimimi.games.numeron.state import (
    CALL,
    CHANGE_DIGIT,
    CHANGE_PLACE,
    DOUBLE_CHOICE,
    ITEM_STEP,
    MOVE_AMOUNT,
    MOVE_FROM,
    MOVE_TO,
    OVER,
    PLAY,
    SEATS,
    SET,
    SHUFFLE,
    TARGET,
    NumeronState,
    other,
)

REPEAT_CALLS = 5  # ctl-repeat says the last five calls


def valid_number(text: Any, digits: int) -> bool:
    return (isinstance(text, str) and len(text) == digits and text.isdigit() and text.isascii()
            and len(set(text)) == digits)


def setup_check(setup: Mapping[str, Any]) -> str | None:
    """Rules across set-up keys (contract "Set-up", practice mode)."""
    if setup.get("items", 0) and setup.get("digits", 3) < 4:
        return "items need 4 or more digits"
    secret = setup.get("secret", "")
    if secret and not setup.get("practice"):
        return "secret is the table's number in practice mode: set practice = true"
    if setup.get("practice"):
        if setup.get("first", 1) != 1:
            return "practice: the player is seat 1 and calls first (first = 1)"
        if setup.get("items", 0):
            return "practice has no items (items = 0)"
        if secret and not valid_number(secret, setup.get("digits", 3)):
            return f"secret must be {setup.get('digits', 3)} distinct digits, not {secret!r}"
    return None


class Numeron(GameEngine[NumeronState]):
    """Numeron for two seats, the table as the game master."""

    entry = INFO  # tags and seats: the registration's pieces, controls and seats
    no_such_action = "Numeron has no such referee action"
    invariants = staticmethod(check)
    privacy = staticmethod(privacy_leaks)
    clock = staticmethod(turn_clock)
    prepare = staticmethod(draw_prepare)

    def initial(self, setup: Mapping[str, Any] | None = None) -> NumeronState:
        setup = setup or {}
        digits = setup.get("digits", 3)
        state = NumeronState(first=setup.get("first", 1), digits=digits, items=setup.get("items", 0),
                             turn_seconds=setup.get("turn_seconds", 60), practice=bool(setup.get("practice", False)))
        secret = setup.get("secret", "")
        if state.practice and valid_number(secret, digits):
            # The table's number is drawn before the game (the registry's `prepare`): play starts at once.
            state = replace(state, numbers=(None, secret), phase=PLAY, turn=1, step=CALL, calls_left=1)
        return state

    def end(self, state: NumeronState, fx: list[Effect]) -> NumeronState:
        fx.append(Say(SPEAKER, "game.ended"))
        return _finish(state, None, "referee", fx)

    def referee(self, state: NumeronState, action: str, params: Mapping[str, Any],
                fx: list[Effect]) -> NumeronState | None:
        return _timeout(state, fx) if action == "timeout" else None

    def tap(self, state: NumeronState, reader: str, out: str, seat: int | None, tag: str, uid: str | None,
            fx: list[Effect]) -> NumeronState:
        return _tap(state, out, seat, tag, fx)


# -- the referee ------------------------------------------------------------------------------------


def _timeout(s: NumeronState, fx: list[Effect]) -> NumeronState:
    """D14: the awaited seat ran out of time. Only in play with a clock (a script line may send it too)."""
    if s.phase != PLAY or s.turn_seconds == 0:
        fx.append(Alert("timeout.ignored", {"phase": s.phase}))
        return s
    x = s.turn
    assert x is not None
    if s.step == DOUBLE_CHOICE:
        fx.append(Say(SPEAKER, "timeout.double", {"seat": other(x)}))
        return _double_reveal(s, 1, fx)
    fx.append(Say(SPEAKER, "timeout.passed", {"seat": x}))
    s = replace(s, call="", item=None, work=())
    return _pass_turn(s, fx)


# -- taps -------------------------------------------------------------------------------------------


def _tap(s: NumeronState, out: str, seat: int | None, piece: str, fx: list[Effect]) -> NumeronState:
    tag = parse(piece)
    assert tag is not None  # the base checked that the game knows it
    kind, value, _ = tag
    if kind == "ctl" and value != CTL_CLEAR:  # ctl-repeat
        if seat is None:
            fx.append(Say(SPEAKER, "tap.refused"))
        else:
            _repeat(s, seat, fx)
        return s
    if s.phase == OVER:
        fx.append(Say(out, "game.over"))
        return s
    if kind == "pos" and isinstance(value, int) and value > s.digits:
        fx.append(Say(out, "place.none", {"place": value}))  # K > D: refused wherever it is tapped
        return s
    if s.phase == SET:
        if seat is None:
            fx.append(Say(SPEAKER, "set.field"))
            return s
        return _set_tap(s, seat, tag, fx)
    if seat is None:
        return _field_tap(s, tag, fx)
    return _hand_tap(s, seat, tag, fx)


def _hear(s: NumeronState, seat: int, tag: tuple[str, Any, int], fx: list[Effect]) -> None:
    """D15: a hand tap that nothing awaits changes nothing; the seat hears what it tapped."""
    out = hand(seat)
    kind, value, copy = tag
    if kind == "digit":
        fx.append(Say(out, "hear.digit", {"digit": value}))
    elif kind == "item":
        key = "hear.item" if s.may_use(copy, value) else "hear.item_spent"
        fx.append(Say(out, key, {"item": value, "seat": copy}))
    elif kind == "pos":
        number = s.number(seat)
        pos = place_name(value, s.digits)
        if number is None:
            fx.append(Say(out, "hear.place_not_set", {"pos": pos}))
        else:
            fx.append(Say(out, "hear.place", {"pos": pos, "digit": int(number[value - 1])}))
    else:  # ctl-clear with nothing to clear
        fx.append(Say(out, "clear.nothing"))


def _repeat(s: NumeronState, seat: int, fx: list[Effect]) -> None:
    """D15: ctl-repeat, at any time: the seat's number, then the last five calls of both seats."""
    out = hand(seat)
    number = s.number(seat)
    if number is None:
        fx.append(Say(out, "repeat.not_set"))
    else:
        fx.append(Say(out, "repeat.number", {"number": number}))
    calls = [r for r in s.log if r[0] == "call"][-REPEAT_CALLS:]
    if not calls:
        fx.append(Say(out, "repeat.no_calls"))
    for _, by, call, eat, bite in calls:
        fx.append(Say(out, "repeat.call", {"seat": by, "call": call, "eat": eat, "bite": bite}))


# -- phase set ----------------------------------------------------------------------------------------


def _set_tap(s: NumeronState, seat: int, tag: tuple[str, Any, int], fx: list[Effect]) -> NumeronState:
    out = hand(seat)
    kind, value, _ = tag
    setting = not (s.practice and seat == 1)  # in practice only the table's seat sets a number
    if kind == "ctl":  # ctl-clear
        if not setting:
            fx.append(Say(out, "clear.nothing"))
            return s
        if s.number(seat) is not None:  # D6: a set number reopens until both are set
            s = s.with_seat("numbers", seat, None).with_seat("entries", seat, "")
            fx.append(Say(out, "set.cleared"))
            fx.append(Say(SPEAKER, "set.not_ready", {"seat": seat}))
            return replace(s, entry_seat=seat)
        if s.entries[seat - 1]:
            fx.append(Say(out, "set.cleared"))
            return replace(s.with_seat("entries", seat, ""), entry_seat=seat)
        fx.append(Say(out, "clear.nothing"))
        return s
    if kind != "digit" or not setting or s.number(seat) is not None:
        _hear(s, seat, tag, fx)
        return s
    entry = s.entries[seat - 1]
    digit = str(value)
    if digit in entry:
        fx.append(Say(out, "set.repeated", {"digit": value}))
        return s
    entry += digit
    fx.append(Say(out, "set.digit", {"digit": value}))
    s = replace(s.with_seat("entries", seat, entry), entry_seat=seat)
    if len(entry) < s.digits:
        return s
    s = s.with_seat("numbers", seat, entry).with_seat("entries", seat, "")
    fx.append(Say(out, "set.number_set", {"number": entry}))
    both = not s.practice and all(s.number(k) is not None for k in SEATS)
    if not both:  # the second seat's "ready" is in "both numbers are set: seat N calls first"
        fx.append(Say(SPEAKER, "set.ready", {"seat": seat}))
    if s.practice:
        fx.append(Say(SPEAKER, "practice.start"))
        return replace(s, phase=PLAY, turn=1, step=CALL, calls_left=1, entry_seat=None)
    if both:
        fx.append(Say(SPEAKER, "play.start", {"seat": s.first}))
        return replace(s, phase=PLAY, turn=s.first, step=CALL, calls_left=1, entry_seat=None)
    return s


# -- phase play: the field ---------------------------------------------------------------------------


def _field_tap(s: NumeronState, tag: tuple[str, Any, int], fx: list[Effect]) -> NumeronState:
    """D2: a field tap is the act of the seat to move."""
    kind, value, copy = tag
    x = s.turn
    assert x is not None
    step = s.step
    if step == CALL:
        if kind == "digit":
            return _call_digit(s, x, value, fx)
        if kind == "item":
            return _use_item(s, x, value, copy, fx)
    elif step == TARGET and kind == "digit":
        return _target(s, x, value, fx)
    elif step == CHANGE_PLACE and kind == "pos":
        return _change_place(s, x, value, fx)
    elif step == MOVE_FROM and kind == "pos":
        fx.append(Say(SPEAKER, "move.from", {"pos": place_name(value, s.digits)}))
        return replace(s, step=MOVE_TO, work=(value,))
    elif step == MOVE_TO and kind == "pos":
        if value == s.work[0]:
            fx.append(Say(SPEAKER, "move.same_place"))
            return s
        return _move_to(s, x, value, fx)
    fx.append(Say(SPEAKER, "tap.refused"))
    return s


def _call_digit(s: NumeronState, x: int, value: int, fx: list[Effect]) -> NumeronState:
    digit = str(value)
    if digit in s.call:  # D7: only this tap is dropped; the speaker never names it
        fx.append(Say(SPEAKER, "call.repeated"))
        return s
    call = s.call + digit
    fx.append(Say(SPEAKER, "call.digit", {"digit": value}))
    if len(call) < s.digits:
        return replace(s, call=call)
    target = s.number(other(x))
    assert target is not None
    eat, bite = judge(target, call)
    s = replace(s, call="", log=(*s.log, ("call", x, call, eat, bite)), calls_left=(s.calls_left or 1) - 1)
    if eat == s.digits:  # NUMERON: wins at once, no equalising turn
        fx.append(Say(SPEAKER, "call.numeron", {"call": call, "seat": x}))  # "... NUMERON! Seat x wins."
        return _finish(s, x, "numeron", fx)
    if s.calls_left:
        fx.append(Say(SPEAKER, "call.judged", {"eat": eat, "bite": bite}))  # the digits were each just echoed
        fx.append(Say(SPEAKER, "call.again", {"seat": x}))
        return s
    return _pass_turn(s, fx, (eat, bite))


def _pass_turn(s: NumeronState, fx: list[Effect], judged: tuple[int, int] | None = None) -> NumeronState:
    """The turn passes; after a call, its judgement and the next seat are one phrase (said at once, it does
    not wait behind the judgement as a phrase of its own would)."""
    x = s.turn
    assert x is not None
    nxt = x if s.practice else other(x)  # in practice the table never calls
    if judged is not None:
        fx.append(Say(SPEAKER, "call.judged_next", {"eat": judged[0], "bite": judged[1], "seat": nxt}))
    else:
        fx.append(Say(SPEAKER, "turn.next", {"seat": nxt}))
    return replace(s, turn=nxt, step=CALL, calls_left=1, call="", item=None, work=(), item_this_turn=False)


def _use_item(s: NumeronState, x: int, name: str, owner: int, fx: list[Effect]) -> NumeronState:
    """D8: the seat's own tag, each item once, at most `items`, one per turn, before the call."""
    why = None
    if s.items == 0:
        why = "item.none"
    elif owner != x:
        why = "item.not_yours"
    elif s.item_this_turn or s.call or s.calls_left != 1:
        why = "item.not_now"
    elif name in s.used_by(x):
        why = "item.used"
    elif len(s.used_by(x)) >= s.items:
        why = "item.no_more"
    if why:
        fx.append(Say(SPEAKER, why, {"item": name} if why == "item.used" else {}))
        return s
    fx.append(Say(SPEAKER, "item.uses", {"seat": x, "item": name}))
    if name == "high-low":
        number = s.number(other(x))
        assert number is not None
        answer = tuple(klass(int(d)) for d in number)
        for k, cls in enumerate(answer, 1):
            fx.append(Say(SPEAKER, "highlow.answer", {"pos": place_name(k, s.digits), "cls": cls}))
        return _spent(s, x, name, (("answer", tuple(class_word(c) for c in answer)),))
    if name == "slash":
        number = s.number(other(x))
        assert number is not None
        fx.append(Say(SPEAKER, "slash.answer", {"slash": slash(number)}))
        return _spent(s, x, name, (("answer", slash(number)),))
    step = ITEM_STEP[name]
    if name == "double":
        fx.append(Say(SPEAKER, "double.prompt", {"seat": other(x)}))
    elif name == "shuffle":
        fx.append(Say(hand(x), "shuffle.prompt"))
    else:
        fx.append(Say(SPEAKER, f"{name}.prompt"))
    return replace(s, step=step, item=name, work=())


def _spent(s: NumeronState, x: int, name: str, info: tuple[tuple[str, Any], ...]) -> NumeronState:
    """D9: an item is spent when its effect is complete."""
    return replace(s.with_seat("used", x, (*s.used_by(x), name)), log=(*s.log, ("item", x, name, info)),
                   item=None, work=(), step=CALL, item_this_turn=True)


def _target(s: NumeronState, x: int, value: int, fx: list[Effect]) -> NumeronState:
    number = s.number(other(x))
    assert number is not None
    where = number.find(str(value))
    if where < 0:
        fx.append(Say(SPEAKER, "target.out", {"digit": value}))
        return _spent(s, x, "target", (("digit", value), ("place", None)))
    fx.append(Say(SPEAKER, "target.in", {"digit": value, "pos": place_name(where + 1, s.digits)}))
    return _spent(s, x, "target", (("digit", value), ("place", where + 1)))


def _double_reveal(s: NumeronState, k: int, fx: list[Effect]) -> NumeronState:
    """D11: the opponent chose place K of the user's number; the speaker says that digit."""
    x = s.turn
    assert x is not None
    number = s.number(x)
    assert number is not None
    digit = int(number[k - 1])
    fx.append(Say(SPEAKER, "double.reveal", {"seat": x, "pos": place_name(k, s.digits), "digit": digit}))
    revealed = dict(s.revealed[x - 1])
    revealed[k] = digit  # D16: a record, never erased
    s = s.with_seat("revealed", x, tuple(sorted(revealed.items())))
    s = _spent(s, x, "double", (("place", k), ("digit", digit)))
    fx.append(Say(SPEAKER, "call.again", {"seat": x}))
    return replace(s, calls_left=2)


def _change_options(number: str, k: int) -> list[int]:
    old = int(number[k - 1])
    return [d for d in range(10) if klass(d) == klass(old) and str(d) not in number]


def _change_place(s: NumeronState, x: int, k: int, fx: list[Effect]) -> NumeronState:
    fx.append(Say(SPEAKER, "change.place", {"pos": place_name(k, s.digits)}))
    number = s.number(x)
    assert number is not None
    # D12: no digit can fit (5 digits of one class): the seat hears it privately and cancels.
    fx.append(Say(hand(x), "change.ask" if _change_options(number, k) else "change.impossible"))
    return replace(s, step=CHANGE_DIGIT, work=(k,))


def _move_options(number: str, f: int, t: int) -> list[int]:
    a, b = int(number[f - 1]), int(number[t - 1])
    out = []
    for amount in range(1, 10):
        if a - amount < 0 or b + amount > 9:
            break
        digits = list(number)
        digits[f - 1], digits[t - 1] = str(a - amount), str(b + amount)
        if len(set(digits)) == len(digits):
            out.append(amount)
    return out


def _move_to(s: NumeronState, x: int, t: int, fx: list[Effect]) -> NumeronState:
    fx.append(Say(SPEAKER, "move.to", {"pos": place_name(t, s.digits)}))
    number = s.number(x)
    assert number is not None
    f = s.work[0]
    fx.append(Say(hand(x), "move.ask" if _move_options(number, f, t) else "move.impossible"))  # D13
    return replace(s, step=MOVE_AMOUNT, work=(f, t))


# -- phase play: the hand readers ----------------------------------------------------------------------


def _hand_tap(s: NumeronState, seat: int, tag: tuple[str, Any, int], fx: list[Effect]) -> NumeronState:
    out = hand(seat)
    kind, value, _ = tag
    x = s.turn
    assert x is not None
    if kind == "ctl":  # ctl-clear
        if seat != x:
            fx.append(Say(out, "clear.not_now"))
            return s
        if s.item is not None:  # cancelled unspent: the seat may use an item this turn
            fx.append(Say(SPEAKER, "item.cancelled", {"seat": x, "item": s.item}))
            return replace(s, item=None, work=(), step=CALL)
        if s.call:
            fx.append(Say(SPEAKER, "call.cleared", {"seat": x}))
            return replace(s, call="")
        fx.append(Say(out, "clear.nothing"))
        return s
    step = s.step
    if step == DOUBLE_CHOICE and seat == other(x):
        if kind == "pos":
            return _double_reveal(s, value, fx)
        _hear(s, seat, tag, fx)  # a refusal on a hand reader names what was tapped
        fx.append(Say(out, "double.refused"))
        return s
    if seat == x and kind == "digit" and step in (SHUFFLE, CHANGE_DIGIT, MOVE_AMOUNT):
        number = s.number(x)
        assert number is not None
        if step == SHUFFLE:
            return _shuffle_digit(s, x, number, value, fx)
        if step == CHANGE_DIGIT:
            k = s.work[0]
            if value not in _change_options(number, k):
                fx.append(Say(out, "change.refused", {"digit": value}))
                return s
            new = number[: k - 1] + str(value) + number[k:]
            fx.append(Say(out, "change.private", {"number": new}))
            fx.append(Say(SPEAKER, "change.done",
                          {"seat": x, "pos": place_name(k, s.digits), "cls": klass(value)}))
            s = s.with_seat("numbers", x, new)
            return _spent(s, x, "change", (("place", k), ("class", class_word(klass(value)))))
        f, t = s.work
        if value not in _move_options(number, f, t):
            fx.append(Say(out, "move.refused", {"digit": value}))
            return s
        digits = list(number)
        digits[f - 1], digits[t - 1] = str(int(digits[f - 1]) - value), str(int(digits[t - 1]) + value)
        new = "".join(digits)
        fx.append(Say(out, "move.private", {"number": new}))
        fx.append(Say(SPEAKER, "move.done",
                      {"seat": x, "pos": place_name(f, s.digits), "pos2": place_name(t, s.digits)}))
        s = s.with_seat("numbers", x, new)
        return _spent(s, x, "move", (("from", f), ("to", t)))
    if seat == x and step in (SHUFFLE, CHANGE_DIGIT, MOVE_AMOUNT):
        _hear(s, seat, tag, fx)  # a wrong tap for the item's step: named, refused, the step waits
        fx.append(Say(out, "step.refused"))
        return s
    _hear(s, seat, tag, fx)
    return s


def _shuffle_digit(s: NumeronState, x: int, number: str, value: int, fx: list[Effect]) -> NumeronState:
    out = hand(x)
    digit = str(value)
    entry = s.work[0] if s.work else ""
    if digit not in number or digit in entry:
        fx.append(Say(out, "shuffle.refused", {"digit": value}))
        return s
    entry += digit
    fx.append(Say(out, "shuffle.digit", {"digit": value}))
    if len(entry) < s.digits:
        return replace(s, work=(entry,))
    fx.append(Say(out, "shuffle.private", {"number": entry}))
    fx.append(Say(SPEAKER, "shuffle.done", {"seat": x}))
    return _spent(s.with_seat("numbers", x, entry), x, "shuffle", ())


# -- the end ------------------------------------------------------------------------------------------


def _finish(s: NumeronState, winner: int | None, reason: str, fx: list[Effect]) -> NumeronState:
    """The end (the winner, if any, was said with the NUMERON call): both numbers are public, in one phrase."""
    numbers = [s.number(seat) for seat in SEATS]
    if all(numbers):
        fx.append(Say(SPEAKER, "game.numbers", {"number1": numbers[0], "number2": numbers[1]}))
    else:  # a number not set yet (an end in set), or practice: the table's number only
        for seat, number in zip(SEATS, numbers, strict=True):
            if number is not None:
                fx.append(Say(SPEAKER, "game.number", {"seat": seat, "number": number}))
    solver = None
    if s.practice and s.number(2) is not None:
        solver = solver_calls(s.number(2) or "", s.digits)
        if winner is not None:
            fx.append(Say(SPEAKER, "practice.calls", {"count": s.calls_by(1)}))
        if solver is not None:
            fx.append(Say(SPEAKER, "practice.solver", {"count": solver}))
    s = replace(s, phase=OVER, winner=winner, reason=reason, turn=None, step=None, calls_left=None, call="",
                item=None, work=(), solver_calls=solver)
    fx.append(GameOver(outcome(s)))
    return s


def outcome(s: NumeronState) -> Outcome:
    calls = {seat: s.calls_by(seat) for seat in SEATS}
    winner = s.winner
    ranking = (winner, other(winner)) if winner is not None else SEATS
    details: dict[str, Any] = {"calls": calls, "numbers": {seat: s.number(seat) for seat in SEATS},
                               "items_used": {seat: list(s.used_by(seat)) for seat in SEATS}}
    if s.practice:
        details["practice"] = True
        details["solver_calls"] = s.solver_calls
    return Outcome(ranking=ranking, winners=(winner,) if winner is not None else (), scores=calls,
                   reason=s.reason, details=details)


__all__ = ["ITEMS", "Numeron", "NumeronState", "outcome", "valid_number"]
