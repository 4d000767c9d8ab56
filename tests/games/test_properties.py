"""One stateful property test over every registered game (as OpenSpiel runs one simulation test over its
registry): random set-ups, random taps of any tag on any reader (a bigger table's too), junk tags,
referee actions, undo and stretches of bot play. After every step: apply never raised nor changed its
input, and the game's own invariants and privacy check hold. Each game keeps only its own rule tests.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from kikimimi.games.base import Referee, Scan, SetupError
from kikimimi.games.registry import GameInfo, SetupKey, games
from kikimimi.games.session import Session

GAMES = games()
# Random games per registered game: 15 in `./run test` (a game's 30 steps each; 6 nimmt! alone took 20 s at 30 on
# a loaded machine); KIKIMIMI_PROPERTY_EXAMPLES=300 (or more) for the long run before a release.
EXAMPLES = int(os.environ.get("KIKIMIMI_PROPERTY_EXAMPLES", "15"))


def _values(key: SetupKey) -> st.SearchStrategy[Any]:
    """Values a set-up key allows (a small range for open-ended numbers: a test game must end)."""
    if key.choices is not None:
        return st.sampled_from(key.choices)
    if key.type is bool:
        return st.booleans()
    if key.type is int:
        low = key.minimum if key.minimum is not None else 0
        high = key.maximum if key.maximum is not None else low + 3
        return st.integers(low, min(high, low + 3, max(key.default, low) + 3))
    return st.just(key.default)


def machine_for(info: GameInfo) -> type[RuleBasedStateMachine]:
    game = info.game
    actions = sorted({"end", "no-such-action", "timeout", *(a.action for a in info.referee_actions)})

    class GameMachine(RuleBasedStateMachine):
        session: Session[Any]
        problems: list[str]

        @initialize(data=st.data())
        def set_up(self, data: st.DataObject) -> None:
            raw = {key.name: data.draw(_values(key), label=key.name) for key in info.setup_keys
                   if data.draw(st.booleans(), label=f"set {key.name}")}
            try:
                setup = info.parse_setup(raw)
            except SetupError:
                assume(False)
            self.setup = info.prepare_setup(setup, random.Random(0))
            self.session = Session(game, self.setup)
            self.readers = [*info.readers(self.setup), f"hand:{info.seat_count(self.setup) + 1}", "table"]
            self.problems = []

        def _feed(self, event: Any) -> None:
            before = self.session.state
            snapshot = copy.deepcopy(before)
            effects = self.session.feed(event)
            assert before == snapshot, f"apply changed its input state on {event}"
            if isinstance(event, Referee) and event.action == "undo":
                return
            after = self.session.state
            self.problems = [*info.invariant_check()(before, event, effects, after),
                             *info.privacy_check()(before, event, effects, after)]
            assert not self.problems, (event, self.problems)

        @rule(reader=st.integers(0, 99), tag=st.integers(0, 10_000), junk=st.sampled_from([None, "x", "no-such"]),
              known=st.booleans())
        def tap(self, reader: int, tag: int, junk: str | None, known: bool) -> None:
            ids = [*info.pieces, *info.controls]
            self._feed(Scan(self.readers[reader % len(self.readers)], ids[tag % len(ids)] if known else junk))

        @rule(action=st.sampled_from(actions), seat=st.integers(0, 4))
        def referee(self, action: str, seat: int) -> None:
            self._feed(Referee(action, {"seat": seat}))

        @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 40))
        def bots_play(self, seed: int, steps: int) -> None:
            """Stretches of real play reach the deep phases random taps rarely do."""
            bots = info.new_bots(seed, self.setup)
            for _ in range(steps):
                event = bots.next_event(self.session.state)
                if event is None:
                    return
                self._feed(event)

        @precondition(lambda self: self.session.events)
        @rule()
        def undo(self) -> None:
            states = self.session._states
            last = len(states) - 1
            while last > 0 and states[last] == states[last - 1]:
                last -= 1  # the undo passes over refused taps to the last accepted event
            expected = states[last - 1] if last else states[-1]
            self.session.feed(Referee("undo"))
            assert self.session.state == expected

        @invariant()
        def reports_are_plain_data(self) -> None:
            if hasattr(self, "session"):
                report = game.report(self.session.state)
                assert report["game"] == info.id and "phase" in report

    GameMachine.__name__ = f"{info.id}_machine"
    return GameMachine


@pytest.mark.parametrize("info", GAMES, ids=[info.id for info in GAMES])
def test_random_play_keeps_every_rule_of_every_game(info: GameInfo) -> None:
    machine = machine_for(info)
    machine.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=30, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.filter_too_much])
    machine.TestCase().runTest()
