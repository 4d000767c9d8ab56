"""The web console without a browser: the evening's code, and what an unrevealed snapshot may hold.

The snapshot is made from a real table opened in this process (the simulated table, text only) through the
same control the socket serves; the page tests (test_web_console.py) drive it through Chromium.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import DEAL, deal_events, submit_all  # noqa: E402

from kikimimi.console.feed import TableFeed  # noqa: E402
from kikimimi.console.records import MeetingPanel  # noqa: E402
from kikimimi.console.web.access import ALL_WRONG_TRIES, WRONG_TRIES, Guesses, access_path, evening  # noqa: E402
from kikimimi.console.web.render import games_offered, snapshot  # noqa: E402
from kikimimi.games.registry import get_info  # noqa: E402
from kikimimi.table.control import TableControl  # noqa: E402
from kikimimi.voice.catalog import catalog  # noqa: E402


def test_the_evenings_code_is_kept_beside_the_journal_for_the_evening(tmp_path):
    journal = tmp_path / "journal.sqlite"
    tonight = evening(journal, now=1000.0)
    assert len(tonight.code) == 6 and tonight.code.isdigit()
    assert stat.S_IMODE(os.stat(access_path(journal)).st_mode) == 0o600  # the service user's only
    again = evening(journal, now=2000.0)  # a restarted table: the same code, the same cookies
    assert again == tonight
    assert tonight.admits(again.cookie, now=2000.0) and not tonight.admits("x" * 64, now=2000.0)
    assert tonight.matches(f"{tonight.code[:3]} {tonight.code[3:]}", now=2000.0)
    assert not tonight.admits(tonight.cookie, now=tonight.until + 1)  # the evening is over
    tomorrow = evening(journal, now=tonight.until + 1)
    assert tomorrow.key != tonight.key and not tomorrow.admits(tonight.cookie, now=tonight.until + 2)
    access_path(journal).write_text("not json")  # a damaged file is replaced, not trusted
    assert evening(journal, now=1000.0).key != tomorrow.key
    assert json.loads(access_path(journal).read_text())["code"].isdigit()


def test_guessing_the_code_is_braked_per_client_and_bounded_for_all():
    now = [0.0]
    guesses = Guesses(clock=lambda: now[0])
    for _ in range(WRONG_TRIES):
        assert guesses.wait("10.0.0.9") == 0
        guesses.wrong("10.0.0.9")
    assert guesses.wait("10.0.0.9") > 0  # the guesser is braked ...
    assert guesses.wait("10.0.0.2") == 0  # ... the Priest's device is not
    now[0] = 61.0
    assert guesses.wait("10.0.0.9") == 0
    # Many addresses guessing together: past ALL_WRONG_TRIES in the window, a client that guessed wrong
    # waits, one with no wrong code of its own (the Priest's) still tries.
    for n in range(ALL_WRONG_TRIES):
        guesses.wrong(f"10.1.{n // 200}.{n % 200}")
    assert guesses.wait("10.1.0.0") > 0 and guesses.wait("10.0.0.2") == 0
    now[0] = 200.0
    assert guesses.wait("10.1.0.0") == 0



def test_an_unrevealed_snapshot_holds_no_hand_and_no_private_line(table):
    control = TableControl(table)
    info = get_info("trident")
    feed = TableFeed(catalog("en", info.catalog))
    control.subscribe(feed.on_step)
    submit_all(table, deal_events())
    facts = control.describe()

    def snap(reveal: bool) -> str:
        return json.dumps(snapshot(view=control.view(), health=control.health(), facts=facts, info=info,
                                   lines=feed.lines(), alerts=control.view().alerts,
                                   meeting=MeetingPanel(), reveal=reveal))

    hidden, shown = snap(False), snap(True)
    dealt = [piece for pieces in DEAL.values() for piece in pieces]
    # Piece ids are in the game's list of pieces (printed on them); a hand's piece must not be anywhere else.
    listed = json.dumps(info.pieces)
    for piece in dealt:
        assert hidden.count(f'"{piece}"') == listed.count(f'"{piece}"'), piece
        assert piece not in json.dumps(json.loads(hidden)["table"])
    assert all(piece in json.dumps(json.loads(shown)["table"]) for piece in dealt)  # revealed: the hands are there
    said = json.loads(hidden)["said"]
    assert "(private line)" in said["hand:1"] and "(private line)" not in json.loads(shown)["said"]["hand:1"]


def test_the_new_game_form_offers_what_this_table_can_seat():
    offered = {g["id"]: g for g in games_offered("en", seats=3)}
    players = next(k for k in offered["nimmt"]["keys"] if k["name"] == "players")
    assert players["choices"] == [2, 3] and players["default"] == 3
    first = next(k for k in offered["nimmt"]["keys"] if k["name"] == "first")
    assert first["choices"] == [1, 2, 3]
    assert offered["trident"]["fits"] and not {g["id"] for g in games_offered("en", seats=1) if g["fits"]}


def test_health_cards_carry_status_levels_and_underruns():
    from kikimimi.console.web.render import health_json
    from kikimimi.devices.events import ReaderHealth
    from kikimimi.table.control import TableHealth
    from kikimimi.voice.router import OutputHealth

    health = TableHealth({"hand:1": ReaderHealth("hand:1", "usb:1-2", "nfcpy", "reconnecting", "unplugged", 4, 1)},
                         {"speaker": OutputHealth("ok", "hw:1", 17), "hand:1": OutputHealth("fallback", "gone")},
                         {"speaker": (0.8, False), "hand:1": (1.0, True)}, (2, 41.5))
    cards = health_json(health)
    assert cards["readers"]["hand:1"] == {"status": "reconnecting", "taps": 4, "errors": 1, "dropped": 0,
                                          "detail": "unplugged"}
    assert cards["outputs"]["speaker"] == {"status": "ok", "underruns": 17, "detail": "", "volume": 0.8,
                                           "muted": False}
    assert cards["outputs"]["hand:1"]["muted"] is True and cards["outputs"]["hand:1"]["detail"] == "gone"
    assert cards["clock"] == [2, 41.5]


def test_panels_become_escaped_html_with_classes_only():
    """What a player or a game may have written (a name, a report value) is text on the page, never markup;
    the terminal's styles become classes (the page's CSP allows no inline style)."""
    from rich.table import Table
    from rich.text import Text

    from kikimimi.console.web.render import to_html

    # The base style (bold) holds for the whole text.
    text = Text("Seat 1 ", "bold").append("<img src=x onerror=alert(1)>", "yellow")
    assert to_html(text) == ('<span class="b">Seat 1 </span>'
                             '<span class="b c-yellow">&lt;img src=x onerror=alert(1)&gt;</span>')
    table = Table("player", "points")
    table.add_row("<b>Aki</b>", "12")
    shown = to_html(table)
    assert "&lt;b&gt;Aki&lt;/b&gt;" in shown and "<b>" not in shown and "style=" not in shown
