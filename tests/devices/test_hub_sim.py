"""The hub with simulated readers: merging, debounce, health, a failing reader beside working ones."""

import threading

import pytest
from device_helpers import events_until_quiet, make_hub, summary, wait_for


def test_quick_taps_of_two_uids_give_two_taps_and_same_uid_twice_counts_once():
    with make_hub({"hand:1": {"path": "sim"}}) as hub:
        sim = hub.simulated("hand:1")
        sim.tap_and_remove("04:A1:B2:C3")
        sim.tap_and_remove("04a1b2c3")  # same tag again within the window: one tap
        sim.tap_and_remove("0999")
        events = events_until_quiet(hub)
    assert summary(events) == [
        ("hand:1", "tap", "04a1b2c3"), ("hand:1", "removed", "04a1b2c3"),
        ("hand:1", "tap", "0999"), ("hand:1", "removed", "0999")]
    assert all(a.t <= b.t for a, b in zip(events, events[1:], strict=False) if a.reader == b.reader)


def test_held_tag_is_one_tap_and_a_new_tag_replaces_it():
    with make_hub({"field": {"path": "sim"}}, debounce=0.05) as hub:
        sim = hub.simulated("field")
        sim.tap("aa01")
        sim.tap("aa01")
        assert summary([hub.get(1)]) == [("field", "tap", "aa01")]
        sim.tap("bb02")
        sim.remove()
        events = events_until_quiet(hub, quiet=0.3)
    assert summary(events) == [("field", "removed", "aa01"), ("field", "tap", "bb02"), ("field", "removed", "bb02")]


def test_readers_are_merged_in_one_queue_from_many_threads():
    roles = [f"hand:{n}" for n in range(1, 4)]
    with make_hub({r: {"path": "sim"} for r in roles}) as hub:
        def player(role):
            for i in range(20):
                hub.simulated(role).tap_and_remove(f"{role[-1]}0{i:02x}")
        threads = [threading.Thread(target=player, args=(r,)) for r in roles]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        events = events_until_quiet(hub)
    for role in roles:
        taps = [e.uid for e in events if e.reader == role and e.kind == "tap"]
        assert taps == [f"{role[-1]}0{i:02x}" for i in range(20)]
    assert hub.health()["hand:2"].taps == 20


def test_simulated_rejects_non_sim_role_and_non_hex_uid():
    with make_hub({"field": {"path": "sim"}, "hand:1": {"path": "udp:localhost:9"}}) as hub:
        with pytest.raises(KeyError, match="not simulated"):
            hub.simulated("hand:1")
        with pytest.raises(ValueError, match="hex"):
            hub.simulated("field").tap("piece-1")


def test_a_reader_that_cannot_open_does_not_stop_the_others(tmp_path):
    missing = str(tmp_path / "ttyNOPE")
    seen = []
    hub = make_hub({"field": {"path": "sim"}, "hand:1": {"path": missing, "protocol": "rdm6300"}})
    hub._on_health = lambda role, h: seen.append((role, h.status))
    with hub:
        hub.simulated("field").tap("0102")
        assert summary([hub.get(2)]) == [("field", "tap", "0102")]
        health = wait_for(lambda: hub.health()["hand:1"].errors >= 2 and hub.health(), what="two failed opens")
    assert health["hand:1"].status == "reconnecting"
    assert "No such file" in health["hand:1"].detail and missing in health["hand:1"].detail
    assert health["field"].status == "ok"
    assert ("hand:1", "reconnecting") in seen and ("field", "ok") in seen


def test_taps_before_start_are_kept():
    hub = make_hub({"field": {"path": "sim"}})
    hub.simulated("field").tap_and_remove("abcd")
    with hub:
        assert summary(events_until_quiet(hub)) == [("field", "tap", "abcd"), ("field", "removed", "abcd")]


def test_stop_delivers_held_back_removals():
    hub = make_hub({"field": {"path": "sim"}}, debounce=30)
    with hub:
        hub.simulated("field").tap_and_remove("abcd")
        assert summary([hub.get(1)]) == [("field", "tap", "abcd")]
    assert summary([hub.get(1)]) == [("field", "removed", "abcd")]
