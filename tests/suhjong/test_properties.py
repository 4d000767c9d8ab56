"""Random taps of any card or tag on any reader, referee actions, undo and stretches of bot play:
apply never raises nor changes its input, 50 cards stay accounted for, nothing private leaks."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from kikimimi.games.base import Referee, Scan
from kikimimi.games.session import Session
from kikimimi.games.suhjong.bots import SuhjongBots
from kikimimi.games.suhjong.engine import READERS, Suhjong
from kikimimi.games.suhjong.invariants import check, privacy_leaks
from kikimimi.games.suhjong.pieces import CARDS, CONTROLS

TAGS = st.sampled_from([*CARDS, *CONTROLS, None, "trident-1"])
REFEREE = st.sampled_from([Referee("end"), Referee("next"), Referee("undo"), Referee("nonsense")])


class SuhjongMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.session = Session(Suhjong(), {"rounds": 2, "discard_max": 2})
        self.problems: list[str] = []

    def _feed(self, event) -> None:
        before = self.session.state
        snapshot = before.copy()
        effects = self.session.feed(event)
        assert before == snapshot, "apply changed its input state"
        if not (isinstance(event, Referee) and event.action == "undo"):
            self.problems = check(before, event, effects, self.session.state) + privacy_leaks(
                before, event, effects, self.session.state)

    @rule(reader=st.sampled_from([*READERS, "hand:3", "table"]), tag=TAGS)
    def tap(self, reader, tag):
        self._feed(Scan(reader, tag))

    @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 60), kind=st.sampled_from(["bot", "random", "greedy"]))
    def play(self, seed, steps, kind):
        bots = SuhjongBots(seed, {1: kind, 2: "bot"})
        for _ in range(steps):
            event = bots.next_event(self.session.state)
            if event is None:
                return
            self._feed(event)
            assert not self.problems, self.problems

    @rule(action=REFEREE)
    def referee(self, action):
        self._feed(action)

    @invariant()
    def holds(self):
        assert not self.problems, self.problems


TestSuhjongMachine = SuhjongMachine.TestCase
TestSuhjongMachine.settings = settings(max_examples=40, stateful_step_count=40, deadline=None,
                                       suppress_health_check=[HealthCheck.too_slow])
