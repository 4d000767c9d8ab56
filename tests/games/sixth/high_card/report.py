"""High card's state as plain data, and what one seat may know."""

from __future__ import annotations

from typing import Any

from high_card.engine import SEATS, HighCardState, outcome


def state_report(state: HighCardState) -> dict[str, Any]:
    return {"game": "high-card", "phase": state.phase,
            "cards": {str(seat): state.cards[seat - 1] for seat in SEATS},
            "result": outcome(state).to_json() if state.phase == "over" else None}


def observation(state: HighCardState, seat: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    return {"phase": state.phase,
            "cards": {str(s): state.cards[s - 1] if over or s == seat else state.cards[s - 1] is not None
                      for s in SEATS}}
