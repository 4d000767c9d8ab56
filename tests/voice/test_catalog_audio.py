"""Every catalog's phrases render to real speech in both languages: a sample of each game's entries (short
forms included) through the language's voice, refused when empty, silent or longer than its text warrants.
The full check, every entry, is `kikimimi voices check --lang ja --all` (and every `voices render`)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_speech import needs_espeak

from kikimimi.games.registry import games
from kikimimi.voice.catalog import Line, catalog
from kikimimi.voice.clip import Clip
from kikimimi.voice.config import default_backend
from kikimimi.voice.pack import clip_problem, pack_entries
from kikimimi.voice.tts import make_backend

PER_GAME = 3


@needs_espeak
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_sample_of_every_catalog_renders_to_speech_of_a_fitting_length(lang: str) -> None:
    backend = make_backend(default_backend(lang), lang)
    rng = random.Random(22)
    problems = []
    for info in games():
        entries = list(pack_entries(catalog(lang, info.catalog)))
        shorts = [e for e in entries if "~short" in e[0]]
        for entry, _params, line in rng.sample(entries, PER_GAME) + rng.sample(shorts, min(1, len(shorts))):
            if (problem := clip_problem(line, backend.synth(line))) is not None:
                problems.append(f"{entry}: {problem}")
    assert problems == []


def test_empty_silent_and_overlong_clips_are_refused() -> None:
    line = Line("t", "Seat two.", "Seat two.", "en")
    speech = Clip((0.3 * np.sin(np.arange(16000) / 5)).astype(np.float32), 16000)
    assert clip_problem(line, speech) is None
    assert "empty" in clip_problem(line, Clip(speech.samples[:0], 16000))
    assert "silent" in clip_problem(line, Clip(speech.samples * 1e-4, 16000))
    assert "more than" in clip_problem(line, Clip(np.tile(speech.samples, 4), 16000))
