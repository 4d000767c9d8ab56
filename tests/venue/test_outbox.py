"""The outbox is derived from the table's journal (a real journal file): which games are the meeting's,
which the host has taken, what a restarted table knows about its meeting without the host."""

from __future__ import annotations

import time

from venue_helpers import bot_outcome

from kikimimi.records.ontable import meeting_setup
from kikimimi.table.journal import Journal
from kikimimi.venue.client import Outbox, meeting_games

SETUP = {k: v for k, v in meeting_setup("trident").items() if k != "game"}


def joined(due: int = 5) -> dict:
    return {"meeting": 3, "table": 2, "players": ["Ann", "Bo", "Cy"], "game": "trident", "kind": "half",
            "games_due": due, "games_played": 0, "setup": meeting_setup("trident")}


def test_only_the_meetings_finished_games_are_sent_and_each_once(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    before = journal.begin_game("trident", SETUP)  # a game finished before the table joined
    journal.finish(before, bot_outcome(1))
    time.sleep(0.01)
    outbox = Outbox(path)
    assignment = outbox.remember("http://host:8765", joined(due=3))
    practice = journal.begin_game("trident", {**SETUP, "rules": "standard"})  # not the meeting's set-up
    journal.finish(practice, bot_outcome(2))
    abandoned = journal.begin_game("trident", SETUP)
    journal.finish(abandoned, None)  # abandoned: no outcome, never a result
    played = []
    for seed in (3, 4, 5, 6):  # one game more than the table owes: never sent
        game = journal.begin_game("trident", SETUP)
        journal.finish(game, bot_outcome(seed))
        played.append(game)
    under_way = journal.begin_game("trident", SETUP)  # not ended yet
    assert [g.id for g in meeting_games(journal, assignment)] == played[:3]
    assert under_way not in {g.id for g in meeting_games(journal, assignment)}
    outbox.mark(3, played[0], 1, 1)
    outbox.mark(3, played[1], None, None, refused="the meeting is closed")
    assert outbox.done(3) == {played[0]: None, played[1]: "the meeting is closed"}
    outbox.close()
    journal.close()


def test_a_restarted_table_keeps_its_meeting_and_first_join_time(tmp_path):
    path = tmp_path / "journal.sqlite"
    outbox = Outbox(path)
    first = outbox.remember("http://host:8765", joined())
    outbox.close()
    time.sleep(0.01)
    again = Outbox(path)  # the process restarted
    offline = again.assignment(2)
    rejoined = again.remember("http://host:8765", joined())
    assert offline == first and offline.seat_players == {1: "Ann", 2: "Bo", 3: "Cy"}
    assert rejoined.joined_at == first.joined_at  # games begun since the first join stay the meeting's
    assert again.assignment(1) is None and again.assignment(2, meeting=4) is None
    assert oct(path.with_name("journal.sqlite.venue.sqlite").stat().st_mode & 0o777) == "0o600"
    again.close()
