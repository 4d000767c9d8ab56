"""Reads more than one of the store's repositories make, each in the caller's connection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from kikimimi.games.registry import DEFAULT_GAME
from kikimimi.records.kinds import ladder
from kikimimi.records.model import MAX_ID, MeetingInfo
from kikimimi.records.names import RecordError
from kikimimi.records.schema import games as G
from kikimimi.records.schema import meeting_players as MP
from kikimimi.records.schema import meeting_summaries as S
from kikimimi.records.schema import meetings as M
from kikimimi.records.schema import players as P
from kikimimi.records.schema import results as R

FEW = 500  # ids a query names one by one; more are read whole (a query's parameters are limited)


def read_meeting(conn: sa.Connection, meeting_id: int) -> MeetingInfo:
    if not 1 <= meeting_id <= MAX_ID:  # the database would fail on it (PostgreSQL: int4), not say "no"
        raise RecordError(f"no meeting {meeting_id} (see `kikimimi meeting list`)")
    winner = P.alias("winner")
    played = sa.select(sa.func.count()).where(G.c.meeting_id == M.c.id).scalar_subquery()
    row = conn.execute(
        sa.select(M.c.id, M.c.label, M.c.kind, M.c.held_at, M.c.status, M.c.finished_at,
                  winner.c.name.label("winner"), M.c.game, M.c.tables, played.label("played"))
        .select_from(M.outerjoin(winner, winner.c.id == M.c.winner_id))
        .where(M.c.id == meeting_id)
    ).first()
    if row is None:
        raise RecordError(f"no meeting {meeting_id} (see `kikimimi meeting list`)")
    names = tuple(conn.execute(
        sa.select(P.c.name).select_from(MP.join(P, P.c.id == MP.c.player_id))
        .where(MP.c.meeting_id == meeting_id).order_by(MP.c.position)
    ).scalars())
    return MeetingInfo(row.id, row.label, row.kind, row.held_at, row.status, row.finished_at, names,
                       int(row.played), row.winner, row.game or DEFAULT_GAME, int(row.tables))


def seated(conn: sa.Connection, meeting_id: int) -> dict[int, list[tuple[int, str]]]:
    """Each table's players, in seat order: table -> [(player id, name)]."""
    found: dict[int, list[tuple[int, str]]] = {}
    for table_no, pid, name in conn.execute(
        sa.select(MP.c.table_no, P.c.id, P.c.name).select_from(MP.join(P, P.c.id == MP.c.player_id))
        .where(MP.c.meeting_id == meeting_id).order_by(MP.c.table_no, MP.c.seat)
    ):
        found.setdefault(table_no, []).append((pid, name))
    return found


def played_by_table(conn: sa.Connection, meeting_id: int) -> dict[int, int]:
    return {int(t): int(n) for t, n in conn.execute(
        sa.select(G.c.table_no, sa.func.count()).where(G.c.meeting_id == meeting_id).group_by(G.c.table_no)
    )}


def summaries_query(game: str) -> sa.Select[Any]:
    """(player id, meeting id, packed games) of every player of every finished meeting of `game`."""
    return (sa.select(S.c.player_id, S.c.meeting_id, S.c.games)
            .select_from(S.join(M, M.c.id == S.c.meeting_id))
            .where(M.c.status == "finished", M.c.game == game))


def history_rows_query(game: str) -> sa.Select[Any]:
    """(player id, meeting id, kind, held_at, winner id, round, place, won, score, details): every
    result of every player of every finished meeting of `game`, in the order the meetings were held
    and each player's games in round order, from the results (the source of truth); a player
    whose table played no game has one row of Nones from `round` on. A player's games are those of
    their table (all of a table's players play each of its games)."""
    return (
        sa.select(MP.c.player_id, M.c.id, M.c.kind, M.c.held_at, M.c.winner_id, G.c.round, R.c.place, R.c.won,
                  R.c.score, R.c.details)
        .select_from(players_games())
        .where(M.c.status == "finished", M.c.game == game)
        .order_by(M.c.held_at, M.c.id, MP.c.player_id, G.c.round)
    )


def players_games() -> sa.FromClause:
    """Each meeting's players, each with their results in their table's games of the meeting's game
    (none: a row with no game), as both the history and the summaries read them."""
    games = sa.and_(G.c.meeting_id == M.c.id, G.c.table_no == MP.c.table_no, G.c.game == M.c.game)
    mine = sa.and_(R.c.game_id == G.c.id, R.c.player_id == MP.c.player_id)
    return M.join(MP, MP.c.meeting_id == M.c.id).outerjoin(G, games).outerjoin(R, mine)


def driver_rows(conn: sa.Connection, query: sa.Select[Any]) -> Sequence[Any]:
    """A large read's rows as the driver hands them over, in the connection's transaction: for 100k
    small rows SQLAlchemy's own rows cost more than the query (measured: 0.2 s against 0.1 s). The
    query's values (ids, a game's id, a status) are written into it as literals."""
    sql = str(query.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
    cursor = conn.connection.cursor()
    try:
        cursor.execute(sql)
        return cursor.fetchall()
    finally:
        cursor.close()


def ladder_games_in(conn: sa.Connection, meeting_ids: Sequence[int] | None) -> list[str]:
    """The games of the finished meetings (of those meetings) that have a ladder."""
    query = sa.select(M.c.game).distinct().where(M.c.status == "finished")
    if meeting_ids is not None:
        query = query.where(M.c.id.in_(meeting_ids))
    return [game for game in conn.execute(query).scalars() if game is not None and ladder(game) is not None]


def games_and_players(conn: sa.Connection, meeting_ids: Sequence[int]) -> dict[int, tuple[str, tuple[str, ...]]]:
    """Each meeting's game and players in seat order (as `read_meeting` gives them), a few reads for
    many meetings; a meeting that is not there is left out."""
    found: dict[int, tuple[str, list[str]]] = {}
    ids = sorted({i for i in meeting_ids if 1 <= i <= MAX_ID})
    for start in range(0, len(ids), FEW):
        for mid, game, name in conn.execute(
            sa.select(M.c.id, M.c.game, P.c.name)
            .select_from(M.join(MP, MP.c.meeting_id == M.c.id).join(P, P.c.id == MP.c.player_id))
            .where(M.c.id.in_(ids[start:start + FEW])).order_by(M.c.id, MP.c.position)
        ):
            found.setdefault(mid, (game or DEFAULT_GAME, []))[1].append(name)
    return {mid: (game, tuple(names)) for mid, (game, names) in found.items()}

