"""Bot tables as their own processes (`kikimimi venue join --bots`) reporting into a host, with the host
or a table killed mid-meeting: every game ends up in the records exactly once, and the meeting finishes
with the standings its games give."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import httpx
from venue_helpers import (
    TOKEN,
    HostProcess,
    ThreadHost,
    finished_games,
    join_table,
    kikimimi,
    new_meeting,
    stop,
    wait_for,
)

from kikimimi.records.kinds import ladder
from kikimimi.records.standings import standings
from kikimimi.records.store import RecordStore

GAMES = 5  # a half trial: five games per table


def recorded(db: Path, meeting: int) -> list[str | None]:
    with RecordStore(db) as store:
        return [g.journal_game_id for g in store.games.in_meeting(meeting)]


def log_of(folder: Path) -> str:
    return (folder / "table.log").read_text(errors="replace")


def test_three_bot_tables_play_a_meeting_to_the_end(tmp_path):
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=3)
    host = HostProcess(db, tmp_path).start()
    tables = [join_table(host.url, n, tmp_path / f"table{n}", seed=n) for n in (1, 2, 3)]
    try:
        codes = [t.wait(timeout=60) for t in tables]
        shown = httpx.get(f"{host.url}/api/meetings/{meeting}").json()  # what the venue's TV shows at the end
    finally:
        for t in tables:
            stop(t)
        host.kill()
    assert codes == [0, 0, 0], [log_of(tmp_path / f"table{n}") for n in (1, 2, 3)]
    with RecordStore(db) as store:
        info = store.meetings.get(meeting)
        seats = store.tables.all(meeting)
        games = store.games.in_meeting(meeting)
        final = standings(games, info.players, ladder(info.game))
        statuses = {s.name: s for s in store.ladder.statuses(info.players, info.game)}
    assert info.status == "finished"  # the host settled it when the last table's last game came
    assert [t.games_played for t in seats] == [GAMES] * 3
    for n in (1, 2, 3):  # each table's games are its journal's, each once
        journal = finished_games(tmp_path / f"table{n}" / "journal.sqlite")
        assert len(journal) == GAMES
        assert {g.journal_game_id for g in games if g.results[0].player in seats[n - 1].players} == set(journal)
    assert len({g.journal_game_id for g in games}) == len(games) == 3 * GAMES
    assert all(s.games == GAMES for s in final)
    assert shown["meeting"]["status"] == "finished"
    assert [(r["position"], r["player"], r["wins"], r["points"], r["crashes"]) for r in shown["standings"]] == \
        [(s.position, s.player, s.wins, s.score, s.figures["crashes"]) for s in final]
    assert [r["rank"]["en"] for r in shown["standings"]] == [statuses[s.player].rank_title for s in final]
    assert [t["games_played"] for t in shown["tables"]] == [GAMES] * 3
    assert all(statuses[name].registered for name in info.players)  # a finished half trial registers everyone


def test_the_host_restarted_mid_meeting_loses_nothing(tmp_path):
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=2, kind="half")
    host = ThreadHost(db).start()
    folder = tmp_path / "table1"
    table = join_table(host.url, 1, folder, seed=7)
    try:
        wait_for(lambda: len(recorded(db, meeting)) >= 1, 30, "table 1's first result")
        host.kill()
        at_kill = len(recorded(db, meeting))
        # The table plays on without its host: its journal gets further than the records.
        wait_for(lambda: len(finished_games(folder / "journal.sqlite")) > at_kill + 1, 30,
                 "table 1 playing on while the host is down")
        assert table.poll() is None, log_of(folder)
        host.start()  # the same port: the table's reporter finds it again
        code = table.wait(timeout=60)
    finally:
        stop(table)
        host.kill()
    journal = finished_games(folder / "journal.sqlite")
    assert code == 0, log_of(folder)
    assert at_kill < GAMES and len(journal) == GAMES
    assert recorded(db, meeting) == journal  # every game once, in the order played
    assert "playing on" in log_of(folder)


def test_a_table_killed_before_reporting_sends_the_game_after_restart(tmp_path):
    db = tmp_path / "records.sqlite"
    meeting = new_meeting(db, tables=2, kind="half")
    host = ThreadHost(db).start()
    folder = tmp_path / "table2"
    table = join_table(host.url, 2, folder, seed=11)
    try:
        wait_for(lambda: len(recorded(db, meeting)) >= 1, 30, "table 2's first result")
        host.kill()  # from now on a game that ends cannot be reported
        at_kill = len(recorded(db, meeting))
        wait_for(lambda: len(finished_games(folder / "journal.sqlite")) > at_kill, 30, "a game ended, unreported")
        table.send_signal(signal.SIGKILL)  # the table dies with that game in its journal only
        table.wait(timeout=10)
        unreported = finished_games(folder / "journal.sqlite")[at_kill:]
        host.start()
        table = join_table(host.url, 2, folder, seed=12)  # the same journal and outbox, as after a reboot
        code = table.wait(timeout=60)
    finally:
        stop(table)
        host.kill()
    journal = finished_games(folder / "journal.sqlite")
    assert code == 0, log_of(folder)
    assert unreported and set(unreported) <= set(recorded(db, meeting))
    assert recorded(db, meeting) == journal and len(journal) == GAMES  # counted once, none lost


def test_a_rehearsal_at_human_pace_spaces_the_bots_taps(tmp_path):
    """Issue 21.19: `venue join --bots` played a meeting in seconds; with --pace the bots wait that long
    between taps (as the demo does), so the TV can be watched live. Only a lower bound is checked: a busy
    machine makes the gaps longer, never shorter."""
    import sqlite3

    from kikimimi.app.cli import main

    pace = 0.4
    db = tmp_path / "records.sqlite"
    new_meeting(db, tables=1, kind="half")
    host = ThreadHost(db).start()
    folder = tmp_path / "t1"
    table = kikimimi_join(host.url, folder, "--pace", str(pace))
    journal = folder / "journal.sqlite"

    def taps() -> list[float]:
        if not journal.exists():
            return []
        try:
            with sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True) as raw:
                return [r[0] for r in raw.execute("SELECT at FROM events ORDER BY at")]
        except sqlite3.Error:
            return []

    try:
        wait_for(lambda: len(taps()) >= 6 or table.poll() is not None, 60, "six taps at the table")
    finally:
        stop(table)
        host.kill()
    times = taps()
    assert len(times) >= 6, log_of(folder)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= pace * 0.9, gaps
    assert main(["venue", "join", host.url, "--table", "1", "--pace", "1"]) == 2  # --pace needs --bots


def kikimimi_join(url: str, folder: Path, *extra: str) -> subprocess.Popen[bytes]:
    folder.mkdir(parents=True, exist_ok=True)
    return kikimimi("venue", "join", url, "--table", "1", "--token", TOKEN, "--bots", "1",
                    "--journal", str(folder / "journal.sqlite"), *extra, log=folder / "table.log")
