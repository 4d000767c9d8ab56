"""Ten bots play a whole game on the live simulated table (simulated readers, hub, deck, loop, journal,
voice in transcript mode), and each earphone hears only its own seat's phrases."""

from __future__ import annotations

from dataclasses import replace

from kikimimi.games.base import FIELD, Say
from kikimimi.paths import data_dir
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper
from kikimimi.table.live import open_table


def test_ten_bots_play_a_game_and_every_earphone_hears_only_its_seat(tmp_path):
    config = load_config(data_dir("devices") / "tables" / "nimmt-sim.toml")
    config = replace(config, journal=tmp_path / "journal.sqlite", game_setup={**config.game_setup, "players": 10})
    table = open_table(config, transcript_only=True)
    try:
        loop = table.loop
        steps = []
        loop.listeners.append(steps.append)
        tapper = SimTapper(loop, table.hub)
        bots = loop.info.new_bots(7, dict(loop.session.setup), "random")
        for _ in range(2000):
            if loop.game.is_over(loop.state):
                break
            tapper.perform(bots.next_event(loop.state))
        assert loop.game.is_over(loop.state) and loop.state.players == 10
        table.voice.wait_idle(10)
        heard: dict[str, list[str]] = {}
        for output, line in table.voice.transcript.lines:
            heard.setdefault(output, []).append(line.key)
    finally:
        table.close()
    expected: dict[str, list[str]] = {}
    for step in steps:
        for effect in step.effects:
            if isinstance(effect, Say):
                expected.setdefault(effect.to, []).append(effect.key)
                if effect.to.startswith("hand:"):  # a seat's earphone answers its own reader, or its own choice
                    assert step.event.reader == effect.to or (
                        step.event.reader == FIELD and effect.key == "choose.you_chose")
    assert heard == expected
    assert set(heard) == {"speaker", *(f"hand:{seat}" for seat in range(1, 11))}
