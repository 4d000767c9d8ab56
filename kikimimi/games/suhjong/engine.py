"""The Suhjong rules engine: `apply(state, event) -> (state, effects)`, pure.

Every rule here is a section of the rules page (`docs/rules/suhjong.md`);
tests are named after those sections. A refusal is a spoken phrase, never an exception: `apply`
never raises on any event. A refusal never names a pile card (its value is said only when it is dealt
or drawn); in fact no refusal names a card at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kikimimi.games.base import (
    FIELD,
    SPEAKER,
    Effect,
    GameEngine,
    GameOver,
    Outcome,
    Say,
    SetupError,
    hand,
    refuse,
)
from kikimimi.games.phrasebook import one_utterance_each
from kikimimi.games.suhjong import INFO, solver
from kikimimi.games.suhjong.equation import parse
from kikimimi.games.suhjong.invariants import check, privacy_leaks
from kikimimi.games.suhjong.phrases import GRACE_KEY, OPERATOR_KEY, PASS_KEY
from kikimimi.games.suhjong.pieces import (
    CARD_SET,
    CTL_CLEAR,
    CTL_FOLD,
    CTL_NEXT,
    CTL_NOROLE,
    CTL_SHOWDOWN,
    CTL_TABLE,
    OPERATOR_SET,
    SYMBOL,
    VALUE,
    digits,
)
from kikimimi.games.suhjong.state import (
    DEAL,
    DISCARD,
    HAND,
    HAND_SIZE,
    OVER,
    PILE,
    REFILL,
    RIVER,
    SCORED,
    SCORING,
    SEA,
    SEATS,
    START,
    TURN,
    SuhjongState,
    other,
)

READERS = (FIELD, *(hand(seat) for seat in SEATS))
DEFAULTS: dict[str, Any] = {"first": 1, "discard_max": 3, "fold_points": 10, "rounds": 1, "hints": True}


def check_setup(setup: Mapping[str, Any]) -> str | None:
    """Why a complete set-up is not allowed (None: it is); the registry checks types and ranges too."""
    if setup.get("first") not in SEATS:
        return "first must be 1 or 2"
    dm = setup.get("discard_max")
    if type(dm) is not int or not 1 <= dm <= 5:
        return "discard_max must be 1 to 5"
    fp = setup.get("fold_points")
    if type(fp) is not int or fp < 0:
        return "fold_points must be an integer >= 0"
    rounds = setup.get("rounds")
    if type(rounds) is not int or rounds < 1:
        return "rounds must be an integer >= 1"
    if type(setup.get("hints")) is not bool:
        return "hints must be true or false"
    return None


class Suhjong(GameEngine[SuhjongState]):
    """Suhjong for two seats."""

    entry = INFO  # tags and seats: the registration's pieces, controls and seats
    invariants = staticmethod(check)
    privacy = staticmethod(privacy_leaks)

    def initial(self, setup: Mapping[str, Any] | None = None) -> SuhjongState:
        full = {**DEFAULTS, **{k: v for k, v in (setup or {}).items() if k != "game"}}
        problem = check_setup(full)
        if problem:
            raise SetupError(problem)
        return SuhjongState(start_first=full["first"], discard_max=full["discard_max"],
                            fold_points=full["fold_points"], rounds=full["rounds"], hints=full["hints"],
                            first=full["first"])

    def draft(self, state: SuhjongState) -> SuhjongState:
        return state.copy()

    def merge_speech(self, fx: list[Effect]) -> list[Effect]:
        """What an event says on the speaker is one utterance (a move and the next turn, a declaration
        read back and its points): the speaker keeps up, and nothing waits between its parts."""
        return one_utterance_each(fx)

    def tap(self, state: SuhjongState, reader: str, out: str, seat: int | None, tag: str, uid: str | None,
            fx: list[Effect]) -> SuhjongState:
        _tap(state, seat, out, tag, fx)
        return state

    def end(self, state: SuhjongState, fx: list[Effect]) -> SuhjongState:
        _end_game(state, "referee", fx)
        return state

    def referee(self, state: SuhjongState, action: str, params: Mapping[str, Any],
                fx: list[Effect]) -> SuhjongState | None:
        if action != "next":
            return None
        if state.phase == SCORED:
            _next_round(state, fx)
        else:
            refuse(action, f"only between rounds (the game is in {state.phase})", fx)
        return state

    def summary(self, state: SuhjongState) -> list[Effect]:
        return summary(state)


# -- taps ------------------------------------------------------------------------------------------


def _tap(s: SuhjongState, seat: int | None, out: str, tag: str, fx: list[Effect]) -> None:
    if tag == CTL_TABLE:
        if seat is None:
            fx.append(Say(SPEAKER, "control.on_hand_reader"))
        else:
            fx.extend(table_readout(s, seat))
        return
    if s.phase == OVER:
        fx.append(Say(out, "game.over"))
        return
    if tag in CARD_SET:
        if seat is None:
            _field_card(s, tag, fx)
        else:
            _hand_card(s, seat, tag, fx)
    elif tag in OPERATOR_SET:
        if seat is not None:
            fx.append(Say(out, "control.on_field" if s.phase == SCORING else "tap.not_now"))
        elif s.phase == SCORING:
            _declare_tap(s, tag, fx)
        else:
            fx.append(Say(SPEAKER, "tap.not_now"))
    else:
        _control(s, seat, out, tag, fx)


def table_readout(s: SuhjongState, seat: int) -> list[Effect]:
    """`ctl-table` on a hand reader: both hands, both rivers, the pile count and the totals, on that
    seat's earphone only. Everything said is open (hands and rivers are open [D3])."""
    out = hand(seat)
    fx: list[Effect] = []
    for x in SEATS:
        held = digits(s.hand(x))
        fx.append(Say(out, "table.hand", {"seat": x, "cards": _spaced(held)}) if held
                  else Say(out, "table.hand_empty", {"seat": x}))
    for x in SEATS:
        river = [VALUE[c] for c in s.river(x)]
        fx.append(Say(out, "table.river", {"seat": x, "cards": _spaced(river)}) if river
                  else Say(out, "table.river_empty", {"seat": x}))
    fx.append(Say(out, "table.pile", {"count": s.pile_count}))
    for x in SEATS:
        fx.append(Say(out, "table.total", {"seat": x, "total": s.total(x)}))
    return fx


