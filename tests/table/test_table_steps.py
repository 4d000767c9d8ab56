"""The table's own steps (a new game, an announcement, a pause) reach listeners as their own types, not as
referee events: on the loop, on the control socket's wire, and from a table that still sent them as referee
lines. A journal written before they were typed still reads, exports and resumes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from device_helpers import wait_for
from table_helpers import SCRIPTS, write_config

from kikimimi.games.base import SPEAKER, Referee, Say, Scan
from kikimimi.table.codec import step_from, step_json, to_line
from kikimimi.table.config import load_config
from kikimimi.table.journal import Journal
from kikimimi.table.live import open_table
from kikimimi.table.loop import Step
from kikimimi.table.messages import Announcement, NewGame, PauseRequest

OLD_JOURNAL = Path(__file__).parent / "data" / "journal_schema1.sql"
UNFINISHED = [Scan("hand:1", "heart-1"), Scan("hand:2", "spade-3"), Referee("undo"), Scan("hand:2", "spade-4"),
              Referee("penalty", {"seat": 3})]
LOST = Say(SPEAKER, "table.field_reader_lost")

# Step lines as the control socket pushed them before the table's own steps were typed.
OLD_WIRE = [
    {"seq": 0, "event": {"referee": "new", "game": "trident", "first": 2, "rules": "standard"}, "effects": [],
     "uid": None, "journaled": False},
    {"seq": 0, "event": {"referee": "announce"}, "effects": [{"say": "speaker", "key": LOST.key, "params": {}}],
     "uid": None, "journaled": False},
    {"seq": 0, "event": {"referee": "pause", "paused": True},
     "effects": [{"say": "speaker", "key": "table.paused", "params": {}}], "uid": None, "journaled": False},
    {"seq": 7, "event": {"referee": "undo"}, "effects": [], "uid": None, "journaled": True},
    # A game's referee action the journal could not take: seq 0, not journaled, and still the game's.
    {"seq": 0, "event": {"referee": "reveal"}, "effects": [{"say": "speaker", "key": "table.not_saved", "params": {}}],
     "uid": None, "journaled": False},
]


def test_a_console_reads_the_steps_of_a_table_that_sent_them_as_referee_lines():
    events = [step_from(line).event for line in OLD_WIRE]
    assert events == [NewGame({"game": "trident", "first": 2, "rules": "standard"}), Announcement((LOST,)),
                      PauseRequest(True), Referee("undo"), Referee("reveal")]


def test_the_tables_own_steps_cross_the_wire_as_their_types():
    steps = [Step(0, NewGame({"game": "nimmt", "players": 5}), [], journaled=False),
             Step(0, Announcement((LOST,)), [LOST], journaled=False),
             Step(0, PauseRequest(False), [Say(SPEAKER, "table.unpaused")], journaled=False),
             Step(3, Referee("penalty", {"seat": 2}), [Say(SPEAKER, "penalty.seat", {"seat": 2})])]
    wire = [json.loads(to_line(step_json(step))) for step in steps]
    assert [step_from(line) for line in wire] == steps
    assert [line["event"] for line in wire[:3]] == [{"table": "new", "setup": {"game": "nimmt", "players": 5}},
                                                    {"table": "announce"}, {"table": "pause", "paused": False}]


def _old_journal(folder: Path) -> Path:
    path = folder / "journal.sqlite"  # where write_config's table keeps its journal
    db = sqlite3.connect(path)
    db.executescript(OLD_JOURNAL.read_text())
    db.close()
    return path


def test_a_journal_written_before_the_typed_steps_reads_exports_and_resumes(tmp_path):
    path = _old_journal(tmp_path)
    journal = Journal(path)
    finished, unfinished = journal.games()
    script = [json.loads(line) for line in (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()]
    assert [json.loads(line) for line in journal.export(finished.id)] == script
    assert finished.ended_at is not None and unfinished.ended_at is None
    assert list(journal.events(unfinished.id)) == UNFINISHED
    journal.close()

    table = open_table(load_config(write_config(tmp_path)))
    steps: list[Step] = []
    table.loop.listeners.append(steps.append)
    try:
        assert table.loop.status.resumed and table.loop.status.game_id == unfinished.id
        assert list(table.loop.session.events) == [UNFINISHED[0], *UNFINISHED[3:]]  # the undo took one back
        table.loop.pause(True)
        table.loop.announce([LOST])
        setup = table.loop.new_game({"first": 3})
        assert wait_for(lambda: len(steps) == 3)
        assert [step.event for step in steps] == [PauseRequest(True), Announcement((LOST,)), NewGame(setup)]
        assert all(step.seq == 0 and not step.journaled for step in steps)
        assert steps[0].effects == [Say(SPEAKER, "table.paused")] and steps[1].effects == [LOST]
    finally:
        table.close()
    after = Journal(path)
    try:
        games = after.games()
        assert [g.id for g in games[:2]] == [finished.id, unfinished.id] and len(games) == 3
        assert games[1].ended_at is not None and games[2].setup["first"] == 3  # the new game ended the old one
    finally:
        after.close()
