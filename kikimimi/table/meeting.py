"""Meetings on the live table: each game of a meeting is played on the table under competition rules."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping

from kikimimi.games.base import SPEAKER, Outcome, Say
from kikimimi.records.meeting import MeetingReport
from kikimimi.table.live import LiveTable

log = logging.getLogger(__name__)


def table_games(table: LiveTable, timeout: float | None = None) -> Callable[[Mapping[int, str]], tuple[Outcome, str]]:
    """A `play_one_game` for kikimimi.records.meeting.run_meeting: starts a competition game on the table and
    returns its outcome and journal game id when it ends (a game already under way is finished first)."""
    finished = threading.Event()
    result: dict[str, object] = {}

    def game_over(game_id: str, outcome: Outcome) -> None:
        result["outcome"], result["game_id"] = outcome, game_id
        finished.set()

    table.loop.on_game_over = game_over

    def play_one_game(seat_players: Mapping[int, str]) -> tuple[Outcome, str]:
        finished.clear()
        loop = table.loop
        if loop.journaled_events or loop.game.is_over(loop.state) or loop.session.setup.get("rules") != "competition":
            count = loop.processed
            loop.new_game(first=1, rules="competition")
            loop.wait_processed(count + 1)
        names = ", ".join(f"seat {seat}: {name}" for seat, name in sorted(seat_players.items()))
        log.info("game %s on the table (%s); deal when ready", loop.status.game_id, names)
        if not finished.wait(timeout):
            raise TimeoutError("the game on the table did not end in time")
        return result["outcome"], str(result["game_id"])  # type: ignore[return-value]

    return play_one_game


def report_phrases(report: MeetingReport) -> list[Say]:
    """The end of a meeting on the speaker: the standings, then every rank or peerage change."""
    says = [Say(SPEAKER, "meeting.over")]
    says += [Say(SPEAKER, "meeting.standing", {"place": s.position, "name": s.player, "count": s.wins})
             for s in report.standings]
    says += [Say(SPEAKER, f"meeting.{c.kind}", {"name": c.player, "title": c.after.lower()}) for c in report.changes]
    if not report.changes:
        says.append(Say(SPEAKER, "meeting.no_change"))
    return says