def _spaced(values: Iterable[object]) -> str:
    return " ".join(str(v) for v in values)


def _hand_card(s: SuhjongState, seat: int, card: str, fx: list[Effect]) -> None:
    out = hand(seat)
    where, owner = s.where(card)
    if where == HAND and owner == seat:  # heard again, privately, nothing changes
        fx.append(Say(out, "card.value", {"value": VALUE[card]}))
        return
    if s.phase == DEAL:
        if where != PILE:
            fx.append(Say(out, "card.other_hand"))
        elif len(s.hand(seat)) >= HAND_SIZE:
            fx.append(Say(out, "deal.full"))
        else:
            s.set_hand(seat, s.hand(seat) | {card})
            fx.append(Say(SPEAKER, "deal.card", {"seat": seat, "value": VALUE[card]}))
            if all(len(h) == HAND_SIZE for h in s.hands):
                s.phase = TURN
                _begin_turn(s, s.first, fx)
        return
    if s.phase == TURN and seat == s.turn:
        _refill(s, seat, card, where, owner, fx)
    elif s.phase == TURN:
        fx.append(Say(out, "tap.not_your_turn"))
    elif where == PILE:
        fx.append(Say(out, "card.from_pile"))
    else:
        fx.append(Say(out, "tap.not_now"))


def _showdown_turn(s: SuhjongState) -> bool:
    return s.showdown_by is not None and s.showdown_by == s.turn and not s.grace


def _discard_cap(s: SuhjongState) -> int:
    assert s.turn is not None
    if _showdown_turn(s):
        return min(s.discard_max, len(s.river(other(s.turn))))
    return s.discard_max


def _refill(s: SuhjongState, x: int, card: str, where: str, owner: int | None, fx: list[Effect]) -> None:
    out = hand(x)
    y = other(x)
    if s.discarded == 0:
        fx.append(Say(out, "refill.discard_first"))
        return
    if where == RIVER and owner == y:
        if s.drew:
            fx.append(Say(out, "refill.after_draw"))
            return
        s.set_river(y, tuple(c for c in s.river(y) if c != card))
        s.set_hand(x, s.hand(x) | {card})
        s.step = REFILL
        fx.append(Say(SPEAKER, "pickup.card", {"value": VALUE[card]}))
    elif where == PILE:
        if _showdown_turn(s):
            fx.append(Say(out, "refill.showdown_no_draw"))
            return
        s.set_hand(x, s.hand(x) | {card})
        s.step = REFILL
        s.drew = True
        fx.append(Say(SPEAKER, "draw.card", {"value": VALUE[card]}))
        if s.pile_count == 0:  # [D7]: scoring at once, no more turns
            fx.append(Say(SPEAKER, "pile.empty"))
            _begin_scoring(s, fx)
            return
    elif where == RIVER:
        fx.append(Say(out, "refill.own_river"))
        return
    elif where == SEA:
        fx.append(Say(out, "refill.sea"))
        return
    else:
        fx.append(Say(out, "card.other_hand"))
        return
    if len(s.hand(x)) == HAND_SIZE:
        _end_turn(s, fx)


