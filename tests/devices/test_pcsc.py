"""PC/SC readers through the real pcscd and pyscard, with vpcd's virtual readers and cards that are TCP
clients of them (testbed/vpcd.py). The pcscd is the machine's one, shared by the test processes."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from device_helpers import events_until_quiet, summary, wait_for

from kikimimi.devices.config import parse_readers
from kikimimi.devices.hub import Hub

pytestmark = pytest.mark.hardware_emulation


def hub_of(readers: dict[str, str], **kw) -> Hub:
    return Hub(parse_readers({role: {"path": path} for role, path in readers.items()}, "test"), **kw)


def next_tap(hub: Hub, limit: float = 3.0):
    end = time.monotonic() + limit
    while (event := hub.get(max(0.0, end - time.monotonic()))) is not None:
        if event.kind == "tap":
            return event
    raise AssertionError("no tap")


def ok(hub: Hub, *roles: str) -> None:
    for role in roles:
        wait_for(lambda r=role: hub.health()[r].status == "ok", what=f"{role} to open")


def test_taps_and_removals_with_4_and_7_byte_uids_on_two_readers_at_once(pcscd):
    with pcscd.in_use():
        first, second = pcscd.lease()
        with hub_of({"field": first.path, "hand:1": second.path}, debounce=0.05) as hub:
            ok(hub, "field", "hand:1")
            a, b = first.card("04a1b2c3d4e5f6"), second.card("1a2b3c4d")
            a.place()
            b.place()
            got = {(e.reader, e.kind, e.uid) for e in [hub.get(3), hub.get(3)]}
            assert got == {("field", "tap", "04a1b2c3d4e5f6"), ("hand:1", "tap", "1a2b3c4d")}
            a.lift()
            b.lift()
            assert sorted(summary(events_until_quiet(hub, quiet=1.0))) == [
                ("field", "removed", "04a1b2c3d4e5f6"), ("hand:1", "removed", "1a2b3c4d")]
            assert hub.health()["field"].taps == 1 and hub.health()["hand:1"].taps == 1


def test_a_card_without_uid_is_reported_once_never_a_tap(pcscd):
    with pcscd.in_use():
        reader, _ = pcscd.lease()
        with hub_of({"field": reader.path}, debounce=0.05) as hub:
            ok(hub, "field")
            with reader.card(None):  # answers FF CA with 6A 81, as a contact card does
                time.sleep(1.0)  # two of pcscd's presence polls: still one report
            events = events_until_quiet(hub, quiet=0.8)
            assert [(e.kind, e.uid) for e in events] == [("unreadable", "")]
            assert "6A 81" in events[0].detail
            assert hub.health()["field"].taps == 0
            with reader.card("04112233"):  # the next card reads as usual
                assert next_tap(hub).uid == "04112233"


def test_a_path_matching_no_reader_or_several_is_refused_with_the_names_found(pcscd):
    with pytest.raises(ValueError, match=r"no PC/SC reader matches 'RC-S999'.*readers found: .*PaSoRi 4.0"):
        hub_of({"field": "pcsc:RC-S999"})
    with pytest.raises(ValueError, match=r"'PaSoRi' matches \d+ PC/SC readers"):
        hub_of({"field": "pcsc:PaSoRi"})


def test_identical_readers_are_told_apart_by_the_serial_number_in_their_name(pcscd):
    """Two readers of one model (the same name but for the serial number pcscd puts in it)."""
    with pcscd.in_use():
        one = pcscd.lease(0)[0]
        two = pcscd.lease(1)[0]
        assert one.name.replace("0A1B2C01", "") == two.name.replace("0A1B2C02", "")
        with hub_of({"hand:1": "pcsc:(0A1B2C01) 00 00", "hand:2": "pcsc:(0A1B2C02) 00 00"}, debounce=0) as hub:
            ok(hub, "hand:1", "hand:2")
            with two.card("0499"):
                event = next_tap(hub)
            assert (event.reader, event.uid) == ("hand:2", "0499")
            with one.card("0411"):
                event = next_tap(hub)
            assert (event.reader, event.uid) == ("hand:1", "0411")


def test_pcscd_down_at_start_then_restarted_under_the_reader_and_a_reader_unplugged(pcscd):
    """pcscd not running: the reader says how to start it, and reads once it runs. pcscd restarted under a
    running hub: the reader reopens by itself. Its reader gone from pcscd, then back: the same."""
    with pcscd.restarting():  # not in_use(): this test restarts pcscd, which waits for every in_use() to end
        _down_restarted_unplugged(pcscd, pcscd.lease()[0])


def _down_restarted_unplugged(pcscd, reader) -> None:
    seen = []
    with pcscd.stopped():
        hub = hub_of({"field": reader.path}, on_health=lambda role, h: seen.append((h.status, h.detail)))
        hub.start()
        wait_for(lambda: hub.health()["field"].status == "failed", what="the reader to fail")
        assert "systemctl enable --now pcscd" in hub.health()["field"].detail
    try:
        wait_for(lambda: hub.health()["field"].status == "ok", limit=15, what="the reader once pcscd runs")
        with reader.card("0401"):
            assert next_tap(hub).uid == "0401"
        errors = hub.health()["field"].errors
        pcscd.restart(down_for=0.3)
        wait_for(lambda: hub.health()["field"].errors > errors, what="the restart to be seen")
        wait_for(lambda: hub.health()["field"].status == "ok", what="the reader back after the restart")
        with reader.card("0402"):
            assert [e.uid for e in events_until_quiet(hub, quiet=0.8) if e.kind == "tap"] == ["0402"]
        pcscd.restart(down_for=0.0, without=(reader.entry,))  # its reader is not plugged in
        wait_for(lambda: "no PC/SC reader matches" in hub.health()["field"].detail, what="the reader missing")
        pcscd.restart(down_for=0.0)
        wait_for(lambda: hub.health()["field"].status == "ok", what="the reader plugged in again")
        with reader.card("0403"):
            assert [e.uid for e in events_until_quiet(hub, quiet=0.8) if e.kind == "tap"] == ["0403"]
    finally:
        hub.stop()


def test_a_reader_that_stops_answering_is_stalled_reopened_and_reads_again(pcscd):
    with pcscd.in_use():
        reader, _ = pcscd.lease()
        with hub_of({"field": reader.path}, debounce=0, stall_after=1.0) as hub:
            ok(hub, "field")
            stuck = reader.card("04aa")
            stuck.silent.set()  # the card never answers FF CA: pcscd's reader, and our read, hang
            stuck.place()
            wait_for(lambda: hub.health()["field"].status == "stalled", what="the stall to be seen")
            stuck.lift()  # the hung exchange fails; the reopened reader carries on
            wait_for(lambda: hub.health()["field"].status == "ok", what="the reopened reader")
            with reader.card("04bb"):
                taps = [e.uid for e in events_until_quiet(hub, quiet=0.8) if e.kind == "tap"]
            assert taps == ["04bb"]


def test_devices_watch_and_list_show_pcsc_readers(pcscd):
    with pcscd.in_use():
        reader, _ = pcscd.lease()
        listed = subprocess.run([sys.executable, "-m", "kikimimi", "devices", "list"], capture_output=True,
                                text=True, timeout=60)
        assert f"pcsc:{reader.name}" in listed.stdout
        watch = subprocess.Popen([sys.executable, "-m", "kikimimi", "devices", "watch", reader.path, "--json",
                                  "--count", "1"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = ""
            end = time.monotonic() + 30
            while "ok:" not in line and time.monotonic() < end and watch.poll() is None:
                line = watch.stderr.readline()
            with reader.card("04c0ffee"):
                out, err = watch.communicate(timeout=15)
        finally:
            watch.kill()
        assert out, f"no output; stderr: {line} {err}"
        record = json.loads(out.splitlines()[0])
        assert (record["reader"], record["uid"], record["event"]) == (reader.path, "04c0ffee", "tap")


def test_play_refuses_a_pcsc_name_that_matches_no_reader_in_one_line_and_opens_nothing(pcscd, tmp_path):
    from table_helpers import write_config

    config = write_config(tmp_path, readers={"field": 'path = "pcsc:RC-S999 (NOPE)"'})
    proc = subprocess.run([sys.executable, "-m", "kikimimi", "play", "--config", str(config), "--text-only"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("kikimimi: pcsc:RC-S999 (NOPE): no PC/SC reader matches") and "readers found:" in line
    assert "Traceback" not in proc.stderr
    again = subprocess.run([sys.executable, "-m", "kikimimi", "play", "--config", str(config), "--text-only"],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "no PC/SC reader matches" in again.stderr  # the lock was let go
