"""What must hold after every Royal Nine event: privacy above all. Used by the tests and the
conformance suite (the registry's `privacy`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kikimimi.games import phrasebook
from kikimimi.games.base import SPEAKER, Effect, Event, Say, Scan
from kikimimi.games.phrasebook import spoken
from kikimimi.games.royal_nine.cards import CARD_SET, OWN_CELLS
from kikimimi.games.royal_nine.phrases import PHRASES, REVEAL_PHRASES
from kikimimi.games.royal_nine.state import HALF, OVER, PLACES, SEATS, RoyalNineState


def _secret(before: RoyalNineState, after: RoyalNineState) -> str | None:
    """The common card no output may name in this step: laid and not yet opened."""
    if after.common is not None and not after.opened:
        return after.common
    if before.common is not None and not before.opened and not after.opened:
        return before.common
    return None


def privacy_leaks(before: RoyalNineState, event: Event, effects: Sequence[Effect],
                  after: RoyalNineState) -> list[str]:
    """One sentence per leak: the common card (or anything depending on it) said before the reveal,
    or a seat's earphone hearing an answer to a tap that was not on its own reader."""
    problems: list[str] = []
    secret = _secret(before, after)
    reader = event.reader if isinstance(event, Scan) else None
    for effect in spoken(e for e in effects if isinstance(e, Say)):  # a joined utterance's parts too
        if not isinstance(effect, Say):
            continue
        if secret is not None:
            if secret in effect.params.values():
                problems.append(f"{effect.to} heard the face-down common card in {effect.key!r}")
            if effect.key in REVEAL_PHRASES:
                problems.append(f"{effect.to} heard {effect.key!r} (it depends on the common card) before the reveal")
        if effect.to.startswith("hand:") and effect.to != reader:
            problems.append(f"{effect.to} heard {effect.key!r} for an event on {reader or 'the referee'}")
        elif effect.to != SPEAKER and not effect.to.startswith("hand:"):
            problems.append(f"unknown output {effect.to!r}")
    return problems


def phrase_problems(effects: Iterable[Effect]) -> list[str]:
    """Every Say is a registered phrase with exactly its parameters."""
    return phrasebook.phrase_problems(effects, PHRASES)


def state_problems(s: RoyalNineState) -> list[str]:
    """The bookkeeping: no card twice, the centre free, counts within the phase's bounds."""
    problems = []
    held: list[str] = [c for seat in SEATS for c in s.grid(seat) if c is not None]
    held += [c for seat in SEATS for c in s.hand(seat)]
    if s.common is not None:
        held.append(s.common)
    if len(held) != len(set(held)):
        problems.append("a card is in two places")
    if not set(held) <= CARD_SET:
        problems.append("an unknown card is held")
    if not s.tens and any(c.endswith("-10") for c in held):
        problems.append("a ten is in play without tens")
    for seat in SEATS:
        if s.grid(seat)[4] is not None:
            problems.append(f"seat {seat}'s centre holds a card")
        if len(s.hand(seat)) > HALF:
            problems.append(f"seat {seat} holds more than {HALF}")
        selected = s.selected[seat - 1]
        if selected is not None and (s.phase not in PLACES or selected not in s.hand(seat)):
            problems.append(f"seat {seat} has a selection outside its hand or a place phase")
        if s.placed(seat) > len(OWN_CELLS):
            problems.append(f"seat {seat} placed too many")
    if len(s.round_scores[0]) != len(s.round_scores[1]):
        problems.append("the seats have different numbers of round scores")
    if s.phase == OVER and s.result is None:
        problems.append("over without a result")
    return problems


def check(before: RoyalNineState, event: Event, effects: Sequence[Effect], after: RoyalNineState) -> list[str]:
    """Every broken invariant after an event (the bookkeeping, the phrases), as a sentence."""
    return state_problems(after) + phrase_problems(effects)
