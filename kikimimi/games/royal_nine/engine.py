"""The Royal Nine rules engine: `apply(state, event) -> (state, effects)`, pure.

Each rule is a section of the rules page (`docs/rules/royal-nine.md`). A refusal is a spoken phrase on
the reader tapped, never an exception, and never names a card: `apply` never raises on any event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kikimimi.games.base import (
    FIELD,
    SPEAKER,
    Alert,
    Effect,
    GameEngine,
    GameOver,
    Outcome,
    Say,
    hand,
    refuse,
)
from kikimimi.games.phrasebook import joined, one_utterance_each
from kikimimi.games.royal_nine import INFO
from kikimimi.games.royal_nine.cards import (
    CELL_OF_TAG,
    CENTRE,
    CONTROL_SET,
    CTL_GRID,
    CTL_HINT,
    CTL_NEXT,
    CTL_OPEN,
    TENS,
    cell_number,
)
from kikimimi.games.royal_nine.invariants import check, privacy_leaks
from kikimimi.games.royal_nine.phrases import COMMON_CELL, EMPTY, ROLES
from kikimimi.games.royal_nine.scoring import grid_roles, score
from kikimimi.games.royal_nine.state import (
    COMMON,
    DEAL1,
    DEAL2,
    DEALS,
    EMPTY_GRID,
    HALF,
    OVER,
    PLACE1,
    PLACE2,
    PLACES,
    REVEAL,
    SCORED,
    SEATS,
    RoyalNineState,
    order,
)

READERS = (FIELD, *(hand(seat) for seat in SEATS))


class RoyalNine(GameEngine[RoyalNineState]):
    """Royal Nine for two seats."""

    entry = INFO  # tags and seats: the registration's pieces, controls and seats
    invariants = staticmethod(check)
    privacy = staticmethod(privacy_leaks)

    def initial(self, setup: Mapping[str, Any] | None = None) -> RoyalNineState:
        setup = setup or {}
        # Set-up values are checked by the registry (GameInfo.parse_setup); bad ones fall back to defaults.
        first = setup.get("first", 1)
        tens = setup.get("tens", False)
        rounds = setup.get("rounds", 5)
        return RoyalNineState(
            first=first if first in SEATS else 1,
            tens=tens if isinstance(tens, bool) else False,
            rounds=rounds if type(rounds) is int and rounds >= 1 else 5,
        )

    def merge_speech(self, fx: list[Effect]) -> list[Effect]:
        """What an event says on one output is one utterance (a placement and the next prompt, the reveal's
        scores), except the roles, said after the scores, "face down" and the prompt to open the common
        card: in supersession group "scores" with the next round's prompt, each stale once the next of
        them comes [R22]."""
        return one_utterance_each(fx, keep={ROLES, "common.down", "reveal.ask"})

    def tap(self, state: RoyalNineState, reader: str, out: str, seat: int | None, tag: str, uid: str | None,
            fx: list[Effect]) -> RoyalNineState:
        if state.phase == OVER:
            fx.append(Say(out, "game.over"))
            return state
        if tag in TENS and not state.tens:
            fx.append(Say(out, "refuse.no_tens"))
            return state
        if seat is None:
            return _field_control(state, tag, fx) if tag in CONTROL_SET else _field_card(state, tag, fx)
        return _hand_control(state, seat, tag, fx) if tag in CONTROL_SET else _hand_card(state, seat, tag, fx)

    def end(self, state: RoyalNineState, fx: list[Effect]) -> RoyalNineState:
        return _end(state, fx, "referee")

    def referee(self, state: RoyalNineState, action: str, params: Mapping[str, Any],
                fx: list[Effect]) -> RoyalNineState | None:
        if action == "reveal":
            if state.phase != REVEAL:
                refuse(action, f"only when every card is placed (the game is in {state.phase})", fx)
                return state
            return _open(state, fx)
        if action == "next":
            if state.phase != SCORED:
                refuse(action, f"only after a round's scores (the game is in {state.phase})", fx)
                return state
            return _next_round(state, fx)
        return None

    def summary(self, state: RoyalNineState) -> list[Effect]:
        return _summary(state)


# -- taps ------------------------------------------------------------------------------------------


def _is_secret(s: RoyalNineState, card: str) -> bool:
    return card == s.common and not s.opened


def _face_down(s: RoyalNineState, reader: str, fx: list[Effect]) -> None:
    """The common card tapped before the reveal: refused without naming it, and the Priest is told."""
    fx.append(Say(SPEAKER if reader == FIELD else reader, "refuse.face_down"))
    fx.append(Alert("common.tapped", {"reader": reader}))


def _hand_card(s: RoyalNineState, seat: int, card: str, fx: list[Effect]) -> RoyalNineState:
    out = hand(seat)
    if _is_secret(s, card):
        _face_down(s, out, fx)
        return s
    if card in s.hand(seat):
        if s.phase in PLACES:  # a card tap in a place phase selects it (or replaces the selection)
            fx.append(Say(out, "card.selected", {"card": card}))
            return s.with_seat(seat, selected=card)
        fx.append(Say(out, "card.name", {"card": card}))
        return s
    cell = s.cell_of(seat, card)
    if cell is not None:
        fx.append(Say(out, "card.where", {"card": card, "cell": cell_number(cell)}))
        return s
    owner = s.owner(card)
    if owner is not None:
        fx.append(Say(out, "refuse.not_yours"))
        if card in s.hand(owner):
            fx.append(Alert("card.foreign_hand", {"reader": out, "seat": seat, "owner": owner, "card": card}))
        return s
    if s.phase not in DEALS or card == s.common:  # no deal on (the opened common card is not dealt)
        fx.append(Say(out, "refuse.no_deal"))
        return s
    if len(s.hand(seat)) >= HALF:
        fx.append(Say(out, "refuse.hand_full"))
        return s
    s = s.with_seat(seat, hands=s.hand(seat) | {card})
    fx.append(Say(SPEAKER, "deal.card", {"seat": seat, "card": card}))
    fx.append(Say(out, "deal.card", {"seat": seat, "card": card}))
    if all(len(s.hand(x)) == HALF for x in SEATS):
        s = replace(s, phase=PLACE1 if s.phase == DEAL1 else PLACE2)
        fx.append(Say(SPEAKER, "place.ask"))  # both place: no seat to name [R22]
    return s


def _hand_control(s: RoyalNineState, seat: int, tag: str, fx: list[Effect]) -> RoyalNineState:
    out = hand(seat)
    if tag in CELL_OF_TAG:
        return _cell(s, seat, CELL_OF_TAG[tag], fx)
    if tag == CTL_GRID:
        fx.append(Say(out, "grid.intro"))
        fx.extend(Say(out, "cell.content", {"cell": cell_number(i), "content": _content(s, seat, i)})
                  for i in range(9))
    elif tag == CTL_HINT:
        if s.phase not in PLACES:
            fx.append(Say(out, "refuse.not_now"))
        elif s.selected[seat - 1] is None:
            fx.append(Say(out, "hint.select_first"))
        else:
            fx.append(Say(out, "hint.cell", {"cell": cell_number(_hint(s, seat))}))
    else:  # ctl-open, ctl-next belong to the field reader
        fx.append(Say(out, "refuse.on_field"))
    return s


def _hint(s: RoyalNineState, seat: int) -> int:
    """The selected card's cell in a best placement, from what the seat knows (see solver.py)."""
    from kikimimi.games.royal_nine.solver import best_cell

    selected = s.selected[seat - 1]
    assert selected is not None
    grid = s.grid(seat)
    fixed = {i: card for i, card in enumerate(grid) if card is not None}
    return best_cell(fixed, sorted(s.hand(seat)), s.unseen(), HALF if s.phase == PLACE1 else 0, selected)


