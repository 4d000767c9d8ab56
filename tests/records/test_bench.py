"""`kikimimi bench standings`, small: the synthetic load lands whole on either store and is read back."""

from __future__ import annotations

import json

from kikimimi.app.cli import main
from kikimimi.records.store import RecordStore


def test_bench_standings_loads_and_times_on_either_store(records_url, capsys):
    assert main(["bench", "standings", "--players", "31", "--games", "20", "--repeat", "1", "--json",
                 "--db", records_url]) == 0
    figures = json.loads(capsys.readouterr().out)
    # 31 players: 11 trials of three a round (the last with two players again), 2 rounds of 10 games.
    assert (figures["players"], figures["meetings"], figures["games"], figures["results"]) == (31, 22, 220, 660)
    assert figures["cold_median_s"] > 0 and figures["after_a_meeting_median_s"] > 0
    with RecordStore(records_url) as store:
        statuses = store.ladder.by_name()
        assert len(statuses) == 31
        assert sum(s.games for s in statuses.values()) == 660 + 3 * 10  # and the one meeting --repeat 1 added
        assert store.players.add("After The Bench").id == 32  # ids given in bulk did not stall the sequence
    assert main(["bench", "standings", "--players", "31", "--games", "20", "--db", records_url]) == 2
    assert "already holds players" in capsys.readouterr().err
