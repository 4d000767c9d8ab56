"""What the Priest's console shows of the records: the current meeting's standings and each rank.

`meeting_view(store)` gathers it as plain data; `standings_table(view)` draws it with rich. The
console (kikimimi.console) embeds either.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table

from kikimimi.records.ladder import PlayerStatus
from kikimimi.records.standings import Standing, standings
from kikimimi.records.store import MeetingInfo, RecordStore


@dataclass(frozen=True)
class MeetingView:
    meeting: MeetingInfo
    standings: list[Standing]
    statuses: dict[str, PlayerStatus]  # by player name: the rank settled before this meeting ends

    def as_dict(self) -> dict[str, object]:
        m = self.meeting
        return {
            "meeting": {
                "id": m.id,
                "label": m.label,
                "kind": m.kind,
                "held_at": m.held_at,
                "status": m.status,
                "games_played": m.games_played,
                "games_due": m.games_due,
                "players": list(m.players),
                "winner": m.winner,
            },
            "standings": [
                {
                    **s.as_dict(),
                    "title": self.statuses[s.player].title,
                    "rank_wins": self.statuses[s.player].wins,
                }
                for s in self.standings
            ],
        }


def meeting_view(store: RecordStore, meeting_id: int | None = None) -> MeetingView | None:
    """The given meeting, else the current open one, else the latest; None when there are none."""
    if meeting_id is None:
        current = store.current_meeting()
        if current is None:
            every = store.meetings()
            current = every[-1] if every else None
        if current is None:
            return None
        meeting_id = current.id
    info = store.meeting(meeting_id)
    table = standings(store.games(meeting_id), info.players)
    return MeetingView(info, table, {n: store.status(n) for n in info.players})


def standings_table(view: MeetingView) -> Table:
    m = view.meeting
    due = f"/{m.games_due}" if m.games_due else ""
    table = Table(title=f"Meeting {m.id} ({m.kind}, {m.status}) — game {m.games_played}{due}")
    for column in ("#", "player", "title", "wins", "places", "crashes", "points", "ladder wins"):
        table.add_column(column, justify="left" if column in ("player", "title", "places") else "right")
    for s in view.standings:
        status = view.statuses[s.player]
        table.add_row(
            str(s.position),
            s.player,
            status.title,
            str(s.wins),
            " ".join(str(n) for n in s.places),
            str(s.crashes),
            str(s.points),
            str(status.wins),
        )
    return table


def players_table(statuses: list[PlayerStatus]) -> Table:
    table = Table(title="Players")
    for column in ("player", "title", "wins", "streaks", "crashes", "games", "meetings"):
        table.add_column(column, justify="left" if column in ("player", "title") else "right")
    for s in statuses:
        table.add_row(s.name, s.title, str(s.wins), str(s.streaks), str(s.crashes), str(s.games), str(s.meetings))
    return table
