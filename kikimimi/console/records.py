"""The records as the console shows them: the meeting's standings, and who sits where with what rank.

Players sit in the meeting's seat order (seat 1 is its first player, as `run_meeting` seats them).
A meeting over several tables has no one seat order: its tables are shown instead (each table's
seats are on its own controller and on the venue page). A records file that does not exist yet is
not created here: the console only reads.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kikimimi.console.words import Words, words
from kikimimi.games.registry import UnknownGame, get_info
from kikimimi.records.kinds import ladder
from kikimimi.records.location import is_url, records_target
from kikimimi.records.store import RecordStore, safe_url
from kikimimi.records.view import MeetingView, meeting_view
from kikimimi.shown import printable
from kikimimi.voice.catalog import catalog


def quiet_records_library() -> None:
    """Alembic's INFO notes (its plugins as it loads, "Context impl SQLiteImpl." each time the records' schema
    is checked) are not for the Priest's terminal, where the table logs its own INFO lines: warnings only."""
    logging.getLogger("alembic").setLevel(logging.WARNING)


@dataclass(frozen=True)
class MeetingPanel:
    view: MeetingView | None = None
    note: str = "meeting.not_read"  # a key of the console catalogs' [meeting]
    error: bool = False
    where: str = ""  # the records' file or (password-free) URL the note is about: data, shown as it is
    detail: str = ""  # what the records' library said when they could not be read: shown as it is

    @property
    def open(self) -> bool:
        return self.view is not None and self.view.meeting.status == "open"

    def seats(self) -> tuple[dict[int, str], dict[str, str]]:
        """(seat -> player, player -> title) while a meeting is open; empty otherwise. Names as shown:
        control characters escaped (`printable`), for screens only."""
        if self.view is None or not self.open or self.view.meeting.tables > 1:
            return {}, {}
        statuses = self.view.statuses
        names = dict(enumerate(self.view.meeting.players, start=1))
        players = {seat: printable(name) for seat, name in names.items()}
        titles = {printable(name): statuses[name].title for name in names.values() if name in statuses}
        return players, titles

    def renderable(self, said: Words | None = None, *, with_where: bool = True) -> RenderableType:
        """The meeting in `said`'s language (English by default): its standings (its tables when it is
        held over several), who sits where with what title; else the note of why there is none, followed
        by the records' place unless `with_where` is false (the page shows that apart, as data)."""
        said = said or words("en")
        if self.view is None:
            note = Text(said.say(self.note), "red" if self.error else "dim")
            if with_where and self.shown_where():
                note.append("\n" + self.shown_where(), "dim")
            return note
        seats, titles = self.seats()
        lines = Text()
        for seat, name in seats.items():
            title = titles.get(name)
            lines.append(said.say("meeting.seat_line", seat=seat, name=name,
                                  title=title_words(title, said.lang) if title else "?") + "\n")
        if not self.open:
            lines.append(said.say("meeting.latest", status=said.say(f"meeting.status.{self.view.meeting.status}"))
                         + "\n", "dim")
        if self.view.meeting.tables > 1:
            return Group(standings_table(self.view, said), tables_table(self.view, said), lines)
        return Group(standings_table(self.view, said), lines)

    def shown_where(self) -> str:
        """The file or URL and the library's words the note is about (not translated: data)."""
        return " ".join(part for part in (self.where, self.detail) if part)


def title_words(title: str, lang: str) -> str:
    """A ladder's title ("Wizard, Countess") in `lang`, word by word from the common phrase catalog's
    [values.title] (as the meeting's announcements say it); a word it lacks stays as written."""
    if lang == "en":
        return title
    known = catalog(lang).values.get("title", {})
    parts = [known.get(part.strip().lower(), (words(lang).get(f"meeting.title.{part.strip().lower()}",
                                                               part.strip()), ""))[0]
             for part in title.split(",")]
    return words(lang).say("list.comma").join(parts)


def _game_title(game: str, lang: str) -> str:
    try:
        return get_info(game).title(lang)
    except UnknownGame:
        return game


def standings_table(view: MeetingView, said: Words) -> Table:
    """The meeting's standings (as `kikimimi.records.view.standings_table`, in the console's language)."""
    m = view.meeting
    ranked = bool(view.statuses)
    rules = ladder(m.game)
    own = rules.standing_columns if rules is not None else ("score",)
    table = Table(title=said.say("meeting.heading", id=m.id, game=_game_title(m.game, said.lang),
                                 kind=said.say(f"meeting.kind.{m.kind}"),
                                 status=said.say(f"meeting.status.{m.status}"), played=m.games_played,
                                 due=f"/{m.games_due}" if m.games_due else ""))
    columns = ("position", "player", "title", "wins", "places", *own, "ladder_wins") if ranked else (
        "position", "player", "wins", "places", *own)
    for column in columns:
        table.add_column(said.say(f"meeting.column.{column}"),
                         justify="left" if column in ("player", "title", "places") else "right")
    for s in view.standings:
        figures: Mapping[str, Any] = s.figures or {"score": s.score}
        row: list[Any] = [str(s.position), Text(printable(s.player))]
        if ranked:
            row.append(Text(printable(title_words(view.statuses[s.player].title, said.lang))))
        row += [str(s.wins), " ".join(str(n) for n in s.places), *(str(figures.get(c, "")) for c in own)]
        if ranked:
            row.append(str(view.statuses[s.player].wins))
        table.add_row(*row)
    return table


def tables_table(view: MeetingView, said: Words) -> Table:
    """A meeting's tables: who sits where, games played, the controller and when it was last heard."""
    table = Table(title=said.say("meeting.tables_heading", id=view.meeting.id, tables=view.meeting.tables))
    for column in ("table", "seats", "games", "controller", "last_seen"):
        table.add_column(said.say(f"meeting.column.{column}"),
                         justify="right" if column in ("table", "games") else "left")
    for t in view.tables:
        seats = said.say("list.comma").join(said.say("meeting.seat_name", seat=seat, name=name)
                                            for seat, name in t.seat_players.items())
        due = f"/{t.games_due}" if t.games_due else ""
        table.add_row(str(t.table), Text(printable(seats)), f"{t.games_played}{due}",
                      Text(printable(t.controller or said.say("meeting.not_joined"))), t.last_seen or "-")
    return table


def read_meeting(path: str | Path | None = None) -> MeetingPanel:
    """The open meeting (else the latest) from the records at `path`, a file or a database URL
    (default: as every records command: $KIKIMIMI_RECORDS_URL, else the data folder's file)."""
    quiet_records_library()
    target = records_target(path)
    where = safe_url(str(target)) if is_url(target) else str(target)
    if not is_url(target) and not Path(target).exists():
        return MeetingPanel(note="meeting.no_records", where=where)
    try:
        with RecordStore(target) as store:
            view = meeting_view(store)
    except Exception as exc:  # a damaged records file or an unreachable server must not stop the console
        return MeetingPanel(note="meeting.unreadable", error=True, where=where, detail=printable(str(exc)))
    if view is None:
        return MeetingPanel(note="meeting.no_meeting", where=where)
    return MeetingPanel(view, note="", where=where)
