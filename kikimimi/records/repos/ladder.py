"""Where players stand on a game's ladder: each player's history replayed by the game's own ladder, from the
summaries written as each meeting was finished (from the results where a meeting has none), and the
changes a finished meeting brought."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from kikimimi.games.ladder import AnyLadder
from kikimimi.records.kinds import default_ladder_game, ladder
from kikimimi.records.model import Player, stored_result
from kikimimi.records.names import RecordError
from kikimimi.records.queries import FEW, driver_rows, games_and_players, history_rows_query, summaries_query
from kikimimi.records.schema import meeting_players as MP
from kikimimi.records.schema import meetings as M

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore

log = logging.getLogger("kikimimi.records.store")


class LadderRepository:
    def __init__(self, store: RecordStore) -> None:
        self._store = store
        self._histories: dict[str, _Histories] = {}  # by game: what `by_name` read before
        self._histories_lock = threading.Lock()

    def forget(self) -> None:
        """Read every history anew next time (what was read may have been undone, or rewritten)."""
        with self._histories_lock:
            self._histories.clear()

    def _ladder(self, game: str | None) -> tuple[str, AnyLadder]:
        if game is None:
            game = default_ladder_game()
        found = ladder(game)
        if found is None:
            raise RecordError(f"{game} keeps no ranks; its results are in `kikimimi meeting show`")
        return game, found

    def history(self, name: str, game: str | None = None) -> list[Any]:
        """A player's finished meetings of `game` (default: the ladder game), in the order held, as
        that game's ladder reads them (its `MeetingResult`s); within a meeting the player's games in
        the order of their table's rounds. Other games' results never enter."""
        game, rules = self._ladder(game)
        player = self._store.players.get(name)
        with self._store.reading() as conn:
            rows = conn.execute(history_rows_query(game).where(MP.c.player_id == player.id)).all()
        return [rules.meeting_result(mid, kind, tuple(map(rules.unpack, packed)), (held_at, mid),
                                     winner_id == player.id)
                for _, mid, kind, held_at, winner_id, packed in packed_meetings(rules, rows)]

    def replay(self, name: str, game: str | None = None) -> Any:
        """The game's ladder replayed over the player's results of that game: `.status`, `.changes`."""
        game, rules = self._ladder(game)
        player = self._store.players.get(name)
        return rules.replay(self.history(player.name, game), name=player.name, title_form=player.title_form)

    def status(self, name: str, game: str | None = None) -> Any:
        """Where the player stands on the game's ladder (default: the ladder game)."""
        return self.replay(name, game).status

    def statuses(self, names: Iterable[str], game: str | None = None) -> list[Any]:
        return [self.status(n, game) for n in names]

    def by_name(self, game: str | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
        """Every player's status on the game's ladder (default: the ladder game), by name (`names`:
        only those players, each read on its own).

        Every read asks the database which meetings of the game are finished. A finished meeting can
        no longer change (its games are closed, its winner set), so what this store read of it before
        is kept: only newly finished meetings are read, one row per player and meeting from the
        summaries written as each was finished (`meeting_summaries`; a finished meeting without them
        is read from its results), and only their players (and players whose title form changed) are
        replayed by the ladder (its `packed_status` when it has one). The first read replays everyone."""
        game, rules = self._ladder(game)
        if names is not None:
            wanted = [self._store.players.get(n).name for n in names]
            return {name: self.status(name, game) for name in wanted}
        with self._histories_lock:
            histories = self._histories.get(game)
            if histories is None:
                histories = self._histories[game] = _Histories(rules)
            with self._store.reading() as conn:
                conn.execute(sa.select(1))  # begins the transaction the reads below share
                finished = {mid: ((held_at, mid), kind, winner) for mid, held_at, kind, winner in driver_rows(
                    conn, sa.select(M.c.id, M.c.held_at, M.c.kind, M.c.winner_id)
                    .where(M.c.status == "finished", M.c.game == game))}
                new = histories.forget_unless_kept(finished)
                if new:
                    summaries = summaries_query(game)
                    if len(new) <= FEW:
                        summaries = summaries.where(M.c.id.in_(sorted(new)))
                    found = histories.add(driver_rows(conn, summaries), new, finished)
                    if missing := new - found:  # finished with no summary (by hand): read its results
                        rows = history_rows_query(game)
                        if len(missing) <= FEW:
                            rows = rows.where(M.c.id.in_(sorted(missing)))
                        histories.add([(pid, mid, packed) for pid, mid, *_, packed in
                                       packed_meetings(rules, conn.execute(rows))], missing, finished)
                    histories.meetings.update((mid, finished[mid]) for mid in new)
            return histories.statuses(self._store.players.all())

    def changes(self, meeting_id: int) -> list[Any]:
        """The changes a finished meeting brought, derived again from the results (none for a game
        without a ladder)."""
        return self.changes_many([meeting_id])[0]

    def changes_many(self, meeting_ids: Sequence[int]) -> list[list[Any]]:
        """The changes each finished meeting brought (as `changes`), each player's ladder replayed
        once for all of them: a ladder is causal, so a later meeting never moves an earlier one's changes."""
        replays: dict[tuple[str, str], Any] = {}
        found: list[list[Any]] = []
        with self._store.reading() as conn:
            meetings = games_and_players(conn, meeting_ids)
        for meeting_id in meeting_ids:
            if meeting_id not in meetings:  # no players (edited by hand), or no such meeting: `get` says so
                info = self._store.meetings.get(meeting_id)
                meetings[meeting_id] = (info.game, info.players)
            game, players = meetings[meeting_id]
            if ladder(game) is None:
                found.append([])
                continue
            for name in players:
                if (game, name) not in replays:
                    replays[game, name] = self.replay(name, game)
            found.append([c for name in players for c in replays[game, name].changes_in(meeting_id)])
        return found


class _Histories:
    """One game's ladder histories as one store read them: each player's packed games of each finished
    meeting, the meetings ((held_at, id), kind, winner id) and the status last replayed from them."""

    def __init__(self, rules: AnyLadder) -> None:
        self.rules = rules
        self.meetings: dict[int, tuple[Any, ...]] = {}  # finished meeting id -> ((held_at, id), kind, winner id)
        self.games: dict[int, dict[int, tuple[Any, ...]]] = {}  # player id -> meeting id -> packed meeting
        self.replayed: dict[int, tuple[str, str, Any]] = {}  # player id -> (name, title form, status)

    def forget_unless_kept(self, finished: dict[int, tuple[Any, ...]]) -> set[int]:
        """The finished meetings not read yet; starts over if a meeting read before changed or went
        (possible only by editing the database by hand)."""
        if any(finished.get(mid) != seen for mid, seen in self.meetings.items()):
            self.meetings.clear()
            self.games.clear()
            self.replayed.clear()
        return set(finished) - set(self.meetings)

    def add(self, rows: Sequence[Any], wanted: set[int], finished: dict[int, tuple[Any, ...]]) -> set[int]:
        """Keep (player id, meeting id, packed games) rows of the `wanted` meetings as the ladder's
        packed meetings (order, meeting id, kind, won contest, games); returns the meetings found."""
        games, replayed = self.games, self.replayed
        held = finished if len(wanted) == len(finished) else {mid: finished[mid] for mid in wanted}
        kept = set()
        for pid, mid, packed in rows:
            meeting = held.get(mid)
            if meeting is not None:
                mine = games.get(pid)
                if mine is None:
                    mine = games[pid] = {}
                    kept.add(pid)
                elif replayed:
                    kept.add(pid)
                mine[mid] = (meeting[0], mid, meeting[1], meeting[2] == pid, packed)
        for pid in kept:
            replayed.pop(pid, None)
        return {mid for _, mid, _ in rows} & wanted

    def statuses(self, players: Iterable[Player]) -> dict[str, Any]:
        found = {}
        status_of = self.rules.packed_status
        nothing: dict[int, tuple[Any, ...]] = {}
        for p in players:
            known = self.replayed.get(p.id)
            if known is None or known[:2] != (p.name, p.title_form):
                status = status_of(self.games.get(p.id, nothing).values(), name=p.name, title_form=p.title_form)
                known = self.replayed[p.id] = (p.name, p.title_form, status)
            found[p.name] = known[2]
        return found



def packed_meetings(rules: AnyLadder, rows: Iterable[Any]) -> Iterator[tuple[int, int, str, str, int | None, str]]:
    """History rows (see `queries.history_rows_query`), one per result, folded into one per player and meeting:
    (player id, meeting id, kind, held_at, winner id, the player's games packed by the ladder in round
    order). Results alike pack alike: each (place, won, score, details) is packed once."""
    packed: dict[tuple[Any, ...], str] = {}
    key: tuple[int, int] | None = None
    head: tuple[int, int, str, str, int | None] | None = None
    codes: list[str] = []
    for pid, mid, kind, held_at, winner_id, _round, place, won, score, details in rows:
        if (pid, mid) != key:
            if head is not None:
                yield (*head, "".join(codes))
            key, head, codes = (pid, mid), (pid, mid, kind, held_at, winner_id), []
        if place is None:  # the player's table played no game
            continue
        found = packed.get((place, won, score, details))
        if found is None:
            try:  # a row written by hand is left out of the ladder, named, as `in_meeting` leaves it out of standings
                stored_result(SimpleNamespace(name="", seat=None, place=place, score=score, won=won, details=details))
                found = packed[place, won, score, details] = rules.pack(
                    rules.result(place, bool(won), score, json.loads(details or "{}")))
            except (ValueError, TypeError) as exc:
                log.warning("records: meeting %s round %s: player %s's result cannot be read (%s); it is left out "
                            "of the ladder", mid, _round, pid, exc)
                continue
        codes.append(found)
    if head is not None:
        yield (*head, "".join(codes))


