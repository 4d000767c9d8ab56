"""High card's rules: a seat's card is said on its own earphone; both cards on the speaker at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from high_card import CARDS
from kikimimi.games.base import SPEAKER, BotFactory, Effect, Event, GameEngine, GameOver, Outcome, Say, Scan

SEATS = (1, 2)


@dataclass(frozen=True, slots=True)
class HighCardState:
    first: int = 1
    cards: tuple[str | None, str | None] = (None, None)
    phase: str = "play"  # play, over
    winner: int | None = None
    reason: str = ""


def value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


class HighCard(GameEngine[HighCardState]):
    tags = frozenset(CARDS)

    def initial(self, setup: Mapping[str, Any]) -> HighCardState:
        return HighCardState(first=setup.get("first", 1))

    def tap(self, state: HighCardState, reader: str, out: str, seat: int | None, tag: str, uid: str | None,
            fx: list[Effect]) -> HighCardState:
        if state.phase == "over":
            fx.append(Say(out, "game.over"))
            return state
        if seat is None:
            fx.append(Say(SPEAKER, "tap.hand_only"))
            return state
        if state.cards[seat - 1] is not None:
            fx.append(Say(out, "card.already"))
            return state
        if tag in state.cards:
            fx.append(Say(out, "card.taken"))
            return state
        cards = (tag, state.cards[1]) if seat == 1 else (state.cards[0], tag)
        fx.append(Say(out, "card.yours", {"card": tag}))
        state = replace(state, cards=cards)
        if None in cards:
            return state
        one, two = (value(card) for card in cards if card is not None)
        return self._finish(state, 1 if one > two else 2, "cards", fx)

    def end(self, state: HighCardState, fx: list[Effect]) -> HighCardState:
        return self._finish(state, None, "referee", fx)

    def _finish(self, state: HighCardState, winner: int | None, reason: str, fx: list[Effect]) -> HighCardState:
        order = (state.first, 3 - state.first)
        for seat in order:
            card = state.cards[seat - 1]
            if card is not None:
                fx.append(Say(SPEAKER, "card.shown", {"seat": seat, "card": card}))
        if winner is not None:
            fx.append(Say(SPEAKER, "game.winner", {"seat": winner}))
        state = replace(state, phase="over", winner=winner, reason=reason)
        fx.append(GameOver(outcome(state)))
        return state

    def summary(self, state: HighCardState) -> list[Effect]:
        if state.phase == "over":
            return [Say(SPEAKER, "game.over")]
        return [Say(SPEAKER, "cards.waiting", {"count": state.cards.count(None)})]

    def bots(self) -> Mapping[str, BotFactory]:
        from high_card.bots import random_bots

        return {"bot": random_bots}

    def invariants(self, before: HighCardState, event: Event, effects: Sequence[Effect],
                   after: HighCardState) -> list[str]:
        problems = []
        held = [card for card in after.cards if card is not None]
        if len(held) != len(set(held)):
            problems.append("one card held by both seats")
        if any(b is not None and a != b for b, a in zip(before.cards, after.cards, strict=True)):
            problems.append("a seat's card changed")
        if (after.phase == "over") != (None not in after.cards or after.reason == "referee"):
            problems.append(f"phase {after.phase} with cards {after.cards}")
        return problems

    def privacy(self, before: HighCardState, event: Event, effects: Sequence[Effect],
                after: HighCardState) -> list[str]:
        reader = event.reader if isinstance(event, Scan) else None
        leaks = []
        for effect in effects:
            if isinstance(effect, Say) and effect.to != SPEAKER and effect.to != reader:
                leaks.append(f"{effect.to} heard {effect.key} for a tap on {reader}")
            if isinstance(effect, Say) and effect.to == SPEAKER and "card" in effect.params \
                    and after.phase != "over":
                leaks.append(f"a card said on the speaker before the end: {effect}")
        return leaks


def outcome(state: HighCardState) -> Outcome:
    winner = state.winner
    ranking = (winner, 3 - winner) if winner is not None else SEATS
    scores = {seat: value(card) if card else 0 for seat, card in zip(SEATS, state.cards, strict=True)}
    return Outcome(ranking, (winner,) if winner is not None else (), scores, state.reason)
