"""The state as plain data: the contract's state report, and what a seat may know.

Everything in Suhjong is open but the pile's contents [D3]: the report names no pile card, only
their count, so a seat's observation is the report plus the turn's details a player at the table sees.
"""

from __future__ import annotations

from typing import Any

from kikimimi.games.suhjong import solver
from kikimimi.games.suhjong.equation import written
from kikimimi.games.suhjong.pieces import digits
from kikimimi.games.suhjong.state import HAND_SIZE, SEATS, TURN, Declared, SuhjongState


def _declared(value: Declared) -> dict[str, Any] | None:
    if value is None:
        return None
    return {"equation": value[0], "points": value[1]}


def _result(state: SuhjongState) -> dict[str, Any] | None:
    if state.result is None:
        return None
    return {"winner": state.result.winner, "totals": {str(seat): state.total(seat) for seat in SEATS}}


def state_report(state: SuhjongState) -> dict[str, Any]:
    """The contract's keys (`spoken` is added by replay), plus `equation`: the declaration being tapped."""
    in_turn = state.phase == TURN
    return {
        "game": "suhjong",
        "phase": state.phase,
        "round": state.round,
        "first": state.first,
        "turn": state.turn if in_turn else None,
        "step": state.step if in_turn else None,
        "turn_count": {str(seat): state.turn_count[seat - 1] for seat in SEATS},
        "hands": {str(seat): sorted(state.hand(seat)) for seat in SEATS},
        "rivers": {str(seat): list(state.river(seat)) for seat in SEATS},
        "sea_count": len(state.sea),
        "pile_count": state.pile_count,
        "showdown_by": state.showdown_by,
        "declaring": state.declaring,
        "declared": {str(seat): _declared(state.declared[seat - 1]) for seat in SEATS},
        "best": {str(seat): (solver.best(digits(state.hand(seat))) if len(state.hand(seat)) == HAND_SIZE else None)
                 for seat in SEATS},
        "scores": {str(seat): list(state.scores[seat - 1]) for seat in SEATS},
        "totals": {str(seat): state.total(seat) for seat in SEATS},
        "result": _result(state),
        "equation": written(state.taps) if state.declaring is not None else None,
    }


def observation(state: SuhjongState, seat: int | None) -> dict[str, Any]:
    """What `seat` may know: the report (all open) plus the sea's cards (open [D3]), the turn's
    details and the set-up. The same for every seat: nothing in Suhjong is one seat's secret."""
    seen = state_report(state)
    seen.update({
        "seat": seat,
        "sea": list(state.sea),
        "grace": state.grace,
        "discarded": state.discarded,
        "drew": state.drew,
        "taps": list(state.taps),
        "discard_max": state.discard_max,
        "fold_points": state.fold_points,
        "rounds": state.rounds,
        "hints": state.hints,
    })
    return seen
