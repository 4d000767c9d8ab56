"""The debounce rule on its own: removals wait for the window, a quick return of the same tag cancels."""

from kikimimi.devices.debounce import Debouncer
from kikimimi.devices.events import ReaderEvent


def ev(kind, uid, t, reader="field"):
    return ReaderEvent(kind, reader, uid, t)


def test_lift_and_back_within_window_counts_once():
    d = Debouncer(0.3)
    assert d.push(ev("tap", "a", 0.0)) == [ev("tap", "a", 0.0)]
    assert d.push(ev("removed", "a", 1.0)) == []
    assert d.push(ev("tap", "a", 1.2)) == []
    assert d.push(ev("removed", "a", 2.0)) == []
    assert d.expire(2.29) == []
    assert d.expire(2.3) == [ev("removed", "a", 2.0)]


def test_back_after_window_is_a_new_tap():
    d = Debouncer(0.3)
    d.push(ev("tap", "a", 0.0))
    d.push(ev("removed", "a", 1.0))
    assert d.push(ev("tap", "a", 1.5)) == [ev("removed", "a", 1.0), ev("tap", "a", 1.5)]


def test_other_tag_releases_the_held_back_removal_first():
    d = Debouncer(0.3)
    d.push(ev("tap", "a", 0.0))
    d.push(ev("removed", "a", 0.0))
    assert d.push(ev("tap", "b", 0.0)) == [ev("removed", "a", 0.0), ev("tap", "b", 0.0)]


def test_readers_are_independent():
    d = Debouncer(0.3)
    d.push(ev("removed", "a", 1.0, "hand:1"))
    assert d.push(ev("tap", "a", 1.1, "hand:2")) == [ev("tap", "a", 1.1, "hand:2")]
    assert d.next_deadline() == 1.3
    assert d.flush() == [ev("removed", "a", 1.0, "hand:1")]


def test_zero_window_passes_everything():
    d = Debouncer(0)
    assert d.push(ev("removed", "a", 1.0)) == [ev("removed", "a", 1.0)]
    assert d.push(ev("tap", "a", 1.0)) == [ev("tap", "a", 1.0)]
