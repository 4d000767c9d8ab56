"""The host's API over real HTTP (uvicorn on a free local port) and a real SQLite records file: joining,
reporting, deduplication, the token, table state and the SSE stream the standings page follows."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from venue_helpers import TOKEN, HostProcess, bot_outcome, new_meeting, serve, wait_for

from kikimimi.app.cli import main
from kikimimi.games.base import Outcome
from kikimimi.records.kinds import ladder
from kikimimi.records.ontable import meeting_setup
from kikimimi.records.standings import standings
from kikimimi.records.store import RecordStore
from kikimimi.venue.client import HostLink, HostRefused
from kikimimi.venue.host import create_app, table_credential


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite"


def host_app(db: Path | str, **options: Any) -> Any:
    return create_app(lambda: RecordStore(db), token=TOKEN, meeting_id=None, **options)


def report(link: HostLink, journal_id: str, seed: int) -> dict[str, Any]:
    answer = link.join()
    seats = {seat: name for seat, name in enumerate(answer["players"], start=1)}
    return link.report(journal_id, seats, bot_outcome(seed).to_json())


def test_join_report_and_a_repeated_report_counted_once(records_url):
    db = records_url  # on SQLite and on PostgreSQL
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        link = HostLink(url, 2, token=TOKEN, controller="table-two")
        joined = link.join()
        first = report(link, "20261122-100000-aaaaaa", seed=1)
        again = report(link, "20261122-100000-aaaaaa", seed=1)  # the answer was lost: the table sends it again
        second = report(link, "20261122-100500-bbbbbb", seed=2)
        snapshot = httpx.get(f"{url}/api/meetings/{meeting}").json()
        link.close()
    with RecordStore(db) as store:
        tables = store.tables.all(meeting)
        games = store.games.in_meeting(meeting)
    assert joined["meeting"] == meeting and joined["table"] == 2 and joined["games_due"] == 5
    assert joined["players"] == list(tables[1].players) and joined["setup"] == meeting_setup("trident")
    assert first == {"number": 1, "round": 1, "duplicate": False}
    assert again == {"number": 1, "round": 1, "duplicate": True}
    assert second == {"number": 2, "round": 2, "duplicate": False}
    assert [g.journal_game_id for g in games] == ["20261122-100000-aaaaaa", "20261122-100500-bbbbbb"]
    assert tables[1].games_played == 2 and tables[1].controller == "table-two" and tables[0].games_played == 0
    row = next(t for t in snapshot["tables"] if t["table"] == 2)
    assert row["games_played"] == 2 and row["controller"] == "table-two"
    expected = standings(games, list(tables[0].players) + list(tables[1].players), ladder("trident"))
    assert [(s["player"], s["wins"], s["points"]) for s in snapshot["standings"]] == \
        [(s.player, s.wins, s.score) for s in expected]


def test_a_wrong_token_is_refused_with_a_clear_message(db, capsys):
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        wrong = HostLink(url, 1, token="not-the-token")
        with pytest.raises(HostRefused) as refused:
            wrong.join()
        none = httpx.post(f"{url}/api/meetings/{meeting}/tables/1/results", json={})
        code = main(["venue", "join", url, "--table", "1", "--token", "nope", "--bots", "1",
                     "--journal", str(db.parent / "t1" / "journal.sqlite")])
        wrong.close()
    assert refused.value.status == 401 and "wrong token" in str(refused.value)
    assert none.status_code == 401 and "needs a token" in none.json()["error"]
    assert code == 1
    err = capsys.readouterr().err
    assert "wrong token" in err and "--token" in err and "Traceback" not in err
    with RecordStore(db) as store:
        assert store.tables.all(meeting)[0].controller is None  # nothing was recorded


def test_results_the_host_cannot_take_say_why(db):
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        link = HostLink(url, 1, token=TOKEN)
        players = link.join()["players"]
        outcome = bot_outcome(3).to_json()
        with pytest.raises(HostRefused) as strangers:  # table 2's players reported by table 1
            link.report("x-1", {1: "P04", 2: "P05", 3: "P06"}, outcome)
        with pytest.raises(HostRefused) as no_table:
            HostLink(url, 7, token=TOKEN).join()
        bad = httpx.post(f"{url}/api/meetings/{meeting}/tables/1/results", content=b"{not json",
                         headers={"Authorization": f"Bearer {TOKEN}"})
        no_meeting = httpx.get(f"{url}/api/meetings/99")
        assert link.report("x-2", dict(enumerate(players, start=1)), outcome)["number"] == 1
        link.close()
    assert strangers.value.status == 409 and "P04" in str(strangers.value) and "x-1" in str(strangers.value)
    assert no_table.value.status == 404 and "tables 1 to 2" in str(no_table.value)
    assert bad.status_code == 400 and "not JSON" in bad.json()["error"]
    assert no_meeting.status_code == 404 and "no meeting 99" in no_meeting.json()["error"]


def read_snapshots(url: str, seen: list[tuple[float, dict[str, Any]]], stop: threading.Event) -> None:
    """What the standings page gets: every `snapshot` event of the stream, with when it came."""
    with contextlib.suppress(httpx.RemoteProtocolError), \
            httpx.stream("GET", url, timeout=httpx.Timeout(5, read=30)) as response:  # ends with the server
        event = None
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "snapshot":
                seen.append((time.monotonic(), json.loads(line[5:])))
            if stop.is_set():
                return


def test_the_host_sees_each_table_and_pushes_every_change(db):
    meeting = new_meeting(db, tables=2)
    seen: list[tuple[float, dict[str, Any]]] = []
    stop = threading.Event()
    with serve(host_app(db, connected_seconds=1.0)) as url:
        reader = threading.Thread(target=read_snapshots, args=(f"{url}/api/meetings/current/events", seen, stop),
                                  daemon=True)
        reader.start()
        wait_for(lambda: seen, 5, "the first snapshot")
        link = HostLink(url, 1, token=TOKEN, controller="t1")
        link.join()
        health = {"readers": {"field": "ok", "hand:2": "reconnecting"}, "outputs": {"speaker": "ok"}}
        link.send_state({"round": 3, "phase": "play", "game_id": "g-3", "health": health})

        def table_one() -> dict[str, Any] | None:
            row = next(t for t in seen[-1][1]["tables"] if t["table"] == 1)
            return row if row["round"] == 3 else None

        live = wait_for(table_one, 2, "table 1's state on the stream")
        sent = time.monotonic()
        report(link, "g-1", seed=4)
        wait_for(lambda: seen[-1][1]["tables"][0]["games_played"] == 1, 2, "the result on the stream")
        pushed = seen[-1][0] - sent
        lost = wait_for(lambda: not seen[-1][1]["tables"][0]["connected"] and seen[-1][1]["tables"][0], 4,
                        "table 1 shown lost after its silence")
        stop.set()
        link.close()
    versions = [s["version"] for _, s in seen]
    assert live["phase"] == "play" and live["game_id"] == "g-3" and live["connected"] is True
    assert live["health"] == "degraded" and live["controller"] == "t1"  # a hand reader is reconnecting
    assert pushed < 2.0
    assert lost["health"] == "lost" and lost["games_played"] == 1
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert seen[0][1]["meeting"]["id"] == meeting and seen[0][1]["tables"][1]["connected"] is False


def test_venue_status_shows_every_table_and_says_when_the_host_is_away(db, capsys):
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        link = HostLink(url, 2, token=TOKEN, controller="corner-table")
        link.join()
        link.send_state({"round": 2, "phase": "play", "game_id": None,
                         "health": {"readers": {"field": "stalled"}, "outputs": {}}})
        report(link, "g-9", seed=9)
        link.close()
        assert main(["venue", "status", url]) == 0
        shown = capsys.readouterr().out
        assert main(["venue", "status", url, "--json"]) == 0
        snapshot = json.loads(capsys.readouterr().out)
    assert main(["venue", "status", url]) == 1  # the host has stopped
    away = capsys.readouterr().err
    assert f"Meeting {meeting}" in shown and all(f"P0{n}" in shown for n in range(1, 7))
    assert "corner-table" in shown and "s ago" in shown
    assert "1/5" in shown and "degraded" in shown and "not joined" in shown  # table 1 never joined
    assert snapshot["tables"][1]["games_played"] == 1 and snapshot["tables"][1]["health"] == "degraded"
    assert url in away and "does not answer" in away and "Traceback" not in away


def test_a_restarted_host_shows_where_each_table_was(db):
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        link = HostLink(url, 1, token=TOKEN, controller="t1")
        link.join()
        link.send_state({"round": 4, "phase": "play", "game_id": "g-4", "health": {"readers": {"field": "ok"}}})
        link.close()
    with serve(host_app(db, connected_seconds=0.5)) as url:  # a new host process would read the same store
        first = httpx.get(f"{url}/api/meetings/{meeting}").json()["tables"][0]
        time.sleep(1.6)  # longer than connected_seconds, plus the host's once-a-second look
        later = httpx.get(f"{url}/api/meetings/{meeting}").json()["tables"][0]
    assert (first["round"], first["phase"], first["game_id"], first["controller"]) == (4, "play", "g-4", "t1")
    assert later["round"] == 4 and later["connected"] is False and later["health"] == "lost"


def test_a_table_that_played_its_games_is_done_not_lost_and_one_never_joined_says_so(db, capsys):
    """Issue 21.1: a finished table fell silent and read LOST; a table never joined read lost in `venue
    status` but "not joined" on the page. Both now read the same everywhere."""
    meeting = new_meeting(db, tables=2)  # a half trial: 5 games per table
    with serve(host_app(db, connected_seconds=0.5)) as url:
        link = HostLink(url, 2, token=TOKEN, controller="t2")
        for n in range(5):
            report(link, f"g-{n}", seed=n)
        link.send_state({"round": 5, "phase": "done", "game_id": None, "health": {}})
        link.close()
        time.sleep(1.6)  # longer than connected_seconds, plus the host's once-a-second look
        tables = httpx.get(f"{url}/api/meetings/{meeting}").json()["tables"]
        assert main(["venue", "status", url, "--meeting", str(meeting)]) == 0
        shown = capsys.readouterr().out
    assert [(t["table"], t["connected"], t["health"]) for t in tables] == [(1, False, "not_joined"),
                                                                           (2, False, "done")]
    assert "done" in shown and "not joined" in shown and "lost" not in shown


def test_bad_ids_and_deep_json_get_an_error_not_a_500(records_url):
    """Issue 21.4: each of these was a 500 (RecursionError, an integer out of the database's range) or a
    plain-text "Not Found"; every one is now `{"error": ...}` naming what was wrong."""
    db = records_url  # PostgreSQL's ids are int4, SQLite's int64: both ranges are tried
    meeting = new_meeting(db, tables=2)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with serve(host_app(db)) as url:
        answers = {
            "deep": httpx.post(f"{url}/api/meetings/{meeting}/tables/1/state", headers=auth,
                               content=b"[" * 30_000 + b"]" * 30_000),  # under the size limit
            "int4": httpx.get(f"{url}/api/meetings/2147483648"),
            "int8": httpx.get(f"{url}/api/meetings/{2**63}"),
            "events": httpx.get(f"{url}/api/meetings/{2**63}/events"),
            "negative": httpx.post(f"{url}/api/meetings/{meeting}/tables/-1/join", headers=auth,
                                   json={"controller": "x"}),
            "huge table": httpx.post(f"{url}/api/meetings/{meeting}/tables/{2**70}/state", headers=auth, json={}),
            "unknown": httpx.get(f"{url}/api/nothing-here"),
        }
    for what, answer in answers.items():
        assert answer.status_code in (400, 404), (what, answer.status_code, answer.text[:200])
        assert answer.headers["content-type"] == "application/json", what
        assert answer.json()["error"], what
    assert "JSON" in answers["deep"].json()["error"]
    assert "no meeting 2147483648" in answers["int4"].json()["error"]
    assert "-1" in answers["negative"].json()["error"] and "tables 1 to 2" in answers["negative"].json()["error"]


def test_page_api_and_static_files_carry_the_security_headers(db):
    """Issue 21.5: no Content-Security-Policy, nosniff or frame protection anywhere."""
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        page = httpx.get(f"{url}/?lang=en")
        script = next(part.split('"')[0] for part in page.text.split('src="')[1:])
        answers = [page, httpx.get(f"{url}/api/meetings/{meeting}"), httpx.get(f"{url}{script}"),
                   httpx.get(f"{url}/api/meetings/99"), httpx.get(f"{url}/no-such-page"),
                   httpx.post(f"{url}/api/meetings/{meeting}/tables/1/join", json={})]
    for answer in answers:
        where = f"{answer.request.method} {answer.request.url.path} ({answer.status_code})"
        policy = answer.headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, where
        assert answer.headers.get("x-content-type-options") == "nosniff", where
        assert answer.headers.get("x-frame-options") == "DENY", where


def test_each_table_has_its_own_credential_and_reports_only_its_own_games(records_url):
    """Issue 21.2: with the one token every table held, a forged result under a fresh journal id was
    recorded for a table that never played (and settled the meeting). A table's credential, issued by
    the host, opens that table only; the organiser's token stays with the organiser."""
    db = records_url
    meeting = new_meeting(db, tables=2)
    one, two = (table_credential(TOKEN, meeting, n) for n in (1, 2))
    assert len({one, two, TOKEN}) == 3
    with serve(host_app(db)) as url:
        table_one = HostLink(url, 1, token=one, controller="t1")
        seats = dict(enumerate(table_one.join()["players"], start=1))
        assert table_one.report("own-1", seats, bot_outcome(1).to_json())["number"] == 1
        forged = {"journal_game_id": "forged-1", "seat_players": {"1": "P04", "2": "P05", "3": "P06"},
                  "outcome": bot_outcome(2).to_json()}
        as_two = httpx.post(f"{url}/api/meetings/{meeting}/tables/2/results", json=forged,
                            headers={"Authorization": f"Bearer {one}"})
        join_two = httpx.post(f"{url}/api/meetings/{meeting}/tables/2/join", json={"controller": "x"},
                              headers={"Authorization": f"Bearer {one}"})
        made_up = httpx.post(f"{url}/api/meetings/{meeting}/tables/2/state", json={},
                             headers={"Authorization": f"Bearer {two[:-2]}xx"})
        # The organiser's token joins a table on its behalf: the answer hands over that table's credential,
        # and the table uses it from then on.
        organiser = HostLink(url, 2, token=TOKEN, controller="t2")
        joined = organiser.join()
        assert joined["credential"] == two and organiser.token == two
        table_one.close()
        organiser.close()
    assert as_two.status_code == 403 and "table 1" in as_two.json()["error"]
    assert join_two.status_code == 403
    assert made_up.status_code == 401
    with RecordStore(db) as store:
        assert [g.journal_game_id for g in store.games.in_meeting(meeting)] == ["own-1"]


def test_venue_host_prints_each_tables_own_credential(tmp_path):
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=3)
    host = HostProcess(db, tmp_path).start()
    try:
        printed = (tmp_path / "host.log").read_text()
    finally:
        host.kill()
    for n in (1, 2, 3):
        assert f"--table {n} --token {table_credential(TOKEN, meeting, n)}" in printed
    assert f"--token {TOKEN}" not in printed and "do not hand it to the tables" in printed


