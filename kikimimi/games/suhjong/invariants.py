"""What must hold after every event of a Suhjong game; used by the property tests, the bench and the
conformance suite (`check` as the registry's invariants, `privacy_leaks` as its privacy check)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from kikimimi.games.base import SPEAKER, Effect, Event, Say, Scan, seat_of
from kikimimi.games.phrasebook import phrase_problems, spoken
from kikimimi.games.suhjong.phrases import PHRASES
from kikimimi.games.suhjong.pieces import CARD_SET, VALUE
from kikimimi.games.suhjong.state import DEAL, HAND_SIZE, OVER, SCORING, SEATS, TURN, SuhjongState

_NAMING = ("value", "cards")  # the parameters that carry card values


def check(before: SuhjongState, event: Event, effects: Iterable[Effect], after: SuhjongState) -> list[str]:
    """Every broken invariant after an event, as a sentence; empty when all hold."""
    state = after
    problems: list[str] = []
    places = [*state.hands, *(set(r) for r in state.rivers), set(state.sea)]
    held = [c for place in places for c in place]
    if len(held) != len(set(held)):
        problems.append("a card is in two places")
    if not set(held) <= CARD_SET:
        problems.append("an unknown card id is held")
    if any(len(r) != len(set(r)) for r in state.rivers) or len(state.sea) != len(set(state.sea)):
        problems.append("a card twice in a river or the sea")
    if state.pile_count + len(set(held)) != 50 or state.pile_count < 0:
        problems.append("hands + rivers + sea + pile do not add up to 50")
    if any(len(h) > HAND_SIZE for h in state.hands):
        problems.append("a hand holds more than 5")
    if state.phase == TURN and (state.turn not in SEATS or state.step is None):
        problems.append("a turn without a seat or step")
    if state.phase == SCORING and state.declaring not in SEATS:
        problems.append("scoring without a declaring seat")
    if state.phase == OVER and state.result is None:
        problems.append("over without a result")
    if state.phase == DEAL and (state.rivers != ((), ()) or state.sea):
        problems.append("cards in a river or the sea during the deal")
    return problems + phrase_problems(effects, PHRASES)


def privacy_leaks(before: SuhjongState, event: Event, effects: Sequence[Effect], after: SuhjongState) -> list[str]:
    """Leaks: an earphone hearing another reader's tap; a pile card's value said before it is dealt or
    drawn; a pile card named in what a seat may observe."""
    leaks: list[str] = []
    reader = event.reader if isinstance(event, Scan) else None
    says = list(spoken(e for e in effects if isinstance(e, Say)))  # a joined utterance's parts too
    for say in says:
        if say.to != SPEAKER and (seat_of(say.to) is None or say.to != reader):
            leaks.append(f"{say.to} heard {say.key} for a tap on {reader or 'the referee'}")
    left_pile = sorted(VALUE[c] for c in before.pile() - after.pile())
    told = sorted(say.params["value"] for say in says if say.key in ("deal.card", "draw.card", "draw.pass"))
    if told != left_pile:
        leaks.append(f"cards said dealt or drawn {told} are not the cards that left the pile {left_pile}")
    if isinstance(event, Scan) and event.piece in CARD_SET and event.piece in after.pile():
        named = [say.key for say in says if any(p in say.params for p in _NAMING)]
        if named:
            leaks.append(f"a tap of a pile card was answered naming a value: {named}")
    pile = after.pile()
    if pile:
        from kikimimi.games.suhjong.report import observation

        for seat in (None, *SEATS):
            seen = json.dumps(observation(after, seat))
            named_ids = [c for c in pile if f'"{c}"' in seen]
            if named_ids:
                leaks.append(f"observe({seat}) names pile cards {named_ids[:3]}")
                break
    return leaks
