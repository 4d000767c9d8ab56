"""The state as plain data: the replay's state report (the contract's keys) and what a seat may see."""

from __future__ import annotations

from typing import Any

from kikimimi.games.nimmt.state import TAKE_ROW, NimmtState


def _result(s: NimmtState) -> dict[str, Any] | None:
    if s.result is None:
        return None
    return {"winners": sorted(s.result.winners),
            "bullheads": {str(seat): s.result.scores[seat] for seat in s.seats}}


def state_report(s: NimmtState) -> dict[str, Any]:
    """Every key of the contract's state report except `spoken`, which the replay adds."""
    return {
        "game": "nimmt",
        "players": s.players,
        "first": s.first,
        "target": s.target,
        "phase": s.phase,
        "round": s.round,
        "taker": s.taker if s.phase == TAKE_ROW else None,
        "rows": [list(row) for row in s.rows],
        "hands": {str(seat): sorted(s.hand(seat)) for seat in s.seats},
        "chosen": {str(seat): s.chosen[seat - 1] for seat in s.seats},
        "taken": {str(seat): list(s.taken[seat - 1]) for seat in s.seats},
        "bullheads": {str(seat): s.bullheads(seat) for seat in s.seats},
        "totals": {str(seat): s.total(seat) for seat in s.seats},
        "revealed": [[card, seat] for card, seat in s.revealed],
        "last_reveal": [[card, seat] for card, seat in s.last_reveal],
        "reason": s.result.reason if s.result is not None else None,
        "result": _result(s),
    }


def observation(s: NimmtState, seat: int | None) -> dict[str, Any]:
    """What one seat may know: its own hand and choice, who has chosen (not what, until the reveal),
    the rows, every seat's taken cards and scores. None: what the whole table may know."""
    public = state_report(s)
    mine = seat if seat in s.seats else None
    public["seat"] = mine
    public["hands"] = {str(mine): public["hands"][str(mine)]} if mine else {}
    public["hand_counts"] = {str(x): len(s.hand(x)) for x in s.seats}
    public["has_chosen"] = {str(x): s.chosen[x - 1] is not None for x in s.seats}
    revealed = s.phase == TAKE_ROW  # the turn's cards are face up while a row is being chosen
    public["chosen"] = {str(x): (card if (revealed or x == mine) else None)
                        for x, card in zip(s.seats, s.chosen, strict=True)}
    return public
