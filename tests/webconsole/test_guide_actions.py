"""The guide names an action the way each console offers it: the terminal by its key ("press n"), the web
page by its button ("tap “New game”", in the page's language): one guide, no "Press n" on a tablet."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import deal_events, drive, settle, shown, submit_all  # noqa: E402

from kikimimi.console.guide import say_guide  # noqa: E402
from kikimimi.console.web.render import guide_html  # noqa: E402
from kikimimi.console.words import words  # noqa: E402
from kikimimi.games.base import Referee, Scan  # noqa: E402
from kikimimi.games.trident.guide import console_guide  # noqa: E402


def test_the_web_page_gets_the_button_and_the_text_escaped():
    over = say_guide(console_guide({"phase": "over", "rules": "standard"}, None), words("en"))
    page = guide_html([*over, "Seat <1> & co"], words("en"))
    assert 'For a new game, tap “<span data-t="new_game">New game</span>”.' in page
    assert "Seat &lt;1&gt; &amp; co" in page and "press" not in page.lower() and "{" not in page
    ja = guide_html(say_guide(console_guide({"phase": "over", "rules": "standard"}, None), words("ja")), words("ja"))
    assert '新しいゲームは「<span data-t="new_game">新しいゲーム</span>」をタップ。' in ja


def test_the_terminal_names_the_key(table):
    async def script(app, pilot):
        submit_all(table, [*deal_events(), Scan("field", "heart-3")])
        await settle(pilot, table)
        submit_all(table, [Referee("end")])
        await settle(pilot, table)
        guide = shown(app, "#guide")
        assert "For a new game, press n." in guide and "{" not in guide

    drive(table, script)
