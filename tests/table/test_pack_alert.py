"""A table whose voice pack does not cover its game tells the Priest on the console, not only in the log."""

from __future__ import annotations

from device_helpers import wait_for
from table_helpers import write_config

from kikimimi.console.view import describe_alert
from kikimimi.table.config import load_config
from kikimimi.table.live import open_table


def test_a_pack_short_of_the_game_is_one_alert_for_the_priest_with_the_command(tmp_path):
    config = write_config(tmp_path)
    empty_pack = tmp_path / "pack"
    empty_pack.mkdir()
    text = config.read_text().replace('backend = "none"', f'backend = "espeak"\npack = "{empty_pack}"')
    config.write_text(text)
    table = open_table(load_config(config), transcript_only=True)
    try:
        def pack_alerts() -> list:
            return [alert for _, alert in table.loop.status.alerts if alert.key == "voice.pack_incomplete"]

        wait_for(lambda: pack_alerts(), what="the voice pack check at start")
        [alert] = pack_alerts()
        assert alert.params["game"] == "trident" and alert.params["held"] == 0 and alert.params["wanted"] > 0
        words = describe_alert(alert)
        assert f"kikimimi voices render --lang en --backend espeak --game trident --out {empty_pack}" in words
    finally:
        table.close()
