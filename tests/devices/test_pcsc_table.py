"""A whole fed game on the live table with its field and first hand reader on PC/SC (the real pcscd, vpcd
readers, virtual cards): every one of their taps goes through pcscd, pyscard, the hub and the deck."""

from __future__ import annotations

import time

import pytest
from device_helpers import wait_for
from table_helpers import SCRIPTS, write_config
from tapper_helpers import ReaderTapper

from kikimimi.table.config import load_config
from kikimimi.table.feed import feed_script
from kikimimi.table.live import open_table
from kikimimi.table.replay import replay

pytestmark = pytest.mark.hardware_emulation


def test_a_whole_fed_game_with_pcsc_readers_on_the_live_table(pcscd, tmp_path):
    lines = (SCRIPTS / "trident_full_game.jsonl").read_text().splitlines()
    with pcscd.in_use():
        field, hand = pcscd.lease()
        config = write_config(tmp_path, readers={"field": f'path = "{field.path}"',
                                                 "hand:1": f'path = "pcsc:{hand.name}"\nprofile = "rcs300"'})
        table = open_table(load_config(config))
        try:
            wait_for(lambda: all(table.hub.health()[r].status == "ok" for r in ("field", "hand:1")),
                     what="the PC/SC readers to open")
            def on(reader):
                def place(uid):
                    card = reader.card(uid)
                    card.place()
                    return card.lift
                return place

            # pcscd sees a card go within its 0.4 s presence poll: the same card again waits that out
            tapper = ReaderTapper(table.loop, table.hub, {"field": on(field), "hand:1": on(hand)}, same_tag_gap=1.0)
            feed_script(tapper, lines)
            expected = replay(lines, lang="en")
            assert table.loop.report() == {k: v for k, v in expected.report().items()
                                           if k not in ("spoken", "alerts", "refused_lines")}
            health = table.hub.health()
            assert health["field"].taps == sum('"scan": "field"' in line for line in lines)
            assert health["hand:1"].taps == sum('"scan": "hand:1"' in line for line in lines)
            # A card that gives no UID: one alert for the Priest, no tap, the game state untouched.
            state, taps = table.loop.state, health["field"].taps
            with field.card(None):
                wait_for(lambda: any(a.key == "reader.unreadable" for _, a in table.loop.status.alerts),
                         what="the alert")
                time.sleep(0.9)
            alerts = [a for _, a in table.loop.status.alerts if a.key == "reader.unreadable"]
            assert [a.params["reader"] for a in alerts] == ["field"]
            assert table.loop.state == state and table.hub.health()["field"].taps == taps
        finally:
            table.close()