def _content(s: RoyalNineState, seat: int, cell: int) -> str:
    if cell == CENTRE:
        if s.common is None:
            return EMPTY
        return s.common if s.opened else COMMON_CELL
    return s.grid(seat)[cell] or EMPTY


def _cell(s: RoyalNineState, seat: int, cell: int, fx: list[Effect]) -> RoyalNineState:
    out = hand(seat)
    selected = s.selected[seat - 1]
    if selected is None:  # a cell tag never selects: with nothing selected it only reads the cell
        fx.append(Say(out, "cell.content", {"cell": cell_number(cell), "content": _content(s, seat, cell)}))
        return s
    if cell == CENTRE:
        fx.append(Say(out, "refuse.cell_common"))
        return s
    if s.grid(seat)[cell] is not None:
        fx.append(Say(out, "refuse.cell_taken"))
        return s
    grid = list(s.grid(seat))
    grid[cell] = selected
    s = s.with_seat(seat, grids=tuple(grid), hands=s.hand(seat) - {selected}, selected=None)
    params = {"seat": seat, "card": selected, "cell": cell_number(cell)}
    fx.append(Say(SPEAKER, "place.card", params))
    fx.append(Say(out, "place.mine", {"cell": params["cell"]}))  # the seat just heard which card it placed
    if not any(s.hands):
        if s.phase == PLACE1 and all(s.placed(x) == HALF for x in SEATS):
            s = replace(s, phase=DEAL2)
            fx.append(Say(SPEAKER, "deal.more"))
        elif s.phase == PLACE2 and all(s.placed(x) == 2 * HALF for x in SEATS):
            s = replace(s, phase=REVEAL)
            fx.append(Say(SPEAKER, "reveal.ask"))
    return s


