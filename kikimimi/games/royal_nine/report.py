"""The state as plain data: the contract's state report and what one seat may know."""

from __future__ import annotations

from typing import Any

from kikimimi.games.royal_nine.cards import CENTRE
from kikimimi.games.royal_nine.engine import winner
from kikimimi.games.royal_nine.state import OVER, SEATS, RoyalNineState


def _grid(state: RoyalNineState, seat: int) -> list[str | None]:
    return ["common" if i == CENTRE else card for i, card in enumerate(state.grid(seat))]


def _result(state: RoyalNineState) -> dict[str, Any] | None:
    if state.phase != OVER or state.result is None:
        return None
    return {"winner": state.result.winner if state.result.reason == "rounds" else None,
            "totals": {str(seat): state.total(seat) for seat in SEATS}}


def state_report(state: RoyalNineState) -> dict[str, Any]:
    """Every key of the contract's state report except `spoken`, which the replay adds."""
    return {
        "game": "royal-nine",
        "phase": state.phase,
        "round": state.round,
        "common": state.common,
        "grids": {str(seat): _grid(state, seat) for seat in SEATS},
        "hands": {str(seat): sorted(state.hand(seat)) for seat in SEATS},
        "round_scores": {str(seat): list(state.round_scores[seat - 1]) for seat in SEATS},
        "totals": {str(seat): state.total(seat) for seat in SEATS},
        "last_roles": {str(seat): [role.to_json() for role in state.last_roles[seat - 1]] for seat in SEATS},
        "result": _result(state),
    }


def observation(state: RoyalNineState, seat: int | None) -> dict[str, Any]:
    """What `seat` may know (None: the whole table): everything but the common card before it is opened.

    Cards are open, so both grids and hands are public; a seat's own selection is its own. `unseen` is
    every card of the variant that no seat has heard this round (the common card among them until the
    reveal): what the solver averages over.
    """
    view = state_report(state)
    if not state.opened:
        view["common"] = None
    view["common_laid"] = state.common is not None
    view["opened"] = state.opened
    view["first"] = state.first
    view["tens"] = state.tens
    view["rounds"] = state.rounds
    view["unseen"] = list(state.unseen())
    if state.opened and state.common in view["unseen"]:
        view["unseen"].remove(state.common)
    view["selected"] = state.selected[seat - 1] if seat in SEATS else None
    view["leader"] = winner(state)
    return view
