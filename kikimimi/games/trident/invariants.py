"""What must hold after every event of a Trident game: checked by `kikimimi simulate`, the Trident bench
and the property tests."""

from __future__ import annotations

from collections.abc import Iterable

from kikimimi.games.base import FIELD, SPEAKER, Effect, Event, Say, Scan
from kikimimi.games.trident.phrases import PHRASES, PIECE_HIDDEN
from kikimimi.games.trident.pieces import PIECES
from kikimimi.games.trident.state import DEAL, DRAWING, HAND_SIZE, OVER, SEATS, START, TridentState

# Speaker phrases that name a piece: its name, or a play said with the piece ("heart, seat 2"; the Change
# Draw 4's "choose a suit"; the last piece with the ranking).
_PIECE_KEYS = {k for k, params in PHRASES.items()
               if k.startswith("piece.") or {"piece", "attack", "turn"} & set(params)} | {"play.choose", "game.out"}


def check(state: TridentState, event: Event, effects: Iterable[Effect]) -> list[str]:
    """Every broken invariant, as a sentence; empty when all hold."""
    problems: list[str] = []
    hands = state.hands
    # 54 pieces accounted for: hands disjoint, field without repeats, basket the rest.
    seen: set[str] = set()
    for index, held in enumerate(hands):
        if seen & held:
            problems.append(f"a piece is in two hands: {sorted(seen & held)} (seat {index + 1})")
        seen |= held
    if len(set(state.field)) != len(state.field):
        problems.append("a piece is on the field twice")
    if seen & set(state.field):
        problems.append(f"a piece is both in a hand and on the field: {sorted(seen & set(state.field))}")
    if not seen | set(state.field) <= set(PIECES):
        problems.append("an unknown piece id is held")
    if state.basket_count < 0 or state.basket_count + len(seen) + len(state.field) != 54:
        problems.append("the pieces do not add up to 54")
    # Phases.
    if state.phase == DEAL and any(len(h) > HAND_SIZE for h in hands):
        problems.append("more than 5 pieces dealt to a seat")
    if state.phase == DRAWING and (state.drawer not in SEATS or state.owed <= 0):
        problems.append("drawing without a seat that owes draws")
    if state.phase == OVER and state.result is None:
        problems.append("game over without a result")
    if state.phase not in (DEAL, OVER) and state.turn not in SEATS:
        problems.append(f"phase {state.phase} without a seat to move")
    if state.phase not in (DEAL, START, OVER) and state.required is None:
        problems.append("playing without a required kind")
    for seat in SEATS:
        if state.declared[seat - 1] and len(state.hand(seat)) > 2:
            problems.append(f"seat {seat} declared with {len(state.hand(seat))} pieces")
    problems += check_privacy(event, effects)
    return problems


def check_privacy(event: Event, effects: Iterable[Effect]) -> list[str]:
    """Nothing private reaches the speaker or another seat.

    A hand output hears only answers to its own reader's taps; the speaker names a piece only when
    it was tapped on the field (and it never says the hidden "Unknown").
    """
    problems = []
    reader = event.reader if isinstance(event, Scan) else None
    for effect in effects:
        if not isinstance(effect, Say):
            continue
        if effect.key not in PHRASES:
            problems.append(f"unregistered phrase {effect.key!r}")
        elif set(effect.params) != set(PHRASES[effect.key]):
            problems.append(f"phrase {effect.key!r} with params {sorted(effect.params)}")
        if effect.to == SPEAKER:
            if effect.key == PIECE_HIDDEN:
                problems.append("the speaker said 'Unknown' (a hand reader's phrase)")
            elif effect.key in _PIECE_KEYS and reader != FIELD:
                problems.append(f"the speaker named a piece ({effect.key}) for a tap on {reader}")
        elif effect.to.startswith("hand:"):
            if effect.to != reader:
                problems.append(f"{effect.to} heard {effect.key!r} for an event on {reader or 'the referee'}")
        else:
            problems.append(f"unknown output {effect.to!r}")
    return problems



def privacy_leaks(before: TridentState, event: Event, effects: Iterable[Effect], after: TridentState) -> list[str]:
    """The registry's privacy check (the conformance suite runs it over bot games)."""
    return check_privacy(event, effects)