def _field_card(s: SuhjongState, card: str, fx: list[Effect]) -> None:
    where, owner = s.where(card)
    if s.phase == DEAL:
        fx.append(Say(SPEAKER, "deal.on_hand_reader"))
    elif s.phase == TURN:
        x = s.turn
        assert x is not None
        if where == PILE:
            fx.append(Say(SPEAKER, "card.from_pile"))
        elif where == HAND and owner != x:
            fx.append(Say(SPEAKER, "tap.not_your_turn"))
        elif where != HAND:
            fx.append(Say(SPEAKER, "discard.not_in_hand"))
        elif s.step == REFILL:
            fx.append(Say(SPEAKER, "discard.over"))
        elif s.discarded >= _discard_cap(s):
            fx.append(Say(SPEAKER, "discard.max", {"count": _discard_cap(s)}))
        else:
            s.set_hand(x, s.hand(x) - {card})
            s.set_river(x, (*s.river(x), card))
            s.discarded += 1
            s.step = DISCARD
            fx.append(Say(SPEAKER, "discard.card", {"value": VALUE[card]}))
    elif s.phase == SCORING:
        d = s.declaring
        assert d is not None
        if where == PILE:
            fx.append(Say(SPEAKER, "card.from_pile"))
        elif not (where == HAND and owner == d):
            fx.append(Say(SPEAKER, "declare.not_yours"))
        elif card in s.taps:
            fx.append(Say(SPEAKER, "declare.twice"))
        else:
            _declare_tap(s, card, fx)
    else:
        fx.append(Say(SPEAKER, "card.from_pile" if where == PILE else "tap.not_now"))


# -- turns -----------------------------------------------------------------------------------------


def _begin_turn(s: SuhjongState, x: int, fx: list[Effect]) -> None:
    """X's river flows to the sea, X's turn count rises; the pile count is said once it runs low. The
    flow is not said: it follows from the rule and every discard and pick-up was said [impl]. The move
    that ended the other seat's turn and this turn are said in one phrase ("Draws the 3; seat 2 to
    play"): moves name no seat, the turn's seat was said at its start [impl]."""
    river = s.river(x)
    if river:
        s.sea = (*s.sea, *river)
        s.set_river(x, ())
    counts = list(s.turn_count)
    counts[x - 1] += 1
    s.turn_count = (counts[0], counts[1])
    s.turn = x
    s.step = START
    s.discarded = 0
    s.drew = False
    last = fx[-1] if fx else None
    if isinstance(last, Say) and last.to == SPEAKER and last.key in PASS_KEY:
        fx[-1] = Say(SPEAKER, (GRACE_KEY if s.grace else PASS_KEY)[last.key], {**last.params, "next": x})
    else:
        fx.append(Say(SPEAKER, "turn.grace" if s.grace else "turn.begin", {"seat": x}))
    if s.pile_count <= 2 * s.discard_max:
        fx.append(Say(SPEAKER, "pile.count", {"count": s.pile_count}))


def _end_turn(s: SuhjongState, fx: list[Effect]) -> None:
    x = s.turn
    assert x is not None
    if s.grace:
        _begin_scoring(s, fx)
    elif s.showdown_by == x:
        s.grace = True
        _begin_turn(s, other(x), fx)
    else:
        _begin_turn(s, other(x), fx)


# -- control tags ------------------------------------------------------------------------------------


def _control(s: SuhjongState, seat: int | None, out: str, tag: str, fx: list[Effect]) -> None:
    if tag == CTL_NEXT:
        if seat is None and s.phase == SCORED:
            _next_round(s, fx)
        else:
            fx.append(Say(out, "control.on_field" if s.phase == SCORED else "tap.not_now"))
        return
    if seat is None:
        on_hand = (tag in (CTL_FOLD, CTL_SHOWDOWN) and s.phase == TURN) or s.phase == SCORING
        fx.append(Say(SPEAKER, "control.on_hand_reader" if on_hand else "tap.not_now"))
        return
    if tag in (CTL_FOLD, CTL_SHOWDOWN):
        if s.phase != TURN:
            fx.append(Say(out, "tap.not_now"))
        elif seat != s.turn:
            fx.append(Say(out, "tap.not_your_turn"))
        elif tag == CTL_FOLD:
            _fold(s, seat, fx)
        else:
            _showdown(s, seat, fx)
        return
    # ctl-declare, ctl-clear, ctl-norole
    if s.phase != SCORING:
        fx.append(Say(out, "tap.not_now"))
    elif seat != s.declaring:
        fx.append(Say(out, "declare.wait", {"seat": s.declaring}))
    elif tag == CTL_CLEAR:
        s.taps = ()
        fx.append(Say(SPEAKER, "declare.cleared", {"seat": seat}))
    elif tag == CTL_NOROLE:
        s.taps = ()
        s.set_declared(seat, (None, 0, False))
        fx.append(Say(SPEAKER, "declare.norole", {"seat": seat}))
        _next_declarer(s, fx)
    else:
        _close_declaration(s, seat, out, fx)


