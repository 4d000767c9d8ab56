"""A whole fed game on the live table with its field and first hand reader on PC/SC (the real pcscd, vpcd
readers, virtual cards): every one of their taps goes through pcscd, pyscard, the hub and the deck."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from device_helpers import wait_for

from kikimimi.devices.vpcd import VirtualCard, VirtualReader
from kikimimi.table.config import load_config
from kikimimi.table.feed import SimTapper, feed_script
from kikimimi.table.live import open_table
from kikimimi.table.replay import replay

sys.path.insert(0, str(Path(__file__).parents[1] / "table"))
from table_helpers import SCRIPTS, write_config  # noqa: E402

pytestmark = pytest.mark.hardware_emulation


class CardTapper(SimTapper):
    """Taps on the roles in `readers` are cards put on (and lifted from) those vpcd readers; the rest
    are simulated readers as in any fed game."""

    def __init__(self, loop, hub, readers: dict[str, VirtualReader]) -> None:
        super().__init__(loop, hub, timeout=10.0)
        self.readers = readers
        self._on: VirtualCard | None = None

    def perform(self, event) -> None:
        super().perform(event)
        if self._on is not None:  # taken: lift it (the next card on that reader waits for pcscd to see it go)
            self._on.lift()
            self._on = None

    def _tap(self, reader: str, uid: str) -> None:
        if reader not in self.readers:
            return super()._tap(reader, uid)
        key = (reader, uid)
        last = self._last_tap.get(key)
        if last is not None:  # the same card again on the same reader: past the debounce of its removal
            time.sleep(max(0.0, self.debounce + 1.0 - (time.monotonic() - last)))
        self._on = self.readers[reader].card(uid)
        self._on.place()
        self._last_tap[key] = time.monotonic()


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
            tapper = CardTapper(table.loop, table.hub, {"field": field, "hand:1": hand})
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
