"""A game in progress: the states it went through, so that the referee can take events back.

Undo is the same for every game, so it lives here and not in the games: states are immutable,
so taking back an event is restoring the state before it. The Priest's undo means the last play, so it
takes back the last *accepted* event (one that changed the state), with the refused or listening taps
that followed it: a refused tap between the play and the undo must not eat the undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from kikimimi.games.base import SPEAKER, Alert, Effect, Event, Game, Referee, Say

S = TypeVar("S")


class Session(Generic[S]):
    def __init__(self, game: Game[S], setup: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.setup = dict(setup or {})
        self._states: list[S] = [game.initial(self.setup)]
        self.events: list[Event] = []

    @property
    def state(self) -> S:
        return self._states[-1]

    def feed(self, event: Event) -> list[Effect]:
        """Apply one event (undo included) and return what to say."""
        if isinstance(event, Referee) and event.action == "undo":
            return self.undo()
        state, effects = self.game.apply(self._states[-1], event)
        self._states.append(state)
        self.events.append(event)
        return effects

    def undo(self) -> list[Effect]:
        states = self._states
        last = len(self.events)
        while last > 0 and states[last] == states[last - 1]:
            last -= 1
        if last == 0:
            return [Say(SPEAKER, "referee.nothing_to_undo"), Alert("undo.nothing")]
        del states[last:]
        del self.events[last - 1:]
        return [Say(SPEAKER, "referee.undone"), *self.game.summary(self.state)]
