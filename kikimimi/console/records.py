"""The records as the console shows them: the meeting's standings, and who sits where with what rank.

Players sit in the meeting's seat order (seat 1 is its first player, as `run_meeting` seats them).
A records file that does not exist yet is not created here: the console only reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from kikimimi.records.store import RecordStore, default_db_path, printable
from kikimimi.records.view import MeetingView, meeting_view, standings_table


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
        if self.view is None or not self.open:
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
        return Group(standings_table(self.view), lines)


def read_meeting(path: Path | None = None) -> MeetingPanel:
    """The open meeting (else the latest) from the records at `path` (default: the records' own)."""
    path = path or default_db_path()
    if not path.exists():
        return MeetingPanel(note=f"No records yet ({path}): no meeting to show.")
    try:
        with RecordStore(path) as store:
            view = meeting_view(store)
    except Exception as exc:  # a damaged records file must not stop the console
        return MeetingPanel(note=printable(f"Cannot read the records {path}: {exc}"), error=True)
    if view is None:
        return MeetingPanel(note=f"No meeting in the records ({path}).")
    return MeetingPanel(view, note="")
