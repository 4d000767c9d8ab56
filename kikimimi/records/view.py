"""What the Priest's console shows of the records: the current meeting's standings and each rank.

`meeting_view(store)` gathers it as plain data; `standings_table(view)` draws it with rich. The
console (kikimimi.console) embeds either. Names are data: every name and title goes into the tables
as rich `Text`, never as markup (a name may hold `[`), its control characters escaped (`printable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kikimimi.games.ladder import AnyLadder
from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, get_info
from kikimimi.records.kinds import ladder
from kikimimi.records.standings import Standing, standings
from kikimimi.records.store import MeetingInfo, RecordStore, TableInfo, printable


@dataclass(frozen=True)
class MeetingView:
    meeting: MeetingInfo
    standings: list[Standing]
    statuses: dict[str, Any]  # by player name: the ladder's rank settled before this meeting ends
    #   (the ladder's PlayerStatus; empty for a game without a ladder)
    tables: tuple[TableInfo, ...] = ()

    def as_dict(self) -> dict[str, object]:
        m = self.meeting
        return {
            "meeting": {
                "id": m.id,
                "label": m.label,
                "kind": m.kind,
                "game": m.game,
                "held_at": m.held_at,
                "status": m.status,
                "games_played": m.games_played,
                "games_due": m.games_due,
                "players": list(m.players),
                "winner": m.winner,
                "tables": m.tables,
            },
            "tables": [
                {
                    "table": t.table,
                    "players": list(t.players),
                    "games_played": t.games_played,
                    "games_due": t.games_due,
                    "controller": t.controller,
                    "joined_at": t.joined_at,
                    "last_seen": t.last_seen,
                    "state": t.state,
                }
                for t in self.tables
            ],
            "standings": [
                {
                    **s.as_dict(),
                    **(
                        {"title": self.statuses[s.player].title, "rank_wins": self.statuses[s.player].wins}
                        if s.player in self.statuses
                        else {}
                    ),
                }
                for s in self.standings
            ],
        }


def meeting_view(store: RecordStore, meeting_id: int | None = None) -> MeetingView | None:
    """The given meeting, else the current open one, else the latest; None when there are none."""
    if meeting_id is None:
        current = store.meetings.current()
        if current is None:
            every = store.meetings.all()
            current = every[-1] if every else None
        if current is None:
            return None
        meeting_id = current.id
    info = store.meetings.get(meeting_id)
    rules = ladder(info.game)
    table = standings(store.games.in_meeting(meeting_id), info.players, rules)
    statuses = {n: store.ladder.status(n, info.game) for n in info.players} if rules is not None else {}
    return MeetingView(info, table, statuses, tuple(store.tables.all(meeting_id)))


def game_title(game: str) -> str:
    try:
        return get_info(game).title("en")
    except UnknownGame:
        return game


def standings_table(view: MeetingView) -> Table:
    m = view.meeting
    due = f"/{m.games_due}" if m.games_due else ""
    ranked = bool(view.statuses)
    own = _figure_columns(view)
    game = "" if m.game == DEFAULT_GAME else f"{game_title(m.game)}, "
    table = Table(title=escape(printable(f"Meeting {m.id} ({game}{m.kind}, {m.status}) — game {m.games_played}{due}")))
    columns = ("#", "player", "title", "wins", "places", *own, "ladder wins") if ranked else (
        "#", "player", "wins", "places", *own)
    for column in columns:
        table.add_column(column, justify="left" if column in ("player", "title", "places") else "right")
    for s in view.standings:
        places = " ".join(str(n) for n in s.places)
        if ranked:
            status = view.statuses[s.player]
            table.add_row(str(s.position), Text(printable(s.player)), Text(printable(status.title)), str(s.wins),
                          places, *_figures(s, own), str(status.wins))
        else:
            table.add_row(str(s.position), Text(printable(s.player)), str(s.wins), places, *_figures(s, own))
    return table


def _figure_columns(view: MeetingView) -> tuple[str, ...]:
    """The standings' own columns: the game's ladder's (`standing_columns`), else the score."""
    rules = ladder(view.meeting.game)
    return rules.standing_columns if rules is not None else ("score",)


def _figures(standing: Standing, columns: Sequence[str]) -> list[str]:
    figures = standing.figures or {"score": standing.score}
    return [str(figures.get(column, "")) for column in columns]


def players_table(statuses: Sequence[Any], title: str = "Players", rules: AnyLadder | None = None) -> Table:
    """Every player's standing on a ladder (the ladder's statuses, their figures as `rules` gives them)."""
    table = Table(title=escape(printable(title)))
    rows = [(s, rules.status_figures(s) if rules is not None else {}) for s in statuses]
    figure_columns = list(rows[0][1]) if rows else []
    for column in ("player", "title", *figure_columns):
        table.add_column(column, justify="left" if column in ("player", "title") else "right")
    for s, figures in rows:
        table.add_row(Text(printable(s.name)), Text(printable(s.title)), *(str(figures[c]) for c in figure_columns))
    return table


STANDINGS_CSV_COLUMNS = ("meeting", "position", "player", "table", "games", "wins")  # then the game's own


def _sheet_cell(value: object) -> str:
    """A cell a spreadsheet shows as text: a name starting with = + - @ would be read as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def standings_csv(view: MeetingView) -> str:
    """A meeting's standings as CSV for a spreadsheet: a header row, then one row a player, best first."""
    import csv
    import io

    table_of = {name: t.table for t in view.tables for name in t.players}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    own = _figure_columns(view)
    writer.writerow((*STANDINGS_CSV_COLUMNS, *own, "places", "title"))
    label = view.meeting.label or str(view.meeting.id)
    for s in view.standings:
        status = view.statuses.get(s.player)
        writer.writerow([_sheet_cell(v) for v in (
            label, s.position, s.player, table_of.get(s.player, 1), s.games, s.wins, *_figures(s, own),
            " ".join(str(n) for n in s.places), status.title if status is not None else "")])
    return out.getvalue()


def tables_table(view: MeetingView) -> Table:
    """A meeting's tables: who sits where, games played, the controller and when it was last heard."""
    table = Table(title=f"Meeting {view.meeting.id}: {view.meeting.tables} tables")
    for column in ("table", "seats", "games", "controller", "last seen"):
        table.add_column(column, justify="right" if column in ("table", "games") else "left")
    for t in view.tables:
        seats = ", ".join(f"{seat} {name}" for seat, name in t.seat_players.items())
        due = f"/{t.games_due}" if t.games_due else ""
        table.add_row(str(t.table), Text(printable(seats)), f"{t.games_played}{due}",
                      Text(printable(t.controller or "not joined")), t.last_seen or "-")
    return table
