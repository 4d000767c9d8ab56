"""Issue 31, item 2: a result is typed and bounded at the door (a 400 naming the field), and a stored row that
cannot be read is left out of the standings with an alert instead of stopping them. Property tests over the
result JSON: whatever a table sends, nothing stored breaks a standings rebuild."""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from venue_helpers import TOKEN, bot_outcome, new_meeting, serve

from kikimimi.games.base import Outcome, OutcomeError
from kikimimi.records.kinds import ladder
from kikimimi.records.results import ResultError
from kikimimi.records.standings import standings
from kikimimi.records.store import RecordError, RecordStore
from kikimimi.venue.host import create_app

HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def _outcome(**change):
    data = bot_outcome(5).to_json()
    for path, value in change.items():
        *parents, last = path.split("__")
        where = data
        for key in parents:
            where = where[key]
        where[last] = value
    return data


BAD = [  # (what the table sends, the field the host names)
    ({"outcome": _outcome(scores__1="x")}, "outcome.scores.1"),
    ({"outcome": _outcome(scores__1=1.5)}, "outcome.scores.1"),
    ({"outcome": _outcome(scores__1=math.nan)}, "outcome.scores.1"),
    ({"outcome": _outcome(scores__2=math.inf)}, "outcome.scores.2"),
    ({"outcome": _outcome(scores__2=10**30)}, "outcome.scores.2"),
    ({"outcome": _outcome(scores__3=[1, 2])}, "outcome.scores.3"),
    ({"outcome": _outcome(ranking=[3, 2, True])}, "outcome.ranking.2"),
    ({"outcome": _outcome(ranking=[1, 1, 2])}, "outcome.ranking"),
    ({"outcome": _outcome(details__pieces__1=1e30)}, "outcome.details.pieces.1"),
    ({"outcome": _outcome(reason="a\x00b")}, "outcome.reason"),
    ({"journal_game_id": "g\x00-1"}, "journal_game_id"),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite"


def test_a_bad_field_is_a_400_naming_it_and_the_standings_still_build(db):
    meeting = new_meeting(db, tables=1)
    with RecordStore(db) as store:
        players = store.tables.all(meeting)[0].players
    seats = {str(seat): name for seat, name in enumerate(players, start=1)}
    raw = f"/api/meetings/{meeting}/tables/1/results"
    with serve(create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None)) as url:
        for n, (change, field) in enumerate(BAD):
            body = {"journal_game_id": f"g-{n}", "seat_players": seats, "outcome": bot_outcome(5).to_json(), **change}
            answer = httpx.post(url + raw, content=json.dumps(body), headers=HEADERS)  # NaN, Infinity as sent
            assert answer.status_code == 400, (field, answer.text)
            assert field in answer.json()["error"], (field, answer.json())
        good = {"journal_game_id": "g-good", "seat_players": seats, "outcome": bot_outcome(5).to_json()}
        assert httpx.post(url + raw, json=good, headers=HEADERS).status_code == 200
        snapshot = httpx.get(f"{url}/api/meetings/{meeting}").json()
    assert sum(row["games"] for row in snapshot["standings"]) == 3 and snapshot["alerts"] == []
    with RecordStore(db) as store:
        assert [g.journal_game_id for g in store.games.in_meeting(meeting)] == ["g-good"]


def test_a_stored_row_that_cannot_be_read_is_an_alert_not_a_stop(db, capsys):
    meeting = new_meeting(db, tables=1)
    with RecordStore(db) as store:
        seats = dict(enumerate(store.tables.all(meeting)[0].players, start=1))
        for n in (1, 2):
            store.games.record_outcome(meeting, seats, bot_outcome(n), f"g-{n}")
        first = store.games.in_meeting(meeting)[0]
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:  # written by hand, or by a kikimimi that checked less
        conn.execute(sa.text("UPDATE results SET score = 'x' WHERE place = 1 AND game_id = "
                             "(SELECT id FROM games WHERE journal_game_id = 'g-1')"))
    engine.dispose()
    with RecordStore(db) as store:
        alerts: list[str] = []
        games = store.games.in_meeting(meeting, alerts)
        table = standings(games, store.meetings.get(meeting).players, ladder("trident"))
    assert [g.journal_game_id for g in games] == ["g-2"]
    assert len(alerts) == 1 and f"game {first.number}" in alerts[0] and "'x'" in alerts[0]
    assert sum(s.games for s in table) == 3
    with serve(create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None)) as url:
        snapshot = httpx.get(f"{url}/api/meetings/{meeting}").json()
    assert snapshot["alerts"] == alerts and sum(row["games"] for row in snapshot["standings"]) == 3


# -- properties over the result JSON ------------------------------------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**31), max_value=10**31),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
_json = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=3), inner, max_size=4)),
                     max_leaves=12)
_seat = st.one_of(st.integers(min_value=-1, max_value=4), st.booleans(), st.just("1"), st.floats())


@st.composite
def outcome_json(draw):
    """A real outcome with some fields replaced by anything JSON holds, or a wholly arbitrary value."""
    data = bot_outcome(draw(st.integers(1, 3))).to_json()
    if draw(st.integers(0, 9)) == 0:
        return draw(_json)
    for name in draw(st.lists(st.sampled_from(["ranking", "winners", "scores", "reason", "details", "extra"]),
                              max_size=3)):
        data[name] = draw(st.one_of(_json, st.lists(_seat, max_size=4),
                                    st.dictionaries(st.sampled_from(["1", "2", "3", "4", "x"]), _scalars, max_size=4)))
    return data


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "records.sqlite"
    meeting = new_meeting(db, tables=1, kind="contest")
    with RecordStore(db) as store:
        yield store, meeting


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=outcome_json())
def test_whatever_a_table_sends_nothing_stored_breaks_the_standings(fuzz_store, data):
    store, meeting = fuzz_store
    seats = dict(enumerate(store.meetings.get(meeting).players, start=1))
    try:
        outcome = Outcome.from_json(data)
    except OutcomeError as exc:
        assert exc.field.startswith("outcome")
        return
    with contextlib.suppress(RecordError, ResultError):  # not this table's seats, winners not first: refused
        store.games.record_outcome(meeting, seats, outcome)
    alerts: list[str] = []
    games = store.games.in_meeting(meeting, alerts)
    assert alerts == []
    standings(games, store.meetings.get(meeting).players, ladder("trident"))
    json.dumps([g.details for g in games], allow_nan=False)  # what the page is sent stays strict JSON

