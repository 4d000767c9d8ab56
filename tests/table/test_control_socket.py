"""The running table's control socket (issue 15, item 7): what it serves, to whom, and what it survives.

A real `kikimimi play` process on the simulated table; raw JSON lines and the console's RemoteLink talk to
its `<journal>.sock`. Bring-up and `devices watch` refuse while it runs.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import TableProcess, kikimimi, open_sim_table, write_config  # noqa: E402
from waiting import exited, wait_until  # noqa: E402

from kikimimi.console.link import RemoteLink  # noqa: E402
from kikimimi.games.base import SPEAKER, Referee, Say, Scan  # noqa: E402
from kikimimi.table.messages import Announcement, NewGame, PauseRequest  # noqa: E402
from kikimimi.table.server import MAX_LINE, connect  # noqa: E402

# (what is sent, what the error reply says): every one answered, none of them stops the table.
MALFORMED = [
    (b"garbage", "not a JSON line"),
    (b"[1, 2]", "a request is a JSON object"),
    (b'{"id": 3, "op": "launch"}', "unknown op 'launch'"),
    (b'{"id": 4}', "unknown op None"),
    (b'{"id": 5, "op": "submit", "event": {"scan": 5}}', "an event is"),
    (b'{"id": 6, "op": "submit"}', "an event is"),
    (b'{"id": 7, "op": "pause", "paused": "yes"}', '"paused" must be true or false'),
    (b'{"id": 8, "op": "set_level", "output": "speaker", "volume": "loud", "muted": false}', '"volume" must be'),
    (b'{"id": 9, "op": "set_level", "output": "hand:9", "volume": 0.5, "muted": false}', "no output 'hand:9'"),
    (b'{"id": 10, "op": "tap", "reader": "hand:1", "tag": "no-such-piece"}', "the deck has no tag for no-such-piece"),
    (b'{"id": 11, "op": "new_game", "setup": {"game": "chess"}}', "unknown game 'chess'"),
    (b'{"id": 12, "op": "new_game", "setup": 7}', '"setup" must be an object'),
    (b'{"id": 13, "op": "announce", "says": "hello"}', '"says" is a list'),
    (b'\xff\xfe{"id": 14}', "not a JSON line"),
    (b"[" * 100_000, "nested too deeply"),
    (b'{"id": 16, "op": "' + b"x" * 500_000 + b'"}', "unknown op 'xxx"),
]


class Lines:
    """A raw connection: one JSON object per line each way."""

    def __init__(self, path: Path) -> None:
        self.sock = connect(path, timeout=10)
        self.file = self.sock.makefile("rwb")

    def send(self, raw: bytes) -> None:
        self.file.write(raw + b"\n")
        self.file.flush()

    def ask(self, raw: bytes) -> dict:
        self.send(raw)
        return self.reply()

    def reply(self) -> dict:
        while True:
            message = json.loads(self.file.readline())
            if "push" not in message:
                return message

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """One table process for the tests that leave it running as they found it."""
    table = TableProcess(tmp_path_factory.mktemp("control") / "t").wait_ready()
    yield table
    assert table.stop() == 0
    assert "Traceback" not in table.stderr()
    assert not table.socket.exists()  # removed at close


def test_the_socket_is_its_owners_only_and_a_malformed_request_gets_an_error_while_the_table_goes_on(running):
    mode = running.socket.stat().st_mode
    assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
    raw = Lines(running.socket)
    try:
        for request, error in MALFORMED:
            reply = raw.ask(request)
            assert error in reply.get("error", ""), (request, reply)
            assert "Traceback" not in reply["error"] and len(reply["error"]) < 500  # a long value is echoed cut
            parsed = json.loads(request) if request.startswith(b"{") else None
            assert reply["id"] == (parsed or {}).get("id")
        reply = raw.ask(b"x" * (MAX_LINE * 3))  # one line too long: said, skipped, the next one served
        assert f"longer than {MAX_LINE} bytes" in reply["error"]
        assert raw.ask(b'{"id": 15, "op": "view"}')["view"]["game"] == "trident"
    finally:
        raw.close()
    before = len(running.events())
    again = Lines(running.socket)  # the table still serves, and still plays
    try:
        assert again.ask(b'{"id": 1, "op": "submit", "event": {"scan": "hand:3", "piece": "clover-1"}}') == \
            {"id": 1, "ok": True}
        wait_until(lambda: len(running.events()) != before, 5, "the tap in the journal", every=0.02)
        assert running.events()[-1] == {"scan": "hand:3", "piece": "clover-1"}
        assert again.ask(b'{"id": 2, "op": "submit", "event": {"referee": "undo"}}')["ok"]
        # the table as the next test finds it
        wait_until(lambda: running.events()[-1] == {"referee": "undo"}, 5, "the undo in the journal")
    finally:
        again.close()
    assert running.proc.poll() is None
    assert "Traceback" not in running.stderr()


def test_every_attached_console_gets_every_step_and_one_that_vanishes_disturbs_nothing(running):
    first, second = RemoteLink.attach(running.socket), RemoteLink.attach(running.socket)
    seen: dict[str, list[tuple[int, object]]] = {"first": [], "second": []}
    first.subscribe(lambda step: seen["first"].append((step.seq, step.event)))
    second.subscribe(lambda step: seen["second"].append((step.seq, step.event)))
    earlier = len(seen["first"])  # each got the game's steps so far first: the same ones
    assert seen["first"] == seen["second"]
    vanishing = Lines(running.socket)
    assert vanishing.ask(b'{"id": 1, "op": "subscribe"}')["ok"]
    try:
        events = first.view().events
        first.submit(Scan("hand:1", "heart-1"))
        # two consoles' requests have no order between them
        wait_until(lambda: len(seen["second"]) > earlier, 5, "the second console's step")
        vanishing.sock.close()  # gone without a word, with pushes waiting for it
        second.submit(Scan("hand:2", "heart-2"))
        second.submit(Referee("undo"))
        wait_until(lambda: min(len(seen["first"]), len(seen["second"])) >= earlier + 3, 5, "both consoles' steps")
        assert seen["first"] == seen["second"]
        assert [event for _, event in seen["first"][earlier:]] == [Scan("hand:1", "heart-1"),
                                                                  Scan("hand:2", "heart-2"), Referee("undo")]
        assert first.view().events == second.view().events == events + 1  # two taps, one undone
        assert running.events()[-3:] == [{"scan": "hand:1", "piece": "heart-1"},
                                          {"scan": "hand:2", "piece": "heart-2"}, {"referee": "undo"}]
        assert first.new_game({"game": "trident"})["game"] == "trident"  # and the table still answers
    finally:
        first.close()
        second.close()
    assert running.proc.poll() is None


def test_an_attached_console_gets_the_tables_own_steps_as_their_types(running):
    link = RemoteLink.attach(running.socket)
    steps = []
    link.subscribe(steps.append)
    earlier = len(steps)
    hello = Say(SPEAKER, "table.resuming")
    try:
        link.pause(True)
        link.pause(False)
        link.announce([hello])
        setup = link.new_game({"game": "trident"})
        def ours() -> list:  # from the first pause on: an earlier test's new game may still be on its way
            events = [step.event for step in steps[earlier:]]
            return steps[earlier + events.index(PauseRequest(True)):] if PauseRequest(True) in events else []

        wait_until(lambda: len(ours()) >= 4, 5, "four steps of our own")
        assert [step.event for step in ours()] == [PauseRequest(True), PauseRequest(False), Announcement((hello,)),
                                                   NewGame(setup)]
        assert all(step.seq == 0 and not step.journaled for step in ours())
    finally:
        link.close()
    assert running.proc.poll() is None


def test_a_stale_socket_from_a_killed_table_is_replaced_and_the_next_table_serves_its_game(tmp_path):
    table = TableProcess(tmp_path / "t").wait_ready()
    RemoteLink.attach(table.socket).submit(Scan("hand:1", "heart-1"))
    # The tap's own signal, the journal's row, before the kill (a clock here lost the race on a loaded machine).
    wait_until(table.events, 60, lambda: f"the tap to reach the journal: {table.stderr()}", every=0.02)
    table.stop(signal.SIGKILL)
    assert table.socket.exists()  # a killed table cannot remove it
    with pytest.raises(ConnectionRefusedError):
        connect(table.socket)

    again = TableProcess(table.folder).wait_ready()  # the lock is free (the kernel dropped it): start, replace
    try:
        link = RemoteLink.attach(again.socket)
        assert link.facts.pid == again.pid and link.view().events == 1  # the game resumed, served again
        link.close()
    finally:
        assert again.stop() == 0
    assert not again.socket.exists()


def test_bringup_and_devices_watch_refuse_while_the_table_runs(running):
    commands = {
        "kikimimi bringup": kikimimi("bringup", "--config", str(running.config), "--transcript", "--plain",
                                     "--seconds", "0.3"),
        "kikimimi devices watch": kikimimi("devices", "watch", "sim", "--config", str(running.config),
                                           "--seconds", "0.3"),
    }
    started = {name: subprocess.Popen(command, env=running.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True) for name, command in commands.items()}
    for name, proc in started.items():
        _, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 2, (name, stderr)
        [line] = stderr.strip().splitlines()  # one line
        assert line.startswith(f"{name}: the table is running (pid {running.pid}, started at ")
        assert f"`kill {running.pid}`" in line and "systemctl stop kikimimi" in line
    assert running.proc.poll() is None


def test_a_tool_on_the_readers_holds_the_lock_so_no_table_starts_under_it(tmp_path):
    config = write_config(tmp_path)
    journal = tmp_path / "journal.sqlite"
    env = {**os.environ, "KIKIMIMI_DATA": str(tmp_path / "data")}
    watch = subprocess.Popen(kikimimi("devices", "watch", "sim", "--config", str(config), "--seconds", "20"),
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # no table runs: it watches
        wait_until(lambda: f"{watch.pid} " in _holder(journal), 10, "the watcher to hold the lock")
        play = subprocess.run(kikimimi("play", "--config", str(config), "--text-only"), env=env,
                              capture_output=True, text=True, timeout=30)
        assert play.returncode == 2
        assert f"(pid {watch.pid}, started at " in play.stderr and "by kikimimi devices watch" in play.stderr
    finally:
        watch.send_signal(signal.SIGINT)  # Ctrl-C: it stops as it always did, and lets go of the lock
        watch.wait(timeout=15)
    assert watch.returncode == 0, watch.stderr.read()
    assert _holder(journal) == ""


def _holder(journal: Path) -> str:
    try:
        return Path(f"{journal}.lock").read_text()
    except OSError:
        return ""


def test_a_deep_data_folder_still_gets_its_socket(tmp_path, monkeypatch):
    """A Unix socket address holds about 100 bytes: a deeper journal is reached through its folder's fd."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    table = open_sim_table(deep)
    try:
        assert len(os.fsencode(table.control.path)) > 108
        link = RemoteLink.attach(table.control.path)
        assert link.facts.pid == os.getpid() and link.facts.journal == str(deep / "journal.sqlite")
        link.close()
    finally:
        table.close()
    assert not table.control.path.exists()
    assert socket.AF_UNIX  # (the address family every table serves)


def test_a_sigterm_while_the_table_opens_closes_it_cleanly(tmp_path):
    """A service stopped the moment it started: SIGTERM lands while `play` opens the table (its lock is
    taken, readers, voice and socket still coming). The table closes as on any stop: exit 0, no socket
    file left behind, the lock free for the next start."""
    table = TableProcess(tmp_path / "t")
    lock = Path(f"{table.journal}.lock")
    wait_until(lock.exists, 20, lambda: f"the table's lock: {table.stderr()}", every=0.002,  # open_table's first
               gone=exited(table.proc, "the table"))  # step: from here on it is opening
    table.proc.send_signal(signal.SIGTERM)
    assert table.proc.wait(timeout=20) == 0, table.stderr()
    assert not table.socket.exists()
    assert "Traceback" not in table.stderr()
    TableProcess(tmp_path / "t").wait_ready().proc.terminate()  # the next start takes the lock at once
