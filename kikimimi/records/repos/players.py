"""The club's players: added, renamed in their title form, found by name as people write it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlalchemy as sa

from kikimimi.records.model import Player, check_title_form, now
from kikimimi.records.names import RecordError, check_name, name_key
from kikimimi.records.schema import players as P

if TYPE_CHECKING:
    from kikimimi.records.store import RecordStore


class PlayerRepository:
    def __init__(self, store: RecordStore) -> None:
        self._store = store

    def add(self, name: str, title_form: str | None = None) -> Player:
        """A new player, addressed in `title_form` (one of the ladders' `title_forms()`; None: the first)."""
        name = check_name(name)
        title_form = check_title_form(title_form)
        same = self.find(name)
        if same is not None:
            raise RecordError(f"player {name!r} already exists as {same.name!r} "
                              f"(see `kikimimi players show {same.name}`)")
        try:
            with self._store.writing() as conn:
                conn.execute(P.insert().values(name=name, title_form=title_form, created_at=now()))
        except sa.exc.IntegrityError:
            raise RecordError(f"player {name!r} already exists (see `kikimimi players show {name}`)") from None
        return self.get(name)

    def set_title_form(self, name: str, title_form: str) -> Player:
        title_form = check_title_form(title_form)
        player = self.get(name)
        with self._store.writing() as conn:
            conn.execute(P.update().where(P.c.id == player.id).values(title_form=title_form))
        self._store.forget_players()
        return self.get(name)

    def find(self, name: str) -> Player | None:
        """The player of that name, compared as `name_key` does (case, spaces, NFKC: "ＡＮＮ" is Ann)."""
        known = self._store.players_found()
        if known is not None and (hit := known.get(name_key(name))) is not None:
            return hit  # inside one transaction nobody else changes the list (`records import` asks thousands)
        columns = (P.c.id, P.c.name, P.c.title_form, P.c.created_at)
        with self._store.reading() as conn:
            row = conn.execute(sa.select(*columns).where(self._name_is(" ".join(name.split())))).first()
            if row is None:  # the database's case folding knows no NFKC: the club's list is read (it is short)
                key = name_key(name)
                row = next((r for r in conn.execute(sa.select(*columns).order_by(P.c.id)) if name_key(r.name) == key),
                           None)
        if row is None:
            return None
        found = Player(*row)
        if known is not None:
            known[name_key(name)] = found
        return found

    def get(self, name: str) -> Player:
        found = self.find(name)
        if found is None:
            raise RecordError(f"no player named {name!r}; add them with `kikimimi players add {name}`")
        return found

    def all(self) -> list[Player]:
        with self._store.reading() as conn:
            rows = conn.execute(sa.select(P.c.id, P.c.name, P.c.title_form, P.c.created_at)
                                .order_by(sa.func.lower(P.c.name), P.c.id))
            return [Player(*row) for row in rows]

    def _name_is(self, name: str) -> sa.ColumnElement[bool]:
        """A player's name matched regardless of case: SQLite's NOCASE column, PostgreSQL's lower()."""
        if self._store.dialect == "sqlite":
            return P.c.name == name
        return sa.func.lower(P.c.name) == sa.func.lower(name)
