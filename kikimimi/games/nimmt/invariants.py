"""What must hold after every event of a 6 nimmt! game: the 104 cards accounted for, and privacy.

Used by the property tests and, through `privacy_leaks`, by the registry's conformance suite.
"""

from __future__ import annotations

from collections.abc import Iterable

from kikimimi.games.base import SPEAKER, Effect, Event, Say, Scan, seat_of
from kikimimi.games.nimmt.phrases import CARD_PARAM, PHRASES
from kikimimi.games.nimmt.pieces import CARD_COUNT
from kikimimi.games.nimmt.state import CHOOSE, DEAL, HAND_SIZE, OVER, ROW_LIMIT, ROWS, TAKE_ROW, NimmtState
from kikimimi.games.phrasebook import phrase_problem, spoken

# Refusals never name a card (D16).
REFUSALS = ("tap.not_yours", "tap.refused", "deal.hand_full", "deal.rows_full", "deal.held", "row.not_laid",
            "choose.already", "take_row.first", "tap.unknown_tag", "tap.no_seat", "game.over")


def check(before: NimmtState, event: Event, effects: Iterable[Effect], after: NimmtState) -> list[str]:
    """Every broken invariant, as a sentence; empty when all hold."""
    effects = list(effects)
    return check_state(after) + privacy_leaks(before, event, effects, after)


def check_state(s: NimmtState) -> list[str]:
    problems: list[str] = []
    places: list[int] = []
    for held in s.hands:
        places += held
    places += [card for card in s.chosen if card is not None]
    for row in s.rows:
        places += row
    for pile in s.taken:
        places += pile
    if len(places) != len(set(places)):
        problems.append("a card is in two places")
    if not all(1 <= card <= CARD_COUNT for card in places):
        problems.append("an unknown card is held")
    out_of_play = CARD_COUNT - len(set(places))
    dealt = s.phase in (CHOOSE, TAKE_ROW) or (s.phase == OVER and s.result is not None and s.result.reason != "referee")
    if dealt and len(places) != HAND_SIZE * s.players + ROWS:
        problems.append(f"{len(places)} cards in play, not {HAND_SIZE * s.players + ROWS} (out of play {out_of_play})")
    if any(len(held) > HAND_SIZE for held in s.hands) or len(s.rows) > ROWS:
        problems.append("more than 10 cards in a hand or more than 4 rows")
    if any(not row or len(row) > ROW_LIMIT for row in s.rows):
        problems.append("an empty row or a row of 6")
    if s.phase in (CHOOSE, TAKE_ROW) and len(s.rows) != ROWS:
        problems.append("playing without 4 rows")
    if s.phase == TAKE_ROW and (s.taker is None or not s.queue or s.queue[0][1] != s.taker):
        problems.append("take_row without the low card's owner as taker")
    if s.phase == CHOOSE and s.queue:
        problems.append("cards left to place while choosing")
    if s.phase == DEAL and any(card is not None for card in s.chosen):
        problems.append("a choice during the deal")
    if s.phase == OVER and s.result is None:
        problems.append("game over without a result")
    return problems


def _private_cards(s: NimmtState) -> dict[int, int]:
    """card -> the seat that alone may hear it: hands, and choices not yet revealed."""
    owner = {card: seat for seat, held in enumerate(s.hands, 1) for card in held}
    if s.phase != TAKE_ROW:
        owner.update({card: seat for seat, card in enumerate(s.chosen, 1) if card is not None})
    return owner


def privacy_leaks(before: NimmtState, event: Event, effects: Iterable[Effect], after: NimmtState) -> list[str]:
    """One sentence per leak: a card private to one seat said to the speaker or to another seat, or an
    earphone hearing about a tap that is not its own (the chooser's "you chose" excepted)."""
    problems: list[str] = []
    reader = event.reader if isinstance(event, Scan) else None
    private = {**_private_cards(before), **_private_cards(after)}
    still_private = _private_cards(after)
    for effect in spoken(e for e in effects if isinstance(e, Say)):  # a joined utterance's parts too
        problem = phrase_problem(effect, PHRASES)
        if problem:
            problems.append(problem)
        card = effect.params.get(CARD_PARAM)
        if effect.key in REFUSALS and card is not None:
            problems.append(f"a refusal named card {card}")
        if effect.to == SPEAKER:
            if card is not None and card in still_private:
                problems.append(f"the speaker said card {card}, still private to seat {still_private[card]}")
            continue
        seat = seat_of(effect.to)
        if seat is None:
            problems.append(f"unknown output {effect.to!r}")
            continue
        if card is not None and private.get(card, seat) != seat:
            problems.append(f"{effect.to} heard card {card} of seat {private[card]}")
        own_choice = effect.key == "choose.you_chose" and seat <= before.players and (
            card in before.hand(seat) or before.chosen[seat - 1] == card)
        if effect.to != reader and not own_choice:
            problems.append(f"{effect.to} heard {effect.key!r} for an event on {reader or 'the referee'}")
    return problems
