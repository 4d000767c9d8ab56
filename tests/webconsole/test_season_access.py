"""Access for a whole season (issue 32, item 4; issue 31, defects 5 and 6), against the real uvicorn server
the table runs (no table attached: login and streams need none).

The code renews by itself once it has run out and when the Priest asks from the terminal (`console
--new-code`), without a restart; the login says why it fails; the brake on wrong codes is per client, so a
guesser on another address never keeps the Priest's right code out; a body nested past the JSON parser's
depth answers 400; the cap on following pages is exact under simultaneous requests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from waiting import wait_until
from web_helpers import serving_app, write_config

from kikimimi.console.web.access import WRONG_TRIES, Access, access_path
from kikimimi.console.web.server import MAX_STREAMS, create_app


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Access, Path]]:
    journal = tmp_path / "journal.sqlite"
    access = Access(journal)
    app = create_app(tmp_path / "no-table.sock", access, language="en")
    with serving_app(app) as url:
        yield url, access, journal


def client_from(url: str, address: str) -> httpx.Client:
    """A client whose requests come from `address` (another device on the club's network)."""
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=address), timeout=10,
                        headers={"Origin": url})


def login(client: httpx.Client, code: str) -> httpx.Response:
    return client.post("/api/login", json={"code": code})


def test_a_guesser_on_another_address_cannot_lock_the_priest_out(served):
    url, access, _ = served
    phone, priest = client_from(url, "127.0.0.9"), client_from(url, "127.0.0.2")
    for _ in range(WRONG_TRIES):
        answer = login(phone, "000000" if access.current().code != "000000" else "111111")
        assert answer.status_code == 401 and answer.json()["why"] == "wrong"
        assert "Wrong code" in answer.json()["error"]
    locked = login(phone, access.current().code)  # even the right code: this device guessed too often
    assert locked.status_code == 429 and locked.json()["why"] == "locked" and "try again in" in locked.json()["error"]
    assert login(priest, access.current().code).status_code == 200  # the Priest's device gets in
    assert priest.get("/api/session").json()["admitted"] is True
    phone.close()
    priest.close()


def test_the_code_renews_without_a_restart_and_the_old_one_is_called_expired(served, tmp_path):
    url, access, journal = served
    first = access.current().code
    tablet = client_from(url, "127.0.0.3")
    assert login(tablet, first).status_code == 200
    # The Priest asks for a new code from the terminal (another process, as on a table run by its service).
    config = write_config(tmp_path)  # its journal is the served one (tmp_path / journal.sqlite)
    made = subprocess.run([sys.executable, "-m", "kikimimi", "console", "--config", str(config), "--new-code"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "KIKIMIMI_DATA": str(tmp_path)})
    assert made.returncode == 0, made.stderr
    second = json.loads(access_path(journal).read_text())["code"]
    assert second != first and f"{second[:3]} {second[3:]}" in made.stdout
    assert tablet.get("/api/session").json()["admitted"] is False  # the old cookie went with the old code
    old = login(tablet, first)
    assert old.status_code == 401 and old.json()["why"] == "expired" and "expired" in old.json()["error"]
    assert login(tablet, second).status_code == 200
    # The code runs out (the fixed hour passed): the next request makes the next one by itself.
    data = json.loads(access_path(journal).read_text())
    data["until"] = time.time() - 1
    access_path(journal).write_text(json.dumps(data))
    assert tablet.get("/api/session").json()["admitted"] is False
    third = access.current().code
    assert third != second and login(tablet, second).json()["why"] == "expired"
    assert login(tablet, third).status_code == 200
    # The QR code's link with the expired code: the page is told why.
    link = tablet.get(f"/?code={second}", follow_redirects=False)
    assert link.status_code == 303 and link.headers["location"].startswith("/?login=expired")
    tablet.close()


def test_the_renewal_hour_is_a_fixed_local_hour():
    now = time.mktime((2026, 11, 28, 18, 30, 0, 0, 0, -1))
    until = time.localtime(evening_until(now))
    assert (until.tm_mday, until.tm_hour, until.tm_min) == (29, 12, 0)
    morning = time.mktime((2026, 11, 29, 11, 30, 0, 0, 0, -1))  # less than an hour before noon: tomorrow's
    assert time.localtime(evening_until(morning)).tm_mday == 30


def evening_until(now: float) -> float:
    from kikimimi.console.web.access import renewal_after

    return renewal_after(now)


def test_a_deeply_nested_body_is_a_400_not_a_500(served):
    url, access, _ = served
    nested = ("[" * 8000 + "]" * 8000).encode()
    client = client_from(url, "127.0.0.4")
    headers = {"Content-Type": "application/json"}
    assert client.post("/api/login", content=nested, headers=headers).status_code == 400
    assert login(client, access.current().code).status_code == 200
    answer = client.post("/api/act", content=nested, headers=headers)
    assert answer.status_code == 400 and "nested" in answer.json()["error"]
    client.close()


def test_the_cap_on_following_pages_is_exact(served):
    url, access, _ = served
    client = client_from(url, "127.0.0.5")
    assert login(client, access.current().code).status_code == 200
    cookies = dict(client.cookies)
    client.close()
    statuses: list[int] = []
    go, done = threading.Event(), threading.Event()
    lock = threading.Lock()

    def follow() -> None:
        with httpx.Client(base_url=url, cookies=cookies, timeout=10) as page:
            go.wait()
            with page.stream("GET", "/api/events") as answer:
                with lock:
                    statuses.append(answer.status_code)
                done.wait(10)  # hold the stream open until every page has its answer

    pages = [threading.Thread(target=follow) for _ in range(MAX_STREAMS + 4)]
    for page in pages:
        page.start()
    go.set()
    wait_until(lambda: len(statuses) >= len(pages), 15, "every page's answer", every=0.02)
    done.set()
    for page in pages:
        page.join(15)
    assert sorted(statuses).count(200) == MAX_STREAMS and statuses.count(503) == 4
