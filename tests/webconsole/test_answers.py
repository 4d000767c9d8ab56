"""Actions that cannot do the wrong thing, through the web console's own HTTP API on a real table.

The table is the simulated one in this process (its control socket is the one `play --web` serves); the
web console is the real uvicorn server attached to it over that socket, as on a table. Undo names and takes
back the last *accepted* event; an undo asked against a table that has moved on is refused; every action
waits for the table's answer and says it, refused ones with the reason.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import journaled, submit_all  # noqa: E402
from waiting import wait_until  # noqa: E402
from web_helpers import serving_app  # noqa: E402

from kikimimi.console.web.access import evening  # noqa: E402
from kikimimi.console.web.server import create_app  # noqa: E402
from kikimimi.games.base import Referee, Scan  # noqa: E402
from kikimimi.table.server import socket_path  # noqa: E402


class Tablet:
    """One tablet's view of the console: logged in, reading snapshots, acting."""

    def __init__(self, url: str, code: str) -> None:
        self.url = url
        self.client = httpx.Client(base_url=url, timeout=10, headers={"Origin": url})
        answer = self.client.post("/api/login", json={"code": code})
        assert answer.status_code == 200, answer.text

    def snapshot(self, reveal: bool = False, after: int = -1) -> dict[str, Any]:
        """The first snapshot of a fresh stream whose table is attached and past version `after`."""
        return wait_until(lambda: self._first_snapshot(reveal, after), 10, "a snapshot of the attached table",
                          every=0.05)

    def _first_snapshot(self, reveal: bool, after: int) -> dict[str, Any] | None:
        """A fresh stream's first snapshot when its table is attached and past version `after`, else None."""
        with self.client.stream("GET", f"/api/events?reveal={int(reveal)}") as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    data = json.loads(line[6:])
                    return data if data.get("connected") and data["version"] > after else None
        return None

    def act(self, **body: Any) -> httpx.Response:
        return self.client.post("/api/act", json=body)

    def close(self) -> None:
        self.client.close()


@pytest.fixture
def console(table, tmp_path: Path) -> Iterator[str]:
    journal = Path(table.config.journal)
    app = create_app(socket_path(journal), evening(journal), language="en")
    with serving_app(app) as url:
        yield url


def tablet(url: str, table) -> Tablet:
    return Tablet(url, evening(Path(table.config.journal)).code)


def undos(table) -> list[Any]:
    return [e for e in journaled(table) if isinstance(e, Referee) and e.action == "undo"]


def test_undo_names_and_takes_back_the_last_accepted_event(table, console):
    # heart-1 and heart-2 dealt to seat 1; spade-1 on the field is refused during the deal.
    submit_all(table, [Scan("hand:1", "heart-1"), Scan("hand:1", "heart-2"), Scan("field", "spade-1")])
    priest = tablet(console, table)
    shown = priest.snapshot(reveal=True)
    assert "heart-2" in shown["undo"]["event"] and "spade-1" not in shown["undo"]["event"]
    hidden = priest.snapshot(reveal=False)
    assert "heart-2" not in json.dumps(hidden["undo"])  # a piece in a hand is named only when revealed
    answer = priest.act(do="undo", at=shown["undo"]["at"])
    assert answer.status_code == 200, answer.text
    assert answer.json()["answer"] == "done"
    assert table.loop.session.events == [Scan("hand:1", "heart-1", table.loop.session.events[0].uid)]
    priest.close()


def test_undo_is_not_offered_when_every_event_was_refused(table, console):
    submit_all(table, [Scan("field", "spade-1"), Scan("field", "heart-4")])  # refused during the deal
    priest = tablet(console, table)
    priest.snapshot()
    answer = priest.act(do="undo")
    assert answer.status_code == 409 and "nothing to undo" in answer.json()["error"].lower()
    assert undos(table) == []  # never reached the table
    assert priest.snapshot()["undo"] is None  # the page does not offer it
    priest.close()


def test_a_second_tablets_stale_undo_is_refused(table, console):
    submit_all(table, [Scan("hand:1", "heart-1"), Scan("hand:1", "heart-2")])
    first, second = tablet(console, table), tablet(console, table)
    seen_by_first, seen_by_second = first.snapshot(), second.snapshot()
    asked = (seen_by_second.get("undo") or {}).get("at")  # what the second tablet's dialog names
    assert first.act(do="undo", at=(seen_by_first.get("undo") or {}).get("at")).status_code == 200
    stale = second.act(do="undo", at=asked)  # its dialog still names heart-2
    assert stale.status_code == 409, stale.text
    assert "moved on" in stale.json()["error"]
    assert len(undos(table)) == 1
    assert len(table.loop.session.events) == 1  # heart-1 is still dealt
    first.close()
    second.close()


def test_a_refused_action_answers_refused_with_the_reason(table, console):
    priest = tablet(console, table)
    priest.snapshot()
    answer = priest.act(do="referee", action="penalty", params={"seat": 2})  # during the deal
    assert answer.status_code == 409, answer.text
    assert answer.json()["answer"] == "refused" and "turn" in answer.json()["error"]
    done = priest.act(do="referee", action="forgot")
    assert done.status_code in (200, 409) and done.json()["answer"] in ("done", "refused")
    priest.close()
