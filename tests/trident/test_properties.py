"""Random taps of any piece or control on any reader, referee actions and undo: never a raise, and the
invariants (54 pieces accounted for, nothing private on the speaker or another seat) always hold."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from kikimimi.games.base import Referee, Scan
from kikimimi.games.session import Session
from kikimimi.games.trident.bots import BotTable
from kikimimi.games.trident.engine import READERS, Trident
from kikimimi.games.trident.invariants import check
from kikimimi.games.trident.pieces import CONTROLS, PIECES

TAGS = st.sampled_from([*sorted(PIECES), *CONTROLS, None])
REFEREE = st.one_of(
    st.just(Referee("forgot")),
    st.just(Referee("end")),
    st.builds(lambda seat: Referee("penalty", {"seat": seat}), st.integers(0, 4)),
    st.builds(lambda p, to: Referee("move", {"piece": p, "to": to}),
              st.sampled_from(sorted(PIECES)), st.sampled_from(["hand:1", "hand:2", "hand:3", "basket", "x"])),
    st.just(Referee("no-such-action")),
)


class TridentMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.session = Session(Trident())
        self.last_problems: list[str] = []

    def _feed(self, event) -> None:
        before = self.session.state.copy()
        previous = self.session.state
        effects = self.session.feed(event)
        assert previous == before, "apply() changed its input state"
        self.last_problems = check(self.session.state, event, effects)

    @rule(reader=st.sampled_from(READERS), tag=TAGS)
    def tap(self, reader, tag):
        self._feed(Scan(reader, tag))

    @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 40))
    def bots_play(self, seed, steps):
        """Realistic stretches of play reach the deep phases that random taps rarely do."""
        bots = BotTable(seed)
        for _ in range(steps):
            event = bots.next_event(self.session.state)
            if event is None:
                return
            self._feed(event)
            assert not self.last_problems, self.last_problems

    @rule(action=REFEREE)
    def referee(self, action):
        self._feed(action)

    @precondition(lambda self: self.session.events)
    @rule()
    def undo(self):
        # The undo takes back the last event that changed the game (refused taps after it go with it).
        states = self.session._states
        last = len(states) - 1
        while last > 0 and states[last] == states[last - 1]:
            last -= 1
        expected = states[max(last - 1, 0)] if last else states[-1]
        self.session.feed(Referee("undo"))
        assert self.session.state == expected

    @rule(reader=st.sampled_from(["hand:4", "table", ""]), tag=TAGS)
    def unknown_reader(self, reader, tag):
        self._feed(Scan(reader, tag))

    @invariant()
    def invariants_hold(self):
        assert not self.last_problems, self.last_problems
        assert not check(self.session.state, Referee("none"), []), "state invariants"


TridentMachine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_trident_state_machine = TridentMachine.TestCase