def _field_card(s: RoyalNineState, card: str, fx: list[Effect]) -> RoyalNineState:
    if s.phase == COMMON:
        s = replace(s, common=card, phase=DEAL1)
        fx.append(Say(SPEAKER, "common.down"))  # face down: only that it is down
        fx.append(_seats_say(s, "deal.ask"))
        return s
    if s.phase == REVEAL:
        if card == s.common:
            return _open(s, fx)
        fx.append(Say(SPEAKER, "reveal.ask"))  # any other card: ask again, naming nothing
        return s
    if s.phase == SCORED:  # after the scores a card on the field is said, nothing changes
        fx.append(Say(SPEAKER, "card.name", {"card": card}))
        return s
    if _is_secret(s, card):
        _face_down(s, FIELD, fx)
    else:
        fx.append(Say(SPEAKER, "refuse.field_card"))
    return s


def _field_control(s: RoyalNineState, tag: str, fx: list[Effect]) -> RoyalNineState:
    if tag == CTL_OPEN and s.phase == REVEAL:
        return _open(s, fx)
    if tag == CTL_NEXT and s.phase == SCORED:
        return _next_round(s, fx)
    if tag in (CTL_OPEN, CTL_NEXT):
        fx.append(Say(SPEAKER, "refuse.not_now"))
    else:  # cell tags, ctl-grid, ctl-hint act on a seat's grid: a hand reader's
        fx.append(Say(SPEAKER, "refuse.on_hand"))
    return s


def _seats_say(s: RoyalNineState, key: str) -> Say:
    first, second = order(s.first)
    return Say(SPEAKER, key, {"first": first, "second": second})


# -- the reveal, rounds and the end ----------------------------------------------------------------


def _open(s: RoyalNineState, fx: list[Effect]) -> RoyalNineState:
    common = s.common
    assert common is not None
    roles = (tuple(grid_roles(s.grid(1), common)), tuple(grid_roles(s.grid(2), common)))
    scores = (score(roles[0]), score(roles[1]))
    round_scores = (s.round_scores[0] + (scores[0],), s.round_scores[1] + (scores[1],))
    s = replace(s, opened=True, last_roles=roles, round_scores=round_scores, phase=SCORED)
    # The card and both round scores (and the winner) as one utterance; then the totals, each seat's roles and
    # the prompt for the next round, each its own utterance in the "scores" group: the next round's start
    # drops those still waiting, so its deal waits at most for the one being said, not the summary [R24].
    fx.append(Say(SPEAKER, "reveal.card", {"card": common}))
    for seat in order(s.first):
        fx.append(Say(SPEAKER, "score.round", {"seat": seat, "points": scores[seat - 1]}))
    first = order(s.first)
    over = s.round >= s.rounds
    if over:
        s = _end(s, fx, "rounds")
    lines = [joined(SPEAKER, ROLES, [Say(SPEAKER, "score.total", {"seat": seat, "total": s.total(seat)})])
             for seat in first]
    lines += [joined(SPEAKER, ROLES, says) for seat in first for says in _roles_lines(seat, roles[seat - 1])]
    if not over:
        lines.append(joined(SPEAKER, ROLES, [Say(SPEAKER, "round.next", {"round": s.round + 1})]))
    at = len(fx) - 1 if over else len(fx)  # before GameOver
    fx[at:at] = lines
    return s


