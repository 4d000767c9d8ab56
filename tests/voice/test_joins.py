"""Tight joins: a joined phrase's parts lose their padding and final pause (`clip.tighten`), so the silence heard
at a join is the join's own gap, and no mora is cut: the first and last 30 ms of each part's speech, from where
the engine's own output starts and ends sounding, stay whole. Real voices (espeak-ng, Open JTalk)."""

from __future__ import annotations

import numpy as np
import pytest

from kikimimi.voice.catalog import catalog
from kikimimi.voice.clip import (
    EDGE_MARGIN,
    SILENCE,
    Clip,
    join_clips,
    join_seconds,
    normalise_loudness,
    resample_for_pack,
    speech_bounds,
    speech_rate,
    tighten,
)
from kikimimi.voice.packbench import heard_gap
from kikimimi.voice.router import PART_GAP_SECONDS
from kikimimi.voice.tts import BackendUnavailable, make_backend

EDGE = 0.030  # seconds of speech at each end that must stay whole
PARTS = (("nimmt", "reveal.card", {"card": 5, "seat": 2}), ("nimmt", "reveal.card", {"card": 104, "seat": 10}),
         ("nimmt", "score.seat", {"seat": 3, "bullheads": 7}), ("suhjong", "draw.card", {"value": 7}),
         ("suhjong", "round.score", {"seat": 1, "points": 45, "total": 67}))


def _spoken(lang: str, backend_name: str) -> list[Clip]:
    try:
        backend = make_backend(backend_name, lang)
    except BackendUnavailable as exc:
        pytest.skip(f"needs {backend_name}: {exc}")
    clips = []
    for game, key, params in PARTS:
        words = catalog(lang, game)
        kept = {name: params[name] for name in words.phrases[key].params}
        spoken = backend.synth(words.render(key, kept))
        clips.append(normalise_loudness(resample_for_pack(spoken, speech_rate(spoken.rate))))  # pack shape, untrimmed
    return clips


def _energy(samples: np.ndarray) -> float:
    return float(np.sum(samples.astype(np.float64) ** 2))


@pytest.mark.parametrize(("lang", "backend"), [("en", "espeak"), ("ja", "jtalk")])
def test_tightened_parts_keep_the_first_and_last_30_ms_of_speech_and_join_at_the_joins_own_gap(lang, backend):
    clips = _spoken(lang, backend)
    for clip in clips:
        x = clip.samples
        tight = tighten(clip)
        start, end = speech_bounds(clip)
        begin = max(0, start - int(EDGE_MARGIN * clip.rate))
        assert np.array_equal(x[begin: begin + len(tight.samples)], tight.samples)  # a cut, nothing changed
        finish = begin + len(tight.samples)
        sounding = np.flatnonzero(np.abs(x) > SILENCE)  # where the engine's output sounds at all
        onset, offset = int(sounding[0]), int(sounding[-1]) + 1
        edge = int(EDGE * clip.rate)
        lost_head = _energy(x[onset: max(onset, begin)])
        lost_tail = _energy(x[min(offset, finish): offset])
        assert lost_head <= 0.01 * _energy(x[onset: onset + edge]), (lang, lost_head)
        assert lost_tail <= 0.01 * _energy(x[offset - edge: offset]), (lang, lost_tail)
        assert len(tight.samples) < len(x)  # padding there was, and it went
    joined = join_clips(clips, PART_GAP_SECONDS)
    lengths = [len(tighten(c).samples) for c in clips]
    step = int(round(PART_GAP_SECONDS * joined.rate))
    assert len(joined.samples) == sum(lengths) + step * (len(clips) - 1)
    assert joined.seconds == pytest.approx(join_seconds([n / joined.rate for n in lengths], PART_GAP_SECONDS),
                                           abs=len(clips) / joined.rate)
    gaps = [heard_gap(joined.samples, joined.rate, sum(lengths[: i + 1]) + i * step + step // 2)
            for i in range(len(clips) - 1)]
    assert all(PART_GAP_SECONDS <= gap <= PART_GAP_SECONDS + 0.03 for gap in gaps), gaps
    plain = np.concatenate([np.concatenate([c.samples, np.zeros(step, np.float32)]) for c in clips])
    before = [heard_gap(plain, joined.rate, sum(len(c.samples) for c in clips[: i + 1]) + i * step + step // 2)
              for i in range(len(clips) - 1)]
    assert np.median(before) > np.median(gaps)  # the parts as rendered added their own silence
