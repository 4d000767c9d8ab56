"""A game in progress: the states it went through, so that the referee can take events back.

Undo is the same for every game, so it lives here and not in the games: states are immutable,
so taking back an event is restoring the state before it. The Priest's undo means the last play, so it
takes back the last *accepted* event (one that changed the state), with the refused or listening taps
that followed it: a refused tap between the play and the undo must not eat the undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from kikimimi.games.base import SPEAKER, Alert, Effect, Event, Game, Referee, Say, refuse

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
            return self.undo(event.params.get("at"))
        state, effects = self.game.apply(self._states[-1], event)
        self._states.append(state)
        self.events.append(event)
        return effects

    def last_accepted(self) -> int:
        """How many events lead up to and include the last accepted one (0: none): what undo takes back is
        `events[last_accepted() - 1]` and the refused taps after it."""
        states = self._states
        last = len(self.events)
        while last > 0 and states[last] == states[last - 1]:
            last -= 1
        return last

    def undo(self, at: Any = None) -> list[Effect]:
        """Take back the last accepted event. `at`, when given, is `last_accepted()` as the Priest saw it when
        asked to confirm: a table that moved on since (another console undid, a tap came) refuses."""
        states = self._states
        last = self.last_accepted()
        if last == 0:
            return [Say(SPEAKER, "referee.nothing_to_undo"), Alert("undo.nothing")]
        if at is not None and at != last:
            fx: list[Effect] = []
            refuse("undo", "the table moved on since the undo was asked", fx)
            return fx
        del states[last:]
        del self.events[last - 1:]
        return [Say(SPEAKER, "referee.undone"), *self.game.summary(self.state)]