@pytest.mark.parametrize("controller", ["\u202etable-1", "table\x1b[2J"])
def test_a_controller_name_with_a_control_or_bidi_character_is_refused(db, controller):
    """Issue 21.5: refused at entry as names are (it was a 500 for an escape)."""
    meeting = new_meeting(db, tables=2)
    with serve(host_app(db)) as url:
        answer = httpx.post(f"{url}/api/meetings/{meeting}/tables/1/join", json={"controller": controller},
                            headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 400 and "printable name" in answer.json()["error"]
    with RecordStore(db) as store:
        assert store.tables.all(meeting)[0].controller is None


def test_a_tables_crash_is_kept_on_its_result_as_the_games_ladder_reads_it(records_url):
    """The host records a table's outcome through the meeting's game's ladder: the Trident's engine names
    the seat that crashed; the records keep it on that seat's result (and its ranks count it)."""
    db = records_url
    meeting = new_meeting(db, tables=2)
    crashed = Outcome(ranking=(2, 1, 3), winners=(), scores={1: 9, 2: 4, 3: 40}, reason="crash",
                      details={"crashed": 3, "pieces": {1: 2, 2: 1, 3: 6}})
    with serve(host_app(db)) as url:
        link = HostLink(url, 1, token=TOKEN, controller="table-one")
        seats = {seat: name for seat, name in enumerate(link.join()["players"], start=1)}
        assert link.report("crash-1", seats, crashed.to_json())["number"] == 1
        link.close()
    with RecordStore(db) as store:
        (game,) = store.games.in_meeting(meeting)
    assert {r.seat: dict(r.details) for r in game.results} == {
        2: {"pieces": 1}, 1: {"pieces": 2}, 3: {"crashed": True, "pieces": 6}}
    assert dict(game.details) == {}  # the crash is the seat's, not the game's
