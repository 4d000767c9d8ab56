"""Many finished meetings added at once (`records import`): checked in Python first, then written with a
few statements for all of them and summarized once, instead of each meeting opened, recorded and
settled on its own (about 30 statements a meeting)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from kikimimi.records.kinds import ladder
from kikimimi.records.model import FinishedMeeting, MeetingInfo, now
from kikimimi.records.names import RecordError, name_key
from kikimimi.records.repos.games import Prepared, prepare_game
from kikimimi.records.repos.meetings import checked_meeting
from kikimimi.records.results import GameRecord
from kikimimi.records.schema import games as G
from kikimimi.records.schema import meeting_players as MP
from kikimimi.records.schema import meeting_tables as MT
from kikimimi.records.schema import meetings as M
from kikimimi.records.schema import results as R
from kikimimi.records.standings import standings

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore


class _Ready(NamedTuple):
    meeting: FinishedMeeting
    seated: list[tuple[int, str]]  # (player id, name) in seat order
    games: list[Prepared]
    winner_id: int | None


def add_finished(store: RecordStore, meetings: Sequence[FinishedMeeting]) -> list[int]:
    """Add the meetings, each finished and settled, in the store's current transaction; returns their ids in
    order. The rows are those `meetings.start`, `games.record_many` and `meetings.settle` would write, one
    meeting after another. Raises RecordError at the first meeting one of them would refuse, before writing
    any meeting (players it adds stay until the caller undoes them): the caller then takes the meetings one
    by one, which says what each refusal is."""
    club = store.players
    labels = store.meetings.labels()
    ready: list[_Ready] = []
    for meeting in meetings:
        info, names, _ = checked_meeting(meeting.kind, meeting.players, meeting.game, 1)
        if meeting.label is not None and meeting.label in labels:
            raise RecordError(f"a meeting labelled {meeting.label!r} already exists")
        for name in names:
            if club.find(name) is None:
                club.add(name)
        seated = [(club.get(n).id, club.get(n).name) for n in names]
        shown = MeetingInfo(0, meeting.label, meeting.kind, meeting.held_at, "open", None,
                            tuple(name for _, name in seated), 0, None, info.id, 1)
        games = [prepare_game(shown, item, {1: seated}, {}) for item in meeting.games]
        due = shown.games_due
        winner_id = None
        if due is not None:
            if len(games) != due:
                raise RecordError(f"{shown.describe()} has {len(games)} games, not its {due}")
            if meeting.winner is not None:
                raise RecordError(f"{shown.describe()} is a trial; only a contest has a winner")
        else:
            winner = meeting.winner if meeting.winner is not None else _standings_top(shown, meeting)
            ids = {name_key(name): pid for pid, name in seated}
            if name_key(winner) not in ids:
                raise RecordError(f"{winner!r} did not play in {shown.describe()}")
            winner_id = ids[name_key(winner)]
        ready.append(_Ready(meeting, seated, games, winner_id))
    if not ready:
        return []
    stamp = now()
    with store.writing() as conn:
        meeting_ids = [int(i) for i in conn.execute(
            M.insert().returning(M.c.id, sort_by_parameter_order=True),
            [{"label": r.meeting.label, "kind": r.meeting.kind, "held_at": r.meeting.held_at or stamp,
              "game": r.meeting.game, "tables": 1, "status": "finished", "finished_at": stamp,
              "winner_id": r.winner_id} for r in ready]).scalars()]
        seats: list[dict[str, Any]] = []
        tables: list[dict[str, Any]] = []
        game_rows: list[dict[str, Any]] = []
        results: list[list[dict[str, Any]]] = []
        for meeting_id, r in zip(meeting_ids, ready, strict=True):
            seats += [{"meeting_id": meeting_id, "player_id": pid, "position": i, "table_no": 1, "seat": i + 1}
                      for i, (pid, _) in enumerate(r.seated)]
            tables.append({"meeting_id": meeting_id, "table_no": 1, "state": "{}"})
            for number, (table, game, rows) in enumerate(r.games, start=1):
                game_rows.append({"meeting_id": meeting_id, "number": number, "table_no": table, "round": number,
                                  "recorded_at": stamp, **game})
                results.append(rows)
        conn.execute(MP.insert(), seats)
        conn.execute(MT.insert(), tables)
        game_ids = conn.execute(G.insert().returning(G.c.id, sort_by_parameter_order=True), game_rows).scalars().all()
        conn.execute(R.insert(), [{"game_id": gid, **row} for gid, rows in zip(game_ids, results, strict=True)
                                  for row in rows])
        store.summaries.write(conn, meeting_ids)
    return meeting_ids


def _standings_top(info: MeetingInfo, meeting: FinishedMeeting) -> str:
    """A contest's winner as `meetings.contest_winner` finds it once its games are recorded."""
    spelled = {name_key(name): name for name in info.players}
    played = [GameRecord(number, tuple(sorted((dataclasses.replace(r, player=spelled[name_key(r.player)])
                                               for r in item.results), key=lambda r: r.place)),
                         item.journal_game_id, item.reason, info.game, dict(item.details or {}))
              for number, item in enumerate(meeting.games, start=1)]
    table = standings(played, info.players, ladder(info.game))
    top = [s.player for s in table if s.position == 1]
    if not table or table[0].games == 0 or len(top) > 1:
        raise RecordError(f"{info.describe()}: no single winner at the top of its standings")
    return top[0]
