"""A meeting's games and their results: recorded from a table's outcome or a paper sheet (one game, or a
host's batch in one transaction), read back for the standings."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from kikimimi.games.base import Outcome
from kikimimi.games.registry import DEFAULT_GAME
from kikimimi.records.kinds import ladder
from kikimimi.records.model import GameItem, MeetingInfo, Recorded, now, stored_json, stored_result
from kikimimi.records.names import RecordError, check_name, name_key
from kikimimi.records.queries import FEW, played_by_table, read_meeting, seated
from kikimimi.records.results import (
    GameRecord,
    PlayerResult,
    ResultError,
    check_results,
    game_details,
    results_from_outcome,
)
from kikimimi.records.schema import games as G
from kikimimi.records.schema import meetings as M
from kikimimi.records.schema import players as P
from kikimimi.records.schema import results as R

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore

log = logging.getLogger("kikimimi.records.store")

# One game checked and ready to insert: (table, game row, result rows).
Prepared = tuple[int, dict[str, Any], list[dict[str, Any]]]


class GameRepository:
    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def record_outcome(
        self,
        meeting_id: int,
        seat_players: Mapping[int, str],
        outcome: Outcome,
        journal_game_id: str | None = None,
        table: int | None = None,
    ) -> None:
        """Record a finished game of an open meeting from the table's `Outcome` (of the meeting's game)."""
        rules = ladder(self._store.meetings.get(meeting_id).game)
        try:
            results = results_from_outcome({s: check_name(n) for s, n in seat_players.items()}, outcome, rules)
        except ResultError as exc:
            raise RecordError(f"meeting {meeting_id}: {exc}") from None
        self.record(meeting_id, results, journal_game_id=journal_game_id, reason=outcome.reason,
                    details=game_details(outcome, rules), table=table)

    def record(
        self,
        meeting_id: int,
        results: Sequence[PlayerResult],
        *,
        journal_game_id: str | None = None,
        reason: str = "",
        details: Mapping[str, Any] | None = None,
        table: int | None = None,
    ) -> int:
        """Record one game's results (a paper sheet line or a table outcome); returns its number in
        the meeting (the order games arrived in, over all its tables).

        `table` is where it was played (None: the only table of a one-table meeting); the results'
        players must be that table's. The same journal game recorded again (a controller replaying its
        journal or outbox after a restart or a lost connection) is not a new game: its number is
        returned and nothing is written, also when two reports of it arrive at once.
        """
        found = self.record_many(meeting_id, [GameItem(results, journal_game_id, reason, details, table)])[0]
        if isinstance(found, RecordError):
            raise found
        return found.number

    def record_many(self, meeting_id: int, items: Sequence[GameItem]) -> list[Recorded | RecordError]:
        """Record several games of one meeting in one transaction (a host's group commit: one lock of
        the meeting and one commit for every result waiting); returns, for each item in order, what
        `record` would have: the game's number and round (`duplicate` when its journal game
        was recorded before, or earlier in `items`), or the RecordError refusing it.

        Each game is checked on its own and inserted under a savepoint, so a refused game is refused
        alone: the others are recorded. Nothing is committed when the database itself fails (then
        this raises, and no game of the batch is recorded)."""
        if not items:
            return []
        journal_ids = sorted({i.journal_game_id for i in items if i.journal_game_id is not None})
        try:
            with self._store.reading() as conn:
                info = read_meeting(conn, meeting_id)
                players = seated(conn, meeting_id)
                played = played_by_table(conn, meeting_id)
        except RecordError as exc:
            return [exc for _ in items]
        # Checked before taking the meeting: a game that does not read is refused alone, and the lock
        # is held only for numbering and inserting.
        prepared: list[Prepared | RecordError] = []
        for item in items:
            try:
                prepared.append(prepare_game(info, item, players, played))
            except RecordError as exc:
                prepared.append(exc)
        with self._store.writing() as conn:
            status = conn.execute(
                sa.select(M.c.status).where(M.c.id == meeting_id).with_for_update()
            ).scalar_one()
            # What is true now that the meeting is ours: the numbers, each table's rounds, the games
            # already recorded (another writer may have recorded some while we checked).
            number = int(conn.execute(
                sa.select(sa.func.coalesce(sa.func.max(G.c.number), 0)).where(G.c.meeting_id == meeting_id)
            ).scalar_one())
            played = played_by_table(conn, meeting_id)
            known: dict[str, Recorded] = {}
            for start in range(0, len(journal_ids), FEW):
                for jid, num, rnd in conn.execute(
                    sa.select(G.c.journal_game_id, G.c.number, G.c.round)
                    .where(G.c.meeting_id == meeting_id, G.c.journal_game_id.in_(journal_ids[start:start + FEW]))
                ):
                    known[jid] = Recorded(int(num), int(rnd or 0), True)
            batch = _Batch(info, status, number, played, known)
            try:
                with conn.begin_nested():  # the whole batch in a few statements
                    return batch.insert(conn, items, prepared, each=False)
            except (sa.exc.IntegrityError, sa.exc.DataError):
                pass  # the database refused one of them: each game under its own savepoint, it goes alone
            return _Batch(info, status, number, played, known).insert(conn, items, prepared, each=True)

    def in_meeting(self, meeting_id: int, alerts: list[str] | None = None) -> list[GameRecord]:
        """A meeting's games in the order recorded, each with every player's result best first. A game whose
        stored rows cannot be read (written by hand, or by a kikimimi that checked less) is left out, never
        stopping the standings: it is named in `alerts` (and logged)."""
        with self._store.reading() as conn:
            rows = conn.execute(
                sa.select(G.c.number, G.c.journal_game_id, G.c.reason, G.c.game, G.c.details.label("game_details"),
                          P.c.name, R.c.seat, R.c.place, R.c.score, R.c.won, R.c.details)
                .select_from(G.join(R, R.c.game_id == G.c.id).join(P, P.c.id == R.c.player_id))
                .where(G.c.meeting_id == meeting_id).order_by(G.c.number, R.c.place)
            ).all()
        games: dict[int, GameRecord] = {}
        unreadable: dict[int, str] = {}
        for row in rows:
            if row.number in unreadable:
                continue
            try:
                result = stored_result(row)
                details = stored_json(row.game_details, "the game's details")
            except ValueError as exc:
                unreadable[row.number] = f"{row.name}'s result {exc}"
                games.pop(row.number, None)
                continue
            old = games.get(row.number)
            games[row.number] = GameRecord(
                row.number,
                (*old.results, result) if old else (result,),
                row.journal_game_id,
                row.reason,
                row.game or DEFAULT_GAME,
                details,
            )
        for number, game in list(games.items()):
            places = sorted(r.place for r in game.results)
            if places != list(range(1, len(places) + 1)):
                unreadable[number] = f"places {places} are not 1..{len(places)}"
                del games[number]
        for number, problem in sorted(unreadable.items()):
            alert = f"meeting {meeting_id} game {number} cannot be read ({problem}); it is left out of the standings"
            log.warning("records: %s", alert)
            if alerts is not None:
                alerts.append(alert)
        return list(games.values())

    def played(self, name: str) -> dict[str, tuple[int, int]]:
        """Every game a player has results in: game id -> (games, wins), finished meetings only."""
        player = self._store.players.get(name)
        with self._store.reading() as conn:
            rows = conn.execute(
                sa.select(G.c.game, sa.func.count(), sa.func.sum(R.c.won))
                .select_from(R.join(G, G.c.id == R.c.game_id).join(M, M.c.id == G.c.meeting_id))
                .where(R.c.player_id == player.id, M.c.status == "finished")
                .group_by(G.c.game).order_by(G.c.game)
            ).all()
        return {row[0]: (int(row[1]), int(row[2] or 0)) for row in rows}


def prepare_game(info: MeetingInfo, item: GameItem, seated: Mapping[int, list[tuple[int, str]]],
             played: Mapping[int, int]) -> Prepared:
    """One game checked against its meeting and table: (table, game row, result rows), or RecordError."""
    meeting_id, table, results = info.id, item.table, item.results
    if info.status != "open":
        raise RecordError(f"{info.describe()} is {info.status}; its games cannot change")
    if table is None:
        if info.tables > 1:
            raise RecordError(
                f"{info.describe()} is played at {info.tables} tables; say at which table this game was played"
            )
        table = 1
    if not 1 <= table <= info.tables:
        raise RecordError(f"meeting {meeting_id} has tables 1 to {info.tables}, not table {table}")
    here = seated.get(table, [])
    names = [name for _, name in here]
    if info.tables == 1:
        where = f"meeting {meeting_id} game {info.games_played + 1}"
    else:
        where = f"meeting {meeting_id} table {table} game {played.get(table, 0) + 1}"
    try:
        check_results(results, where, ladder(info.game))
    except ResultError as exc:
        raise RecordError(str(exc)) from None
    playing = {name_key(check_name(r.player)) for r in results}
    if playing != {name_key(n) for n in names}:
        whose = "meeting's" if info.tables == 1 else f"table {table}'s"
        raise RecordError(
            f"{where}: players {sorted(r.player for r in results)} are not the {whose} "
            f"players {names}"
        )
    try:
        game_json = json.dumps(dict(item.details or {}), ensure_ascii=False, sort_keys=True)
        result_json = [json.dumps(dict(r.details), ensure_ascii=False, sort_keys=True) for r in results]
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{where}: the game's details are not plain data: {exc}") from None
    ids = {name_key(name): pid for pid, name in here}
    rows = [
        {"player_id": ids[name_key(r.player)], "seat": r.seat, "place": r.place, "score": r.score,
         "won": int(r.won), "details": d}
        for r, d in zip(results, result_json, strict=True)
    ]
    game = {"journal_game_id": item.journal_game_id, "reason": item.reason, "game": info.game, "details": game_json}
    return table, game, rows


class _Batch:
    """Games of one meeting numbered and inserted by `GameRepository.record_many`, in the transaction holding
    the meeting."""

    def __init__(self, info: MeetingInfo, status: str, number: int, played: Mapping[int, int],
                 known: Mapping[str, Recorded]) -> None:
        self.info, self.status, self.number = info, status, number
        self.played, self.known = dict(played), dict(known)

    def insert(self, conn: sa.Connection, items: Sequence[GameItem],
               prepared: Sequence[Prepared | RecordError],
               each: bool) -> list[Recorded | RecordError]:
        """Each item's outcome, its game inserted: all at once (`each` False: an error of the database
        fails them all), or each under a savepoint (a game the database refuses is refused alone)."""
        info = self.info
        outcomes: list[Recorded | RecordError] = []
        games: list[dict[str, Any]] = []
        results: list[list[dict[str, Any]]] = []
        for item, ready in zip(items, prepared, strict=True):
            jid = item.journal_game_id
            if jid is not None and jid in self.known:
                outcomes.append(self.known[jid])
                continue
            if isinstance(ready, RecordError):
                outcomes.append(ready)
                continue
            if self.status != "open":
                outcomes.append(RecordError(f"meeting {info.id} is {self.status}; its games cannot change"))
                continue
            table, game, rows = ready
            done = self.played.get(table, 0)
            if info.games_due is not None and done >= info.games_due:
                outcomes.append(RecordError(
                    f"{info.describe()} has all its games; finish it with `kikimimi meeting finish`"
                    if info.tables == 1 else
                    f"{info.describe()}: table {table} has played all its {info.games_due} games"))
                continue
            row = {"meeting_id": info.id, "number": self.number + 1, "table_no": table, "round": done + 1,
                   "recorded_at": now(), **game}
            if each:
                try:
                    with conn.begin_nested():
                        game_id = conn.execute(G.insert().values(**row).returning(G.c.id)).scalar_one()
                        conn.execute(R.insert(), [{"game_id": game_id, **r} for r in rows])
                except (sa.exc.IntegrityError, sa.exc.DataError) as exc:
                    reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
                    outcomes.append(RecordError(f"meeting {info.id} table {table}: the database refused game "
                                                f"{jid or self.number + 1}: {reason}"))
                    continue
            else:
                games.append(row)
                results.append(rows)
            self.number += 1
            self.played[table] = done + 1
            if jid is not None:
                self.known[jid] = Recorded(self.number, done + 1, True)
            outcomes.append(Recorded(self.number, done + 1))
        if games:
            ids = conn.execute(G.insert().returning(G.c.id, sort_by_parameter_order=True), games).scalars().all()
            conn.execute(R.insert(), [{"game_id": gid, **r} for gid, rows in zip(ids, results, strict=True)
                                      for r in rows])
        return outcomes