def _roles_lines(seat: int, seat_roles: tuple[Any, ...]) -> list[list[Say]]:
    """A seat's roles as utterances: the seat with its first role, then one role each."""
    says = _roles_says(seat, seat_roles)
    return [says[:2], *([say] for say in says[2:])]


def _roles_says(seat: int, seat_roles: tuple[Any, ...]) -> list[Say]:
    """A seat's roles, line by line ("Seat 1: row 2, flush, 2. ...")."""
    parts = [Say(SPEAKER, "score.seat", {"seat": seat})]
    for role in seat_roles:
        if role.line == "grid":
            parts.append(Say(SPEAKER, "score.grid", {"role": role.role, "points": role.points}))
        else:
            parts.append(Say(SPEAKER, "score.line", {"line": role.line, "role": role.role, "points": role.points}))
    if not seat_roles:
        parts.append(Say(SPEAKER, "score.none"))
    return parts


def _next_round(s: RoyalNineState, fx: list[Effect]) -> RoyalNineState:
    # All cards come back; grids, hands and the common card are emptied; the last roles stay.
    s = replace(s, phase=COMMON, round=s.round + 1, common=None, opened=False, grids=(EMPTY_GRID, EMPTY_GRID),
                hands=(frozenset(), frozenset()), selected=(None, None))
    fx.append(Say(SPEAKER, "round.begin", {"round": s.round}))
    return s


def winner(s: RoyalNineState) -> int | None:
    """The seat with the higher total; None for a draw."""
    t1, t2 = s.total(1), s.total(2)
    return None if t1 == t2 else (1 if t1 > t2 else 2)


def _end(s: RoyalNineState, fx: list[Effect], reason: str) -> RoyalNineState:
    played_out = reason == "rounds"
    best = winner(s) if played_out else None
    first, second = order(s.first)
    leader = winner(s)
    if leader is not None:  # the ranking follows the totals even when the Priest ends the game
        first, second = order(leader)
    outcome = Outcome(
        ranking=(first, second),
        winners=(best,) if best is not None else (),
        scores={seat: s.total(seat) for seat in SEATS},
        reason=reason,
        details={"round_scores": {seat: list(s.round_scores[seat - 1]) for seat in SEATS},
                 "rounds_played": len(s.round_scores[0]), "draw": played_out and best is None},
    )
    s = replace(s, phase=OVER, selected=(None, None), result=outcome)
    if not played_out:
        fx.append(Say(SPEAKER, "game.ended"))
    elif best is None:
        fx.append(Say(SPEAKER, "game.draw"))
    else:
        fx.append(Say(SPEAKER, "game.winner", {"seat": best}))
    fx.append(GameOver(outcome))
    return s


# -- where the game stands -----------------------------------------------------------------------


def _summary(s: RoyalNineState) -> list[Effect]:
    """Where the game stands, said publicly (after an undo or on resuming); nothing about the common card."""
    if s.phase == COMMON:
        return [Say(SPEAKER, "round.begin", {"round": s.round})]
    if s.phase in DEALS:
        return [_seats_say(s, "deal.ask") if s.phase == DEAL1 else Say(SPEAKER, "deal.more")]
    if s.phase in PLACES:
        return [Say(SPEAKER, "place.ask")]
    if s.phase == REVEAL:
        return [Say(SPEAKER, "reveal.ask")]
    if s.phase == SCORED:
        totals = [Say(SPEAKER, "score.total", {"seat": seat, "total": s.total(seat)}) for seat in order(s.first)]
        return [*totals, Say(SPEAKER, "round.next", {"round": s.round + 1})]
    return [Say(SPEAKER, "game.over")]


__all__ = ["RoyalNine", "READERS", "winner"]
