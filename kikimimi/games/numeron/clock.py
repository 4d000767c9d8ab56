"""The turn clock hook (registry `clock`): whom the table waits for, and for how long.

The live table restarts its timer whenever this value changes, warns the seat 10 s before the end and
then sends `Referee("timeout")` (contract D14). The rules never read a clock.
"""

from __future__ import annotations

from kikimimi.games.numeron.state import DOUBLE_CHOICE, PLAY, NumeronState, other


def turn_clock(state: NumeronState) -> tuple[int, int] | None:
    """(the seat the table waits for, turn_seconds); None when the clock stops.

    It stops in the set phase, after the end and with `turn_seconds` 0; in practice mode too (a design
    decision: the table never takes a turn, so the awaited seat never changes and the timer would never
    restart). During DOUBLE's choice the table waits for the opponent.
    """
    if state.phase != PLAY or state.turn_seconds <= 0 or state.practice or state.turn is None:
        return None
    seat = other(state.turn) if state.step == DOUBLE_CHOICE else state.turn
    return (seat, state.turn_seconds)
