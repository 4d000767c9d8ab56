"""nfcpy readers on the real nfcpy stack: a FeliCa tag emulated in another process on the udp frontend."""

import pytest
from device_helpers import events_until_quiet, make_hub, summary, wait_for

from kikimimi.devices.hub import Hub
from testbed.nfc_emulator import EmulatedTag, free_udp_port

pytestmark = pytest.mark.hardware_emulation
IDM1, IDM2 = "0101010601b00ac3", "0102030405060708"


def nfc_hub(ports: dict[str, int], **kw) -> Hub:
    return make_hub({role: {"path": f"udp:localhost:{port}", "targets": ["212F"]}
                     for role, port in ports.items()}, **kw)


def ok(hub):
    wait_for(lambda: all(h.status == "ok" for h in hub.health().values()), what="readers ok")


def test_one_presentation_is_one_tap_and_one_removal():
    port = free_udp_port()
    with nfc_hub({"field": port}) as hub:
        ok(hub)
        with EmulatedTag(port, IDM1, seconds=0.8) as tag:
            tag.wait(10)
        events = events_until_quiet(hub, quiet=1.5)
    assert summary(events) == [("field", "tap", IDM1), ("field", "removed", IDM1)]
    assert events[0].t < events[1].t


def test_two_virtual_readers_at_once():
    p1, p2 = free_udp_port(), free_udp_port()
    with nfc_hub({"field": p1, "hand:1": p2}) as hub:
        ok(hub)
        with EmulatedTag(p1, IDM1, seconds=0.6) as t1, EmulatedTag(p2, IDM2, seconds=0.6) as t2:
            t1.wait(10)
            t2.wait(10)
        events = events_until_quiet(hub, quiet=1.5)
    assert sorted(summary(events)) == sorted([
        ("field", "tap", IDM1), ("field", "removed", IDM1), ("hand:1", "tap", IDM2), ("hand:1", "removed", IDM2)])


def test_emulator_disappearing_and_returning():
    port = free_udp_port()
    with nfc_hub({"field": port}) as hub:
        ok(hub)
        tag = EmulatedTag(port, IDM1, seconds=30).start()
        try:
            assert summary([hub.get(5)]) == [("field", "tap", IDM1)]
            tag.stop()  # killed: the tag vanishes mid-presence
            assert summary([hub.get(5)]) == [("field", "removed", IDM1)]
        finally:
            tag.stop()
        with EmulatedTag(port, IDM2, seconds=0.5) as back:
            back.wait(10)
        events = events_until_quiet(hub, quiet=1.5)
        assert hub.health()["field"].status == "ok"
    assert summary(events) == [("field", "tap", IDM2), ("field", "removed", IDM2)]


def test_stop_while_polling_and_while_a_tag_is_held_releases_the_reader():
    port = free_udp_port()
    hub = nfc_hub({"field": port})
    with EmulatedTag(port, IDM1, seconds=30), hub:
        assert summary([hub.get(5)]) == [("field", "tap", IDM1)]
    assert not any(t.is_alive() for t in hub._threads)  # every reader thread has ended
    # the same port can be opened again by a new hub at once
    with nfc_hub({"field": port}) as again:
        ok(again)
        with EmulatedTag(port, IDM2, seconds=0.3):
            assert summary([again.get(5)]) == [("field", "tap", IDM2)]


def test_unopenable_nfc_path_is_reported_not_raised():
    with make_hub({"field": {"path": "tty:kikimimi-none:pn532"}, "hand:1": {"path": "sim"}}) as hub:
        health = wait_for(lambda: hub.health()["field"].errors >= 1 and hub.health(), what="open failure")
        hub.simulated("hand:1").tap("0102")
        assert hub.get(2).uid == "0102"
    assert health["field"].status in ("reconnecting", "failed")
    assert "tty:kikimimi-none:pn532" in health["field"].detail
