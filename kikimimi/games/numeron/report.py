"""The state report (contract "The state report"), what each seat may observe, and the summary phrases."""

from __future__ import annotations

from typing import Any

from kikimimi.games.base import SPEAKER, Effect, Say, hand
from kikimimi.games.numeron.state import CALL, OVER, PLAY, SEATS, SET, SHUFFLE, NumeronState, other


def _call_json(r: tuple[Any, ...]) -> dict[str, Any]:
    return {"seat": r[1], "call": r[2], "eat": r[3], "bite": r[4]}


def _item_json(r: tuple[Any, ...]) -> dict[str, Any]:
    info = {k: list(v) if isinstance(v, tuple) else v for k, v in r[3]}
    return {"seat": r[1], "item": r[2], **info}


def _entry(s: NumeronState) -> str:
    if s.phase == SET:
        return s.entries[s.entry_seat - 1] if s.entry_seat else ""
    if s.step == SHUFFLE and s.work:
        return str(s.work[0])
    return s.call


def result_json(s: NumeronState) -> dict[str, Any] | None:
    if s.phase != OVER:
        return None
    return {"winner": s.winner, "calls": {str(seat): s.calls_by(seat) for seat in SEATS}}


def state_report(s: NumeronState) -> dict[str, Any]:
    """The referee's full view (JSON-able); `spoken` is added by replay."""
    playing = s.phase == PLAY
    report: dict[str, Any] = {
        "game": "numeron",
        "phase": s.phase,
        "turn": s.turn if playing else None,
        "step": s.step if playing else None,
        "calls_left": s.calls_left if playing else None,
        "entry": _entry(s),
        "digits": s.digits,
        "numbers": {str(seat): s.number(seat) for seat in SEATS},
        "calls": [_call_json(r) for r in s.log if r[0] == "call"],
        "items_used": {str(seat): list(s.used_by(seat)) for seat in SEATS},
        "item_log": [_item_json(r) for r in s.log if r[0] == "item"],
        "revealed": {str(seat): {str(k): d for k, d in s.revealed[seat - 1]} for seat in SEATS},
        "result": result_json(s),
    }
    # Beside the contract's keys (the console reads them): the set-up the view shows.
    report["items"] = s.items
    report["turn_seconds"] = s.turn_seconds
    if s.practice:  # practice mode (a design of this project, docs/rules/numeron.md)
        report["practice"] = True
        report["solver_calls"] = s.solver_calls
    return report


def observation(s: NumeronState, seat: int | None) -> dict[str, Any]:
    """What `seat` may know: everything public, its own number and entries; None: the public only."""
    obs: dict[str, Any] = {
        "phase": s.phase, "digits": s.digits, "items": s.items, "practice": s.practice,
        "turn": s.turn, "step": s.step, "calls_left": s.calls_left, "call": s.call,
        "item": s.item, "item_this_turn": s.item_this_turn,
        # The public record in order: ("call", seat, call, eat, bite) and ("item", seat, name, info).
        "log": [list(r[:3]) + [dict(r[3])] if r[0] == "item" else list(r) for r in s.log],
        "used": {k: list(s.used_by(k)) for k in SEATS},
        "revealed": {k: dict(s.revealed[k - 1]) for k in SEATS},
        "ready": {k: s.number(k) is not None for k in SEATS},
        "winner": s.winner,
    }
    if s.phase == OVER:
        obs["numbers"] = {k: s.number(k) for k in SEATS}
    if seat is not None:
        obs["seat"] = seat
        obs["number"] = s.number(seat)
        obs["entry"] = s.entries[seat - 1]
        mine = s.turn == seat and s.phase == PLAY
        # The public steps of the seat's own item are known to all; its private work only to it.
        obs["work"] = list(s.work) if mine else []
    return obs


def summary(s: NumeronState) -> list[Effect]:
    """Where the game stands, on the speaker (after an undo, on resuming)."""
    if s.phase == OVER:
        return [Say(SPEAKER, "game.over")]
    if s.phase == SET:
        fx: list[Effect] = [Say(SPEAKER, "summary.set")]
        fx += [Say(SPEAKER, "set.ready", {"seat": k}) for k in SEATS if s.number(k) is not None]
        return fx
    x = s.turn or 1
    fx = [Say(SPEAKER, "turn.next", {"seat": x})]
    if s.calls_left == 2:
        fx.append(Say(SPEAKER, "call.again", {"seat": x}))
    if s.step == "double_choice":
        fx.append(Say(SPEAKER, "double.prompt", {"seat": other(x)}))
    elif s.step == SHUFFLE:
        fx.append(Say(hand(x), "shuffle.prompt"))
    elif s.step != CALL and s.item:
        fx.append(Say(SPEAKER, "item.in_progress", {"seat": x, "item": s.item}))
    return fx
