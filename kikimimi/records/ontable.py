"""Meetings on the live table: each game of a meeting is played on the table, through its public API.

The records drive the table (the table never imports the records): `table_games` starts each game
of the meeting's game with the set-up its ladder asks for (`Ladder.meeting_setup`), and
`report_phrases` is what the speaker says when the meeting ends, given to `table.loop.announce` so
that the table's loop speaks it in order with everything else.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.games.base import SPEAKER, Outcome, Say
from kikimimi.games.registry import DEFAULT_GAME
from kikimimi.records.kinds import ladder
from kikimimi.records.meeting import MeetingReport

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore

log = logging.getLogger(__name__)


def meeting_setup(game: str) -> dict[str, Any]:
    """The set-up a meeting's games are played with: the game's id and its ladder's `meeting_setup`."""
    rules = ladder(game)
    return {"game": game, **(rules.meeting_setup if rules is not None else {})}


def table_games(
    table: Any, timeout: float | None = None, game: str = DEFAULT_GAME, *, continue_under_way: bool = False
) -> Callable[[Mapping[int, str]], tuple[Outcome, str]]:
    """A `play_one_game` for kikimimi.records.meeting.run_meeting: starts a game of `game` on the table
    (a `LiveTable`) and returns its outcome and journal game id when it ends.

    `continue_under_way` (a meeting resumed after the table stopped mid-game): the first game is the one
    the journal resumed, played on to its end, when it is of the meeting's game and set-up. Otherwise a
    game already under way is not the meeting's and a fresh one is started (it stays in the journal)."""
    finished = threading.Event()
    result: dict[str, object] = {}
    setup = meeting_setup(game)

    def game_over(game_id: str, outcome: Outcome) -> None:
        result["outcome"], result["game_id"] = outcome, game_id
        finished.set()

    table.loop.on_game_over = game_over

    def meetings_kind(loop: Any) -> bool:
        """The table holds an unfinished game of the meeting's game with the meeting's set-up."""
        if loop.game.is_over(loop.state) or loop.info.id != game:
            return False
        return all(loop.session.setup.get(key) == value for key, value in setup.items() if key != "game")

    resume_first = [continue_under_way]

    def play_one_game(seat_players: Mapping[int, str]) -> tuple[Outcome, str]:
        finished.clear()
        loop = table.loop
        resume = resume_first.pop() if resume_first else False
        if resume and loop.journaled_events and meetings_kind(loop):
            log.info("game %s resumed from the journal: played on to its end", loop.status.game_id)
        elif loop.journaled_events or not meetings_kind(loop):
            count = loop.processed
            loop.new_game(setup)
            loop.wait_processed(count + 1)
        names = ", ".join(f"seat {seat}: {name}" for seat, name in sorted(seat_players.items()))
        log.info("game %s of %s on the table (%s); deal when ready", loop.status.game_id, game, names)
        if not finished.wait(timeout):
            raise TimeoutError("the game on the table did not end in time")
        # The listener thread fills `result` with the Outcome it was given; the dict is typed as its JSON.
        return result["outcome"], str(result["game_id"])  # type: ignore[return-value]

    return play_one_game


def abandon_on_table(journal_path: Path, store: RecordStore, meeting_id: int) -> str | None:
    """The meeting's game left unfinished in the table's journal (the meeting was stopped mid-game, then
    abandoned), finished there as abandoned, so that a later casual `play` does not resume it with the
    meeting's rules. A game is the meeting's when it is of the meeting's game and set-up and the journal began
    it after every game another meeting recorded from this journal: by the journal's numbers, never by the
    clock (a Pi without a real-time clock may have been set back or forward between the meeting's opening and
    its game). Returns its journal game id, or None when there is none. TableRunning (a JournalError) when the
    table runs: its game is the running table's business."""
    from kikimimi.table.journal import Journal
    from kikimimi.table.live import hold_table

    if not journal_path.exists():
        return None
    game = store.meetings.get(meeting_id).game
    others = {
        g.journal_game_id
        for m in store.meetings.all()
        if m.id != meeting_id
        for g in store.games.in_meeting(m.id)
    }
    lock = hold_table(journal_path, "kikimimi meeting abandon")
    try:
        journal = Journal(journal_path)
        try:
            record = journal.unfinished()
            setup = meeting_setup(game)
            if record is None or record.game != game \
                    or any(record.setup.get(key) != value for key, value in setup.items() if key != "game"):
                return None
            earlier = [g.number for g in journal.games() if g.id in others]
            if earlier and record.number < max(earlier):
                return None  # begun before another meeting's recorded game: not this meeting's
            journal.finish(record.id, None)  # no outcome: abandoned, as the table's own new_game leaves one
            return record.id
        finally:
            journal.close()
    finally:
        if lock is not None:
            lock.release()


def report_phrases(report: MeetingReport) -> list[Say]:
    """The end of a meeting on the speaker: the standings, then every rank or peerage change."""
    says = [Say(SPEAKER, "meeting.over")]
    says += [Say(SPEAKER, "meeting.standing", {"place": s.position, "name": s.player, "count": s.wins})
             for s in report.standings]
    says += [Say(SPEAKER, f"meeting.{c.kind}", {"name": c.player, "title": c.after.lower()}) for c in report.changes]
    if report.statuses and not report.changes:  # a game with a ladder: say that no rank changed
        says.append(Say(SPEAKER, "meeting.no_change"))
    return says