def _fold(s: SuhjongState, x: int, fx: list[Effect]) -> None:
    """Only at the start of X's own first turn of the round [D4]; never in a grace turn."""
    if s.step != START or s.turn_count[x - 1] != 1 or s.grace:
        fx.append(Say(hand(x), "fold.refused"))
        return
    fx.append(Say(SPEAKER, "fold.done", {"seat": x, "points": s.fold_points}))
    points = [0, 0]
    points[other(x) - 1] = s.fold_points
    _end_round(s, (points[0], points[1]), fx)


def _showdown(s: SuhjongState, x: int, fx: list[Effect]) -> None:
    """From X's second turn on, once a round, at the start, when a role is reachable [D6]."""
    if s.step != START or s.turn_count[x - 1] < 2 or s.grace or s.showdown_by is not None:
        fx.append(Say(hand(x), "showdown.refused"))
        return
    reachable = solver.showdown_best(digits(s.hand(x)), digits(s.river(other(x))), s.discard_max)
    if reachable is None:
        fx.append(Say(hand(x), "showdown.impossible"))
        return
    s.showdown_by = x
    fx.append(Say(SPEAKER, "showdown.called", {"seat": x}))


# -- scoring -----------------------------------------------------------------------------------------


def _begin_scoring(s: SuhjongState, fx: list[Effect]) -> None:
    s.phase = SCORING
    s.turn = None
    s.step = None
    s.grace = False
    s.taps = ()
    fx.append(Say(SPEAKER, "scoring.begin"))
    for seat in SEATS:
        if len(s.hand(seat)) < HAND_SIZE:  # [D7] a short hand has no role and does not declare
            s.set_declared(seat, (None, 0, False))
            fx.append(Say(SPEAKER, "declare.short", {"seat": seat}))
    _next_declarer(s, fx)


def declaring_order(s: SuhjongState) -> tuple[int, int]:
    """The showdown seat first, otherwise the round's first player [D8]."""
    lead = s.showdown_by if s.showdown_by is not None else s.first
    return lead, other(lead)


def _next_declarer(s: SuhjongState, fx: list[Effect]) -> None:
    s.taps = ()
    for seat in declaring_order(s):
        if s.declared[seat - 1] is None:
            s.declaring = seat
            fx.append(Say(SPEAKER, "declare.ask", {"seat": seat}))
            return
    s.declaring = None
    _finish_scoring(s, fx)


def _declare_tap(s: SuhjongState, tag: str, fx: list[Effect]) -> None:
    """A digit card or operator added to the equation, read back as it grows: a digit that makes a
    two-digit number says the number ("two", then "twenty-three")."""
    taps = s.taps
    s.taps = (*taps, tag)
    if tag in OPERATOR_SET:
        fx.append(Say(SPEAKER, OPERATOR_KEY[tag]))
        return
    if taps and taps[-1] in VALUE and not (len(taps) > 1 and taps[-2] in VALUE):
        fx.append(_number_say(f"{VALUE[taps[-1]]}{VALUE[tag]}"))
    else:
        fx.append(Say(SPEAKER, "eq.number", {"value": VALUE[tag]}))


def _number_say(text: str) -> Say:
    if len(text) == 2 and text[0] == "0":  # [0][5]: said as tapped, "zero five"
        return Say(SPEAKER, "eq.digits", {"cards": text})
    return Say(SPEAKER, "eq.number", {"value": int(text)})


def equation_says(text: str) -> list[Effect]:
    """An equation's text read back token by token: numbers whole, operators by name."""
    ops = {v: k for k, v in SYMBOL.items()}
    fx: list[Effect] = []
    number = ""
    for ch in text + " ":
        if ch.isdigit():
            number += ch
            continue
        if number:
            fx.append(_number_say(number))
            number = ""
        if ch in ops:
            fx.append(Say(SPEAKER, OPERATOR_KEY[ops[ch]]))
    return fx


