"""The mixing callback of a device stream, called directly as PortAudio would call it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from kikimimi.voice.mixer import DeviceStream, Lane, Playing

OK = SimpleNamespace(output_underflow=False)


def stream_with(lanes: list[Lane]) -> DeviceStream:
    return DeviceStream(sd=SimpleNamespace(), device="card", lanes=lanes, latency="low")


def clip(value: float, n: int) -> Playing:
    samples = np.full(n, value, dtype=np.float32)
    return Playing(samples, say_time=0.0, first_sound=0)


def test_lanes_play_at_the_same_time_each_on_its_own_channels() -> None:
    speaker, seat = Lane("speaker", (0,)), Lane("hand:2", (2, 3), volume=0.5)
    device = stream_with([speaker, seat])
    speaker.queue(clip(0.2, 100))
    seat.queue(clip(0.8, 100))
    out = np.zeros((64, device.channels), dtype=np.float32)
    device._callback(out, 64, None, OK)
    assert np.allclose(out[:, 0], 0.2)
    assert np.allclose(out[:, 2], 0.4) and np.allclose(out[:, 3], 0.4)
    assert not out[:, 1].any()


def test_one_lane_plays_its_clips_in_order_without_gaps() -> None:
    lane = Lane("hand:1", (1,))
    device = stream_with([lane])
    lane.queue(clip(0.1, 30))
    lane.queue(clip(0.3, 50))
    out = np.zeros((64, device.channels), dtype=np.float32)
    device._callback(out, 64, None, OK)
    assert np.allclose(out[:30, 1], 0.1) and np.allclose(out[30:, 1], 0.3)
    device._callback(out, 64, None, OK)
    assert np.allclose(out[:16, 1], 0.3) and not out[16:].any()
    assert not lane.busy


def test_a_clip_longer_than_the_ring_plays_whole_as_the_feeder_tops_it_up() -> None:
    lane = Lane("speaker", (0,), capacity=100)
    device = stream_with([lane])
    samples = np.arange(1, 251, dtype=np.float32) / 1000
    lane.queue(Playing(samples, say_time=0.0, first_sound=0))
    assert lane.written == 100 and lane.seconds_queued(1) == 250  # the rest waits in the backlog
    heard = []
    out = np.zeros((64, device.channels), dtype=np.float32)
    while lane.busy:
        device._callback(out, 64, None, OK)
        heard.append(out[:, 0].copy())
        lane.feed()  # what the feeder thread does between callbacks
    assert np.array_equal(np.concatenate(heard)[:250], samples)
    assert lane.starved == 0


def test_a_ring_left_empty_with_a_clip_waiting_counts_as_starved() -> None:
    lane = Lane("speaker", (0,), capacity=64)
    device = stream_with([lane])
    lane.queue(clip(0.5, 200))
    out = np.zeros((64, device.channels), dtype=np.float32)
    device._callback(out, 64, None, OK)
    device._callback(out, 64, None, OK)  # nobody fed the ring in between: a gap
    assert lane.starved == 1 and not out.any()
    assert device.starved == 1


def test_muted_lane_is_silent_but_keeps_time() -> None:
    lane = Lane("hand:3", (0,), muted=True)
    device = stream_with([lane])
    lane.queue(clip(0.5, 10))
    out = np.zeros((16, device.channels), dtype=np.float32)
    device._callback(out, 16, None, OK)
    assert not out.any() and not lane.busy


def test_first_frame_hook_reports_the_block_with_the_first_sound_outside_the_callback() -> None:
    seen = []
    lane = Lane("speaker", (0,))
    device = DeviceStream(SimpleNamespace(), "card", [lane], "low", on_first_frame=lambda *a: seen.append(a))
    samples = np.concatenate([np.zeros(100, np.float32), np.full(10, 0.5, np.float32)])
    lane.queue(Playing(samples, say_time=1.0, first_sound=100))
    out = np.zeros((64, device.channels), dtype=np.float32)
    device._callback(out, 64, None, OK)
    device.run_hooks()
    assert seen == []  # the first block is still silence
    device._callback(out, 64, None, OK)
    assert seen == []  # the callback calls no hook: it only notes the time
    device.run_hooks()
    assert len(seen) == 1 and seen[0][0] == "speaker" and seen[0][1] == 1.0


def test_clearing_a_lane_drops_what_has_not_begun() -> None:
    lane = Lane("hand:1", (0,), capacity=100)
    lane.queue(clip(0.1, 80))
    lane.queue(clip(0.2, 80))
    assert lane.clear() == 2 and not lane.busy


def test_a_failing_lane_does_not_stop_the_stream() -> None:
    class Broken(Lane):
        def pull(self, out, frames, fired):  # noqa: ANN001 - a lane that raises, as a bug would
            raise RuntimeError("bug")

    device = stream_with([Broken("hand:1", (0,))])
    out = np.ones((8, device.channels), dtype=np.float32)
    device._callback(out, 8, None, OK)
    assert not out.any() and device.callback_errors == 1
