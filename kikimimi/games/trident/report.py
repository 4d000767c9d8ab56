"""The state as plain data: the replay's state report (`kikimimi replay --json`) and what a seat may see."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.trident.state import DEAL, OVER, SEATS, TridentState


def _result(state: TridentState) -> dict[str, Any] | None:
    r = state.result
    if r is None:
        return None
    pieces = r.details["pieces"]
    assert isinstance(pieces, Mapping)
    return {
        "winner": r.winner,
        "crashed": r.details.get("crashed"),
        "ranking": list(r.ranking),
        "pieces": {str(seat): pieces[seat] for seat in SEATS},
        "points": {str(seat): r.scores[seat] for seat in SEATS},
        "reason": r.reason,
    }


def state_report(state: TridentState) -> dict[str, Any]:
    """Every key of the contract's state report except `spoken`, which the replay adds."""
    owed = {str(seat): 0 for seat in SEATS}
    if state.drawer is not None:
        owed[str(state.drawer)] = state.owed
    return {
        "game": "trident",
        "rules": state.rules,
        "first": state.first,
        "phase": state.phase,
        "turn": None if state.phase in (DEAL, OVER) else state.turn,
        "required": state.required,
        "pending_draw": state.pending,
        "owed": owed,
        "hands": {str(seat): sorted(state.hand(seat)) for seat in SEATS},
        "declared": {str(seat): state.declared[seat - 1] for seat in SEATS},
        "field": list(state.field),
        "basket_count": state.basket_count,
        "penalties": [{"seat": seat, "reason": reason} for seat, reason in state.penalties],
        "result": _result(state),
    }


def observation(state: TridentState, seat: int | None) -> dict[str, Any]:
    """What one seat may know (its own hand, everyone's counts); None: what the whole table may know."""
    public = state_report(state)
    counts = {str(s): len(state.hand(s)) for s in SEATS}
    public["hands"] = {str(seat): public["hands"][str(seat)]} if seat in SEATS else {}
    public["hand_counts"] = counts
    return public
