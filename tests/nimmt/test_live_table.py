"""Ten bots play a whole game on the live simulated table (simulated readers, hub, deck, loop, journal,
voice in transcript mode), and each earphone hears only its own seat's phrases."""

from __future__ import annotations

import itertools
from dataclasses import replace

from kikimimi.games.base import FIELD, Say
from kikimimi.paths import data_dir
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper
from kikimimi.table.live import open_table
from kikimimi.voice.catalog import catalog


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
    assert set(heard) == set(expected) == {"speaker", *(f"hand:{seat}" for seat in range(1, 11))}
    for output, keys in expected.items():
        if output != "speaker":
            assert heard[output] == keys  # nothing private is dropped or reordered
    # The speaker may drop a phrase that a newer one of its supersession group replaced while it waited;
    # everything else is heard, in order.
    words = catalog("en", "nimmt")
    remaining = iter(expected["speaker"])
    for key in heard["speaker"]:
        skipped = list(itertools.takewhile(lambda k, key=key: k != key, remaining))
        assert all(words.group(k) for k in skipped), (key, skipped)
