"""Meetings: opened for their players (dealt over tables), read, settled or abandoned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from kikimimi.games.registry import DEFAULT_GAME, GameInfo, UnknownGame, get_info
from kikimimi.records.kinds import MEETING_KINDS, ladder
from kikimimi.records.model import MeetingInfo, now, table_sizes
from kikimimi.records.names import RecordError, check_name, name_key
from kikimimi.records.queries import played_by_table, read_meeting
from kikimimi.records.schema import meeting_players as MP
from kikimimi.records.schema import meeting_tables as MT
from kikimimi.records.schema import meetings as M
from kikimimi.records.standings import standings

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore


def checked_meeting(kind: str, players: Sequence[str], game: str, tables: int) -> tuple[GameInfo, list[str], list[int]]:
    """A new meeting's kind, game, players and tables checked, before the records are asked anything: the
    game, the players' names and each table's size; RecordError saying what is wrong."""
    if kind not in MEETING_KINDS:
        raise RecordError(f"meeting kind must be one of {', '.join(MEETING_KINDS)}, not {kind!r}")
    try:
        info = get_info(game)
    except UnknownGame as exc:
        raise RecordError(str(exc)) from None
    names = [check_name(n) for n in players]
    if len(names) < 2:
        raise RecordError(f"a meeting needs at least 2 players, got {len(names)}")
    if tables < 1:
        raise RecordError(f"a meeting needs at least one table, not {tables}")
    fewest, most = info.seats
    seats = str(fewest) if fewest == most else f"{fewest} to {most}"
    sizes = table_sizes(len(names), tables)
    if tables == 1 and not fewest <= len(names) <= most:
        raise RecordError(f"{info.id} is played by {seats} players, not {len(names)}")
    misfit = next((n for n in (sizes[-1], sizes[0]) if not fewest <= n <= most), None)
    if misfit is not None:
        raise RecordError(
            f"{len(names)} players at {tables} tables leaves tables of {misfit}; {info.id} seats {seats}"
        )
    if len({name_key(n) for n in names}) != len(names):
        raise RecordError(f"a player is listed twice in {names}")
    return info, names, sizes


class MeetingRepository:
    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def start(
        self,
        kind: str,
        players: Sequence[str],
        *,
        game: str = DEFAULT_GAME,
        label: str | None = None,
        held_at: str | None = None,
        add_unknown: bool = False,
        tables: int = 1,
    ) -> int:
        """Open a meeting of `kind` (full, half, contest) of `game` for `players`; returns its id.

        At one table the players sit in the order given (seat 1 first). Over several tables they are
        ordered by the game's seat-choice order (its ladder's `seat_order`; the order given for a game
        without a ladder) and dealt table by table: the first ones fill table 1, the next table 2, ...
        """
        info, names, sizes = checked_meeting(kind, players, game, tables)
        club = self._store.players
        unknown = [n for n in names if club.find(n) is None]
        if unknown and not add_unknown:
            raise RecordError(
                f"unknown player(s) {', '.join(unknown)}: add them first with `kikimimi players add NAME`"
            )
        for name in unknown:
            club.add(name)
        if label is not None and self._id_by_label(label) is not None:
            raise RecordError(f"a meeting labelled {label!r} already exists")
        if tables > 1:
            names = self.seat_choice_order(names, info.id)
        ids = [club.get(n).id for n in names]
        names = [club.get(n).name for n in names]  # as the club's list spells them
        placing = [(t, seat) for t, size in enumerate(sizes, start=1) for seat in range(1, size + 1)]
        with self._store.writing() as conn:
            meeting_id = int(conn.execute(
                M.insert().values(label=label, kind=kind, held_at=held_at or now(), game=info.id, tables=tables,
                                  status="open").returning(M.c.id)
            ).scalar_one())
            conn.execute(MP.insert(), [
                {"meeting_id": meeting_id, "player_id": pid, "position": i, "table_no": t, "seat": seat}
                for i, (pid, (t, seat)) in enumerate(zip(ids, placing, strict=True))
            ])
            conn.execute(MT.insert(), [
                {"meeting_id": meeting_id, "table_no": t, "state": "{}"} for t in range(1, tables + 1)
            ])
        return meeting_id

    def seat_choice_order(self, names: Sequence[str], game: str) -> list[str]:
        """The players in the order they choose seats by the game's ladder (as given without one)."""
        rules = ladder(game)
        canonical = [self._store.players.get(n).name for n in names]
        if rules is None:
            return canonical
        statuses = self._store.ladder.by_name(game, canonical)
        return list(rules.seat_order([statuses[n] for n in canonical]))

    def _id_by_label(self, label: str) -> int | None:
        with self._store.reading() as conn:
            found = conn.execute(sa.select(M.c.id).where(M.c.label == label)).scalar()
        return int(found) if found is not None else None

    def labels(self) -> set[str]:
        """Every meeting's label (one read, for `records import`'s thousands of sheets)."""
        with self._store.reading() as conn:
            return {label for label in conn.execute(sa.select(M.c.label).where(M.c.label.is_not(None))).scalars()}

    def by_label(self, label: str) -> MeetingInfo | None:
        found = self._id_by_label(label)
        return self.get(found) if found is not None else None

    def get(self, meeting_id: int) -> MeetingInfo:
        with self._store.reading() as conn:
            return read_meeting(conn, meeting_id)

    def all(self, status: str | None = None) -> list[MeetingInfo]:
        """Every meeting (of that status), in the order held."""
        query = sa.select(M.c.id).order_by(M.c.held_at, M.c.id)
        if status:
            query = query.where(M.c.status == status)
        with self._store.reading() as conn:
            ids = list(conn.execute(query).scalars())
        return [self.get(i) for i in ids]

    def current(self) -> MeetingInfo | None:
        """The latest open meeting (what the console shows), None when none is open."""
        opened = self.all("open")
        return opened[-1] if opened else None

    def get_open(self, meeting_id: int) -> MeetingInfo:
        """An open meeting; RecordError when it is finished or abandoned (its games cannot change)."""
        info = self.get(meeting_id)
        if info.status != "open":
            raise RecordError(f"{info.describe()} is {info.status}; its games cannot change")
        return info

    def contest_winner(self, meeting_id: int) -> str:
        """The contest's winner by its standings; refuses a tie at the top (name the winner instead)."""
        info = self.get(meeting_id)
        table = standings(self._store.games.in_meeting(meeting_id), info.players, ladder(info.game))
        top = [s.player for s in table if s.position == 1]
        if not table or table[0].games == 0:
            raise RecordError(f"{info.describe()} has no games; name its winner (--winner NAME)")
        if len(top) > 1:
            raise RecordError(
                f"{info.describe()}: {', '.join(top)} are level at the top of its standings; "
                "name the winner (--winner NAME)"
            )
        return top[0]

    def finish(self, meeting_id: int, *, contest_winner: str | None = None) -> list[Any]:
        """Close an open meeting and settle it; returns every rank and peerage change it brought (the
        ladder's `Change`s; none for a game without a ladder)."""
        self.settle(meeting_id, contest_winner=contest_winner)
        return self._store.ladder.changes(meeting_id)

    def settle(self, meeting_id: int, *, contest_winner: str | None = None) -> None:
        """Close an open meeting and settle it, without deriving its changes (`ladder.changes_many` derives
        those of many meetings at once: `records import`).

        A trial must have all its games (10 or 5) at every table. A contest's winner is
        `contest_winner`, else the unique top of its standings over all its tables.
        """
        info = self.get_open(meeting_id)
        winner_id = None
        if info.games_due is not None:
            with self._store.reading() as conn:
                played = played_by_table(conn, meeting_id)
            short = [t for t in range(1, info.tables + 1) if played.get(t, 0) != info.games_due]
            if short and info.tables > 1:
                raise RecordError(
                    f"{info.describe()} is not complete: table(s) {', '.join(map(str, short))} have not played "
                    f"their {info.games_due} games; play them or abandon the meeting "
                    f"(`kikimimi meeting abandon {meeting_id}`: abandoned meetings do not count)"
                )
            if short:
                raise RecordError(
                    f"{info.describe()} is not complete; play its remaining games or abandon it "
                    f"(`kikimimi meeting abandon {meeting_id}`: abandoned meetings do not count)"
                )
            if contest_winner is not None:
                raise RecordError(f"{info.describe()} is a trial; only a contest has a winner")
        else:
            name = contest_winner if contest_winner is not None else self.contest_winner(meeting_id)
            if name_key(name) not in {name_key(n) for n in info.players}:
                raise RecordError(
                    f"{name!r} did not play in {info.describe()}; the winner must be one of {', '.join(info.players)}"
                )
            winner_id = self._store.players.get(name).id
        with self._store.writing() as conn:
            changed = conn.execute(
                M.update().where(M.c.id == meeting_id, M.c.status == "open")
                .values(status="finished", finished_at=now(), winner_id=winner_id)
            ).rowcount
            if changed:  # its games can no longer change: summarize them with the finish, or neither
                self._store.summaries.write(conn, [meeting_id])
        if not changed:
            raise RecordError(f"meeting {meeting_id} was closed by someone else meanwhile")

    def abandon(self, meeting_id: int) -> None:
        """Keep an unfinished meeting's games but never count them."""
        self.get_open(meeting_id)
        with self._store.writing() as conn:
            conn.execute(M.update().where(M.c.id == meeting_id).values(status="abandoned", finished_at=now()))
