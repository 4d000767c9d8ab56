"""One test table for every game of the registry: events fed one by one, each step checked.

A `GameTable` plays the game registered as `game_id` through a `Session` (undo is the table's, as on the
live table) and checks every step as the conformance suite checks bot games (`conformance.StepChecks`:
nothing said on an output the game lacks, its privacy and its invariants hold) and that `apply` left its
input state as it was. A game's own tests add only what is the game's: taps by card name, dealing a
given position (tests/<game>/<game>_table.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from kikimimi.games.base import FIELD, Alert, Effect, Event, Referee, Say, Scan, hand
from kikimimi.games.conformance import StepChecks
from kikimimi.games.phrasebook import flat
from kikimimi.games.registry import get_info
from kikimimi.games.session import Session


class GameTable:
    def __init__(self, game_id: str, setup: dict[str, Any] | None = None) -> None:
        self.info = get_info(game_id)
        self.game = self.info.game
        self.setup = dict(setup or {})
        self.session = Session(self.game, self.setup)
        # Any earphone of the biggest table the game is played on: a tap on a seat the game does not use is
        # answered there (6 nimmt!'s D18), never on another seat's.
        every_seat = {"speaker", *(hand(seat) for seat in range(1, self.info.seats[1] + 1))}
        self.check = StepChecks(self.info, self.setup, outputs=every_seat)
        self.effects: list[Effect] = []  # of the last event
        self.spoken: list[Say] = []  # every phrase so far, as the game gave it
        self.problems: list[str] = []  # stays empty: a problem fails the step that made it

    @property
    def state(self) -> Any:
        return self.session.state

    def feed(self, event: Event) -> list[Effect]:
        before = self.state
        snapshot = copy.deepcopy(before)
        effects = self.session.feed(event)
        assert before == snapshot, f"apply changed its input state on {event}"
        if not (isinstance(event, Referee) and event.action == "undo"):  # the Session's, not the game's step
            self.problems += self.check(before, event, effects, self.state)
            assert not self.problems, self.problems
        self.effects = effects
        self.spoken += [effect for effect in effects if isinstance(effect, Say)]
        return effects

    # -- taps and the Priest ----------------------------------------------------------------------------

    def tap(self, reader: str, tag: str | None) -> list[Effect]:
        return self.feed(Scan(reader, tag))

    def field(self, tag: str | None) -> list[Effect]:
        return self.tap(FIELD, tag)

    def hand(self, seat: int, tag: str | None) -> list[Effect]:
        return self.tap(hand(seat), tag)

    def referee(self, action: str, **params: Any) -> list[Effect]:
        return self.feed(Referee(action, params))

    # -- what the last event said -----------------------------------------------------------------------

    def says(self, effects: Iterable[Effect] | None = None) -> list[Say]:
        """The phrases as the game gave them (a joined utterance whole)."""
        return [e for e in (self.effects if effects is None else effects) if isinstance(e, Say)]

    def phrases(self, effects: Iterable[Effect] | None = None) -> list[Say]:
        """Phrase by phrase (a joined utterance's parts in their place)."""
        return flat(self.says(effects))

    def alerts(self) -> list[str]:
        return [e.key for e in self.effects if isinstance(e, Alert)]

    def game_report(self) -> dict[str, Any]:
        return self.game.report(self.state)


def play_bots(game: Any, bots: Any, setup: dict[str, Any], humans: Iterable[int] = (), limit: int = 20000,
              check: Callable[..., list[str]] | None = None) -> tuple[Any, list[Event]]:
    """The bots' events through the rules until they stop (a human's turn, the game's end) or `limit` events;
    with `check` (a game's invariants: before, event, effects, after), every step is checked."""
    humans = tuple(humans)
    state = game.initial(setup)
    events: list[Event] = []
    for _ in range(limit):
        event = bots.next_event(state, humans)
        if event is None:
            break
        before = state
        state, effects = game.apply(state, event)
        if check is not None:
            assert not check(before, event, effects, state)
        events.append(event)
    return state, events
