"""Random taps of any card, row tag or junk on any reader (spare seats included), referee actions, undo
and stretches of bot play: apply never raises, never changes its input, the 104 cards are always
accounted for, and nothing private reaches the speaker or another earphone."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from kikimimi.games.base import Referee, Scan
from kikimimi.games.nimmt.bots import random_bots, safest_bots
from kikimimi.games.nimmt.engine import Nimmt
from kikimimi.games.nimmt.invariants import check
from kikimimi.games.nimmt.pieces import CONTROLS, PIECES
from kikimimi.games.session import Session

TAGS = st.sampled_from([*PIECES, *CONTROLS, None, "ctl-pass", "card-0", "card-105", "row-5"])
READERS = st.sampled_from(["field", *(f"hand:{seat}" for seat in range(1, 12)), "table", "hand:x"])
REFEREE = st.sampled_from([Referee("end"), Referee("undo"), Referee("no-such-action"), Referee("move", {"x": 1})])


class NimmtMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.players = 3
        self.session = Session(Nimmt(), {"players": self.players, "target": 10})
        self.problems: list[str] = []

    def _feed(self, event) -> None:
        before = self.session.state
        snapshot = copy.deepcopy(before)
        effects = self.session.feed(event)
        assert before == snapshot, "apply() changed its input state"
        if not (isinstance(event, Referee) and event.action == "undo"):
            self.problems = check(before, event, effects, self.session.state)

    @rule(reader=READERS, tag=TAGS)
    def tap(self, reader, tag):
        self._feed(Scan(reader, tag))

    @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 120), careful=st.booleans())
    def bots_play(self, seed, steps, careful):
        """Realistic stretches of play reach the deep phases (take_row, later rounds) that random taps rarely do."""
        bots = (safest_bots if careful else random_bots)(seed, {"players": self.players})
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
    def invariants_hold(self):
        assert not self.problems, self.problems
        report = self.session.game.report(self.session.state)
        assert report["game"] == "nimmt" and report["phase"] in ("deal", "choose", "take_row", "over")


NimmtMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
TestNimmtProperties = NimmtMachine.TestCase
