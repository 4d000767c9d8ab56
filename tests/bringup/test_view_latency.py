"""The live view renders with rich; tap-to-speech is matched to the right tap and summarised right."""

import numpy as np
from rich.console import Console

from kikimimi.bringup.announce import Heard
from kikimimi.bringup.latency import LatencyMeter, percentile
from kikimimi.bringup.session import ReaderRow
from kikimimi.bringup.view import render
from kikimimi.games.base import Say
from kikimimi.voice.router import OutputHealth


def row(role, status="ok", detail="reading", **kw):
    base = dict(path="/dev/serial/by-id/usb-FTDI-port0", protocol="rdm6300", taps=0, errors=0, dropped=0,
                last_uid=None, last_tag=None, last_said=None, latency_ms=None)
    return ReaderRow(role=role, status=status, detail=detail, **{**base, **kw})


def test_the_live_view_shows_every_reader_output_and_the_latest_taps():
    rows = [row("field", taps=3, last_uid="0a0b0c0d0e", last_tag="heart-1", latency_ms=4.25),
            row("hand:1", status="failed", detail="permission denied; install devices/udev/99-kikimimi.rules",
                errors=2),
            row("hand:2", last_uid="deadbeef", taps=1, dropped=5)]
    outputs = {"speaker": OutputHealth("ok", "kikimimi_card channel 5 at 48000 Hz"),
               "hand:1": OutputHealth("fallback", "audio device 'kikimimi_card' not found")}
    heard = [Heard("hand:2", "deadbeef", None, Say("hand:2", "bringup.unknown_tag"))]
    console = Console(record=True, width=140, color_system=None)
    console.print(render(rows, outputs, heard, lambda h: "This tag is not in the deck.", latency=True))
    text = console.export_text()
    for expected in ("field", "hand:1", "hand:2", "0a0b0c0d0e", "heart-1", "not in deck", "4.2 ms", "failed",
                     "permission denied", "5 bad frames", "kikimimi_card channel 5", "fallback",
                     "deadbeef", "-> hand:2: This tag is not in the deck."):
        assert expected in text, expected
    assert "tap→speech" in text


def test_percentile_matches_numpy():
    values = list(np.random.default_rng(3).exponential(0.01, 101))
    for q in (0, 50, 90, 99, 100):
        assert abs(percentile(values, q) - float(np.percentile(values, q))) < 1e-12


def test_first_frames_are_matched_to_their_own_tap_per_output():
    meter = LatencyMeter()
    t0 = 100.0
    # hand:1 tapped at t0, queued at +1 ms; the field tapped at t0+2 ms, queued at +3 ms
    meter.said("hand:1", "hand:1", t0, queued=meter.to_perf(t0) + 0.001)
    meter.said("field", "speaker", t0 + 0.002, queued=meter.to_perf(t0) + 0.003)
    # the speaker sounds first, 10 ms after its tap; hand:1 sounds 20 ms after its tap
    meter.first_frame("speaker", meter.to_perf(t0) + 0.0031, meter.to_perf(t0) + 0.012)
    meter.first_frame("hand:1", meter.to_perf(t0) + 0.0011, meter.to_perf(t0) + 0.020)
    meter.said("hand:2", "hand:2", t0 + 0.05, queued=meter.to_perf(t0) + 0.051)  # never sounds
    result = meter.finish()
    assert abs(result["field"].seconds[0] - 0.010) < 1e-9
    assert abs(result["hand:1"].seconds[0] - 0.020) < 1e-9
    assert result["hand:2"].seconds == [] and result["hand:2"].unmeasured == 1
    summary = result["hand:1"].summary()
    assert summary["measured"] == 1 and summary["p50_ms"] == 20.0


def test_a_frame_from_another_phrase_on_the_same_output_is_not_counted_twice():
    meter = LatencyMeter()
    meter.said("field", "speaker", 10.0, queued=meter.to_perf(10.0) + 0.001)
    meter.first_frame("speaker", meter.to_perf(10.0) + 0.0011, meter.to_perf(10.0) + 0.005)
    meter.first_frame("speaker", meter.to_perf(10.0) + 0.5, meter.to_perf(10.0) + 0.6)  # not a bring-up phrase
    assert len(meter.finish()["field"].seconds) == 1
