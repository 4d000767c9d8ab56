"""The live table: taps through simulated (and pty) readers, the deck, the journal, the loop and the voice."""

from __future__ import annotations

import time

from device_helpers import Pty, wait_for
from table_helpers import SCRIPTS, bot_script, write_config

from kikimimi.devices.frames import rdm6300_frame
from kikimimi.devices.simdeck import sim_uid
from kikimimi.games.base import Referee, Say
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper, feed_script
from kikimimi.table.journal import Journal
from kikimimi.table.live import open_table
from kikimimi.table.replay import replay


def fed(config_path, script_lines, **kw):
    table = open_table(load_config(config_path), **kw)
    steps = []
    table.loop.listeners.append(steps.append)
    feed_script(SimTapper(table.loop, table.hub), script_lines)
    return table, steps


def test_a_fed_game_ends_in_the_same_state_as_its_replay(sim_config, tmp_path):
    for script in (SCRIPTS / "trident_full_game.jsonl", bot_script(11, tmp_path)):
        lines = script.read_text().splitlines()
        table, steps = fed(sim_config, lines)
        try:
            live = table.loop.report()
            expected = replay(lines, lang="en")
            assert live == {k: v for k, v in expected.report().items()
                            if k not in ("spoken", "alerts", "refused_lines")}
            said = [(e.to, e.key) for s in steps for e in s.effects if isinstance(e, Say)]
            assert said == [(s["to"], s["key"]) for s in expected.spoken]
        finally:
            table.close()


def test_every_output_hears_exactly_its_own_phrases(sim_config):
    """Privacy at the table: each earphone's transcript is exactly the engine's phrases for that seat."""
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    table, steps = fed(sim_config, lines)
    table.voice.wait_idle(5)
    heard = {}
    for output, line in table.voice.transcript.lines:
        heard.setdefault(output, []).append(line.key)
    table.close()
    expected = {}
    for step in steps:
        for effect in step.effects:
            if isinstance(effect, Say):
                expected.setdefault(effect.to, []).append(effect.key)
    assert heard == expected
    for step in steps:
        for effect in step.effects:
            if isinstance(effect, Say) and effect.to.startswith("hand:"):
                assert step.event.reader == effect.to


def test_unknown_tag_is_answered_on_its_reader_and_changes_nothing(sim_config):
    table = open_table(load_config(sim_config))
    steps = []
    table.loop.listeners.append(steps.append)
    try:
        before = table.loop.state
        table.hub.simulated("hand:2").tap_and_remove("deadbeef01")
        assert table.loop.wait_processed(1)
        assert steps[0].effects[0] == Say("hand:2", "tap.unknown_tag") and not steps[0].journaled
        assert steps[0].uid == "deadbeef01"
        assert table.loop.state == before and table.loop.status.unknown_tags == 1
        assert any(a.key == "tag.unknown" for _, a in table.loop.status.alerts)
        table.hub.simulated("hand:2").tap_and_remove(sim_uid("heart-1"))  # the game goes on
        assert table.loop.wait_processed(2) and table.loop.report()["hands"]["2"] == ["heart-1"]
    finally:
        table.close()
    journaled = list(Journal(load_config(sim_config).journal).events(table.loop.status.game_id))
    assert [(e.reader, e.piece) for e in journaled] == [("hand:2", "heart-1")]  # the unknown tag is not there


def test_restart_resumes_the_unfinished_game_and_says_so(sim_config):
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    table, _ = fed(sim_config, lines[:20])
    state, game_id = table.loop.state, table.loop.status.game_id
    table.close()
    again = open_table(load_config(sim_config))
    try:
        again.voice.wait_idle(2)
        assert again.loop.status.resumed and again.loop.status.game_id == game_id
        assert again.loop.state == state
        assert ("speaker", "table.resuming") in [(o, ln.key) for o, ln in again.voice.transcript.lines]
    finally:
        again.close()


def test_undo_from_the_referee_is_journaled_and_replays(sim_config):
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    table, _ = fed(sim_config, lines[:17])
    before = table.loop.state
    SimTapper(table.loop, table.hub).perform(Referee("undo"))
    undone = table.loop.state
    assert undone != before
    SimTapper(table.loop, table.hub).perform(Referee("undo"))
    table.close()
    again = open_table(load_config(sim_config))
    try:
        assert again.loop.state == table.loop.state and again.loop.journaled_events == 18
    finally:
        again.close()


def test_a_reader_unplugged_mid_game_leaves_the_others_playing(tmp_path):
    port = Pty(tmp_path / "ttyHAND1")
    config = write_config(tmp_path, readers={
        "hand:1": f'path = "{port.link}"\nprotocol = "rdm6300"\nremoval_silence = 0.15'})
    table = open_table(load_config(config))
    table.announcer.hold_off = 0.2  # a loss is said once it lasts this long (3 s at a real table)
    try:
        wait_for(lambda: table.hub.health()["hand:1"].status == "ok", what="the serial reader to open")
        tapper = SimTapper(table.loop, table.hub)
        port.unplug()
        wait_for(lambda: table.hub.health()["hand:1"].status != "ok", what="hand:1 to be seen down")
        wait_for(lambda: any(line.key == "table.hand_reader_lost" for _, line in table.voice.transcript.lines),
                 what="the loss to be said, past the hold-off")
        from kikimimi.games.base import Scan

        tapper.perform(Scan("hand:2", "heart-3"))  # the others keep playing
        assert table.loop.report()["hands"]["2"] == ["heart-3"]
        port.plug()
        wait_for(lambda: table.hub.health()["hand:1"].status == "ok", what="hand:1 to come back")
        deck_uid = "0102030405"
        count = table.loop.processed
        port.write(rdm6300_frame(deck_uid))
        assert table.loop.wait_processed(count + 1)  # its taps count again (an unknown tag here)
        assert table.loop.status.unknown_tags == 1
        table.voice.wait_idle(5)
        said = [line.key for output, line in table.voice.transcript.lines if output == "speaker"]
        assert "table.hand_reader_lost" in said and "table.hand_reader_back" in said  # players are told
        assert said.index("table.hand_reader_lost") < said.index("table.hand_reader_back")
        texts = [line.text for output, line in table.voice.transcript.lines if output == "speaker"]
        assert "Seat 1's hand reader stopped. The Priest is told." in texts
    finally:
        table.close()
        port.close()


def test_an_audio_device_that_is_missing_falls_back_to_the_transcript(tmp_path):
    config = write_config(tmp_path, outputs='device = "no such sound card"\nchannels = [{channel}]')
    table = open_table(load_config(config))
    try:
        health = table.voice.health()
        assert all(h.status != "ok" for h in health.values())
        feed_script(SimTapper(table.loop, table.hub), (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines())
        assert table.loop.report()["phase"] == "over"  # the game went on
        table.voice.wait_idle(5)
        assert any(o == "speaker" and ln.key == "game.out" for o, ln in table.voice.transcript.lines)
    finally:
        table.close()


def test_start_to_ready_is_quick_on_the_simulated_table(sim_config):
    started = time.perf_counter()
    table = open_table(load_config(sim_config))
    table.close()
    assert table.ready_seconds <= time.perf_counter() - started  # measured, and reported by the bench
