"""The records as the console shows them: the meeting's standings, and who sits where with what rank.

Players sit in the meeting's seat order (seat 1 is its first player, as `run_meeting` seats them).
A meeting over several tables has no one seat order: its tables are shown instead (each table's
seats are on its own controller and on the venue page). A records file that does not exist yet is
not created here: the console only reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from kikimimi.records.location import is_url, records_target
from kikimimi.records.names import printable
from kikimimi.records.store import RecordStore, safe_url
from kikimimi.records.view import MeetingView, meeting_view, standings_table, tables_table


@dataclass(frozen=True)
class MeetingPanel:
    view: MeetingView | None = None
    note: str = "no records read yet"
    error: bool = False

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

    def renderable(self) -> RenderableType:
        if self.view is None:
            return Text(self.note, "red" if self.error else "dim")
        seats, titles = self.seats()
        lines = Text()
        for seat, name in seats.items():
            lines.append(f"Seat {seat}: {name} ({titles.get(name, '?')})\n")
        if not self.open:
            lines.append(f"No meeting is open; the latest is shown ({self.view.meeting.status}).\n", "dim")
        if self.view.meeting.tables > 1:
            return Group(standings_table(self.view), tables_table(self.view), lines)
        return Group(standings_table(self.view), lines)


def read_meeting(path: str | Path | None = None) -> MeetingPanel:
    """The open meeting (else the latest) from the records at `path`, a file or a database URL
    (default: as every records command: $KIKIMIMI_RECORDS_URL, else the data folder's file)."""
    target = records_target(path)
    where = safe_url(str(target)) if is_url(target) else str(target)
    if not is_url(target) and not Path(target).exists():
        return MeetingPanel(note=f"No records yet ({where}): no meeting to show.")
    try:
        with RecordStore(target) as store:
            view = meeting_view(store)
    except Exception as exc:  # a damaged records file or an unreachable server must not stop the console
        return MeetingPanel(note=printable(f"Cannot read the records {where}: {exc}"), error=True)
    if view is None:
        return MeetingPanel(note=f"No meeting in the records ({where}).")
    return MeetingPanel(view, note="")