def _close_declaration(s: SuhjongState, seat: int, out: str, fx: list[Effect]) -> None:
    equation = parse(s.taps)
    if equation is None:  # form and card count only, never equality [D11]
        fx.append(Say(out, "declare.incomplete"))
        return
    holds = equation.holds
    s.set_declared(seat, (equation.text, equation.points, holds))
    fx.append(Say(SPEAKER, "declare.by", {"seat": seat}))
    # Not read back: its taps were said as they came [impl] (the report keeps the equation).
    fx.append(Say(SPEAKER, "declare.role", {"points": equation.points}) if holds
              else Say(SPEAKER, "declare.unequal"))
    _next_declarer(s, fx)


def _finish_scoring(s: SuhjongState, fx: list[Effect]) -> None:
    if s.hints:  # [D12] after both declarations: they help no declarer
        for seat in SEATS:
            cards = s.hand(seat)
            if len(cards) != HAND_SIZE:
                continue
            role = solver.best_role(digits(cards))
            declared = s.declared[seat - 1]
            assert declared is not None
            rank = declared[1] if declared[2] else -1
            if role is not None and role.points > rank:
                fx.append(Say(SPEAKER, "hint.best", {"seat": seat, "points": role.points}))
                fx.extend(equation_says(role.text))
    points = tuple(d[1] if d is not None else 0 for d in s.declared)
    _end_round(s, (points[0], points[1]), fx)


# -- rounds and the end ------------------------------------------------------------------------------


def _end_round(s: SuhjongState, points: tuple[int, int], fx: list[Effect]) -> None:
    s.scores = ((*s.scores[0], points[0]), (*s.scores[1], points[1]))
    s.turn = None
    s.step = None
    s.grace = False
    s.declaring = None
    s.taps = ()
    for seat in SEATS:
        fx.append(Say(SPEAKER, "round.score", {"seat": seat, "points": points[seat - 1], "total": s.total(seat)}))
    if s.round >= s.rounds:
        _end_game(s, "rounds", fx)
    else:
        s.phase = SCORED
        fx.append(Say(SPEAKER, "round.next_ask"))


def _next_round(s: SuhjongState, fx: list[Effect]) -> None:
    """A new deal from a full pile, the other seat first [D1]."""
    s.round += 1
    s.first = other(s.first)
    s.phase = DEAL
    s.turn = None
    s.step = None
    s.grace = False
    s.turn_count = (0, 0)
    s.hands = (frozenset(), frozenset())
    s.rivers = ((), ())
    s.sea = ()
    s.discarded = 0
    s.drew = False
    s.showdown_by = None
    s.declaring = None
    s.taps = ()
    s.declared = (None, None)
    fx.append(Say(SPEAKER, "round.begin", {"count": s.round, "seat": s.first}))


def winner(s: SuhjongState) -> int | None:
    """The higher total; none on equal totals [D13]."""
    t1, t2 = s.total(1), s.total(2)
    return 1 if t1 > t2 else 2 if t2 > t1 else None


def _end_game(s: SuhjongState, reason: str, fx: list[Effect]) -> None:
    w = winner(s)
    s.phase = OVER
    s.turn = None
    s.step = None
    s.declaring = None
    s.taps = ()
    totals = {seat: s.total(seat) for seat in SEATS}
    ranking = (w, other(w)) if w is not None else SEATS
    s.result = Outcome(ranking=tuple(ranking), winners=(w,) if w is not None else (), scores=totals,
                       reason=reason, details={"rounds": {seat: list(s.scores[seat - 1]) for seat in SEATS}})
    if reason == "referee":
        fx.append(Say(SPEAKER, "game.ended"))
    fx.append(Say(SPEAKER, "game.winner", {"seat": w}) if w is not None else Say(SPEAKER, "game.draw"))
    fx.append(GameOver(s.result))


# -- where the game stands ------------------------------------------------------------------------


def summary(s: SuhjongState) -> list[Effect]:
    """Where the game stands, in public phrases (after an undo, on resuming)."""
    if s.phase == DEAL:
        return [Say(SPEAKER, "deal.ask")]
    if s.phase == TURN and s.turn is not None:
        return [Say(SPEAKER, "turn.grace" if s.grace else "turn.begin", {"seat": s.turn})]
    if s.phase == SCORING and s.declaring is not None:
        return [Say(SPEAKER, "declare.ask", {"seat": s.declaring})]
    if s.phase == SCORED:
        return [Say(SPEAKER, "round.next_ask")]
    return [Say(SPEAKER, "game.over")]


__all__ = ["Suhjong", "READERS", "DEFAULTS", "check_setup", "table_readout", "equation_says",
           "declaring_order", "winner"]
