"""A whole fed game on the live table with its field and first hand reader a PN532 over UART each, through
nfcpy's real tty transport and pn532 driver, against chips emulated on pseudo-terminals."""

from __future__ import annotations

import pytest
from device_helpers import wait_for
from table_helpers import SCRIPTS, write_config
from tapper_helpers import ReaderTapper

from kikimimi.table.config import load_config
from kikimimi.table.feed import feed_script
from kikimimi.table.live import open_table
from kikimimi.table.replay import replay

pytestmark = pytest.mark.hardware_emulation


def test_a_whole_fed_game_with_pn532_readers_on_the_live_table(pn532, tmp_path):
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    chips = {"field": pn532(), "hand:1": pn532()}
    config = write_config(tmp_path, readers={role: f'path = "{chip.path}"\nprofile = "pn532-uart"'
                                             for role, chip in chips.items()})
    table = open_table(load_config(config))
    try:
        wait_for(lambda: all(table.hub.health()[r].status == "ok" for r in chips), what="the PN532s to open")

        def on(chip):
            def place(uid):
                chip.tag = uid
                return lambda: setattr(chip, "tag", None)
            return place

        tapper = ReaderTapper(table.loop, table.hub, {role: on(chip) for role, chip in chips.items()},
                              same_tag_gap=0.3)
        feed_script(tapper, lines)
        expected = replay(lines, lang="en")
        assert table.loop.report() == {k: v for k, v in expected.report().items()
                                       if k not in ("spoken", "alerts", "refused_lines")}
        health = table.hub.health()
        for role in chips:
            assert health[role].taps == sum(f'"scan": "{role}"' in line for line in lines)
            assert health[role].errors == 0 and health[role].dropped == 0
    finally:
        table.close()
