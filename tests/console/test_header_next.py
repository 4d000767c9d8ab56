"""After a penalty out of turn the console's header and its "Next" line name the same seat (issue 15, item 14).

A seat that plays out of turn owes two draws and the table waits for that seat's draws (field taps wait),
while the engine's `turn` stays with the seat that moves afterwards. The header said "To move" that seat
(and put ▶ on it); the guide's Next line named the drawer. Both now come from one function.
"""

from __future__ import annotations

import re

from console_helpers import drive, known_position, settle, shown, submit_all

from kikimimi.games.base import Referee, Scan


def seats_named(app) -> tuple[int, int, int]:
    """(the header's seat, the seat marked ▶, the seat of the first Next line) as the screen shows them."""
    state, guide = shown(app, "#state"), shown(app, "#guide")
    header = re.search(r"to move Seat (\d)", state)
    marker = re.search(r"^▶ Seat (\d)", state, re.M)
    next_line = re.search(r"^Next: Seat (\d)", guide, re.M)
    assert header and marker and next_line, (state, guide)
    return int(header[1]), int(marker[1]), int(next_line[1])


def test_after_a_penalty_out_of_turn_the_header_and_next_name_the_drawer(table):
    async def script(app, pilot):
        submit_all(table, known_position())
        await settle(pilot, table)
        assert seats_named(app) == (3, 3, 3)  # seat 3 to move

        submit_all(table, [Scan("field", "heart-2")])  # seat 1's piece, in seat 3's turn: a wrong play
        await settle(pilot, table)
        assert table.loop.report()["turn"] == 3  # the engine keeps the turn with seat 3 ...
        assert seats_named(app) == (1, 1, 1)  # ... but waits for seat 1's two draws: all three say so
        assert "Then seat 3 to move" in shown(app, "#state")
        submit_all(table, [Scan("hand:3", app.basket()[0])])  # seat 3 cannot draw now
        await settle(pilot, table)
        assert seats_named(app) == (1, 1, 1)

        for piece in app.basket()[:2]:  # seat 1 draws what it owes
            submit_all(table, [Scan("hand:1", piece)])
        await settle(pilot, table)
        assert table.loop.report()["phase"] == "turn"
        assert seats_named(app) == (3, 3, 3)

        submit_all(table, [Referee("penalty", {"seat": 2})])  # the Priest's penalty, still in seat 3's turn
        await settle(pilot, table)
        assert seats_named(app) == (2, 2, 2)

    drive(table, script)
