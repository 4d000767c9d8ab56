"""`play --console --web`: the terminal console shows where the web console is and, on c (asked first, as
hands are), the evening's code and its QR code: Textual clears what was printed before it started. The
web console is the real one served beside the simulated table, and its code opens it."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import drive, screen_text, settle  # noqa: E402

from kikimimi.app import console_cli as cli  # noqa: E402


def test_the_code_is_on_the_terminal_console_when_the_priest_asks(table, capsys):
    beside = cli._web_beside(table, "127.0.0.1:0")  # what `play --web` starts before the terminal console
    try:
        address = cli._web_here[0]
        assert address is beside.address and address.url.startswith("http://127.0.0.1:")
        code = address.code
        capsys.readouterr()

        async def script(app, pilot):
            await settle(pilot, table)
            screen = screen_text(app)
            assert address.url in screen and "c: code" in screen
            assert address.spaced_code not in screen and code not in screen  # players may see the screen
            await pilot.press("c")
            await settle(pilot, table)
            assert address.spaced_code not in screen_text(app)  # asked first
            await pilot.press("y")
            await settle(pilot, table)
            shown = screen_text(app)
            assert address.spaced_code in shown and "Scan to open it logged in" in shown
            assert "▄" in shown or "▀" in shown  # the QR code's half blocks
            await pilot.press("n")  # a new code, on the Priest's request: the running web console takes it
            await settle(pilot, table)
            renewed.append(address.current())
            assert renewed[0].code != code and renewed[0].spaced_code in screen_text(app)
            await pilot.press("escape")
            await settle(pilot, table)
            assert renewed[0].spaced_code not in screen_text(app)

        renewed: list = []
        drive(table, script, web=address)
        # The code shown last is the one the web console takes; the first one is now expired.
        login = httpx.post(f"{address.url}/api/login", json={"code": renewed[0].code}, headers={"Origin": address.url})
        assert login.status_code == 200
        old = httpx.post(f"{address.url}/api/login", json={"code": code}, headers={"Origin": address.url})
        assert old.status_code == 401 and old.json()["why"] == "expired"
    finally:
        beside()
        cli._web_here.clear()


def test_no_code_key_without_a_web_console(table):
    async def script(app, pilot):
        await settle(pilot, table)
        assert "web code" not in screen_text(app)
        await pilot.press("c")
        await settle(pilot, table)
        assert "Show the web console's code" not in screen_text(app)

    drive(table, script)
