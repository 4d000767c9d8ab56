"""`kikimimi bench voice --pack-size`: how big every game's voice pack is in each language and voice, before
(uncompressed WAV at the engine's rate, as packs were) and after (FLAC at up to 24 kHz, loudness-normalised),
against the bill of materials' 16 GB card; with each codec's size and decode time, and each engine's
phrases per second.

A full render of every game is tens of thousands of phrases (hours on this machine), so a random sample of
each game's entries is rendered and the sizes are extrapolated to the game's entry count (printed with the
sample size: the figures are estimates, not a full render).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import time
from dataclasses import dataclass

import numpy as np

from kikimimi.benchclock import Stopwatch

CARD_BYTES = 16e9  # the bill of materials' microSD card
VOICES = (("ja", "jtalk"), ("ja", "espeak"), ("en", "espeak"))
CODECS = (  # (label, format, subtype, rate limit): the candidates measured on the sample
    ("WAV 16-bit, engine rate", "WAV", "PCM_16", None),
    ("FLAC, <=24 kHz (chosen)", "FLAC", "PCM_16", 24000),
    ("FLAC, 16 kHz", "FLAC", "PCM_16", 16000),
    ("Ogg/Opus, 24 kHz", "OGG", "OPUS", 24000),
    ("Ogg/Vorbis, 24 kHz", "OGG", "VORBIS", 24000),
)


@dataclass
class VoiceSample:
    lang: str
    backend: str
    entries: dict[str, int]  # game -> entries in its pack
    sampled: int
    synth_cpu: float  # CPU seconds of the engine for the sample (one process)
    synth_wall: float
    audio_seconds: float
    before_bytes: int  # WAV at the engine's rate, trimmed (the old pack clip)
    after_bytes: int  # the pack clip now
    codecs: dict[str, tuple[int, float]]  # label -> (bytes, decode seconds) over the sample
    energy_above: dict[int, float]  # Hz -> share of the speech energy above it


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("--pack-size: every game's voice pack, before and after")
    group.add_argument("--pack-size", action="store_true", help="estimate every game's pack size per language")
    group.add_argument("--sample", type=int, default=40, help="entries rendered per game and voice (default 40)")


def measure(sample: int, seed: int = 1) -> list[VoiceSample]:
    from kikimimi.games.registry import games
    from kikimimi.voice.catalog import catalog
    from kikimimi.voice.clip import to_int16
    from kikimimi.voice.pack import encode_clip, pack_clip, pack_entries
    from kikimimi.voice.tts import make_backend

    rng = random.Random(seed)
    results = []
    for lang, backend_name in VOICES:
        backend = make_backend(backend_name, lang)
        counts: dict[str, int] = {}
        chosen = []
        for info in games():
            entries = list(pack_entries(catalog(lang, info.catalog)))
            counts[info.id] = len(entries)
            chosen += rng.sample(entries, min(sample, len(entries)))
        clips = []
        with Stopwatch() as clock:
            for _entry, _params, line in chosen:
                clips.append(backend.synth(line))
        empty = [entry for (entry, _params, _line), clip in zip(chosen, clips, strict=True) if not len(clip.samples)]
        if empty:  # `kikimimi voices check` says why; a pack render refuses them
            print(f"  {lang}-{backend_name}: {len(empty)} empty clip(s), left out: {empty[:5]}")
            clips = [clip for clip in clips if len(clip.samples)]
        packed = [pack_clip(c) for c in clips]
        before = sum(44 + to_int16(c.samples).nbytes for c in clips)
        after = sum(len(encode_clip(c)) for c in packed)
        codecs = {label: _codec(clips, fmt, subtype, limit) for label, fmt, subtype, limit in CODECS}
        results.append(VoiceSample(lang, backend_name, counts, len(clips), clock.cpu, clock.wall,
                                   sum(c.seconds for c in clips), before, after, codecs, _energy_above(clips)))
    return results


def _codec(clips: list, fmt: str, subtype: str, limit: int | None) -> tuple[int, float]:
    import soundfile

    from kikimimi.voice.clip import resample_for_pack

    blobs = []
    for clip in clips:
        shaped = resample_for_pack(clip, min(clip.rate, limit)) if limit else clip
        if subtype == "OPUS" and shaped.rate not in (8000, 12000, 16000, 24000, 48000):
            shaped = resample_for_pack(clip, 16000)  # Opus takes only its own rates (espeak-ng's 22050 is not one)
        out = io.BytesIO()
        soundfile.write(out, shaped.samples, shaped.rate, format=fmt, subtype=subtype)
        blobs.append(out.getvalue())
    started = time.process_time()
    for blob in blobs:
        soundfile.read(io.BytesIO(blob), dtype="float32")
    return sum(len(b) for b in blobs), time.process_time() - started


def _energy_above(clips: list) -> dict[int, float]:
    """Share of the speech energy above 8 and 12 kHz: what a 16 or 24 kHz rate would drop."""
    shares: dict[int, float] = {}
    spectra = [(np.abs(np.fft.rfft(c.samples)) ** 2, np.fft.rfftfreq(len(c.samples), 1 / c.rate)) for c in clips]
    total = sum(float(power.sum()) for power, _ in spectra) or 1.0
    for cut in (8000, 12000):
        shares[cut] = sum(float(power[freq > cut].sum()) for power, freq in spectra) / total
    return shares


def run(args: argparse.Namespace) -> int:
    with Stopwatch() as clock:
        results = measure(args.sample, args.seed)
    if args.json:
        print(json.dumps([r.__dict__ for r in results]))
        return 0
    print(f"voice pack sizes per game, estimated from {args.sample} rendered entries per game and voice "
          f"(sizes scaled to each game's entry count)")
    totals: dict[tuple[str, str], tuple[float, float]] = {}
    for r in results:
        per_before, per_after = r.before_bytes / r.sampled, r.after_bytes / r.sampled
        print(f"\n  {r.lang}-{r.backend}: {r.sampled / r.synth_cpu:.1f} phrases/s per core "
              f"({r.sampled} phrases, cpu {r.synth_cpu:.1f} s, wall {r.synth_wall:.1f} s), "
              f"{r.audio_seconds / r.sampled:.2f} s of speech a phrase; energy above 8 kHz "
              f"{100 * r.energy_above[8000]:.2f}%, above 12 kHz {100 * r.energy_above[12000]:.3f}%")
        print(f"    {'game':<12} {'entries':>8} {'before (WAV)':>14} {'after (FLAC)':>14}")
        total_before = total_after = 0.0
        for game, count in r.entries.items():
            total_before += count * per_before
            total_after += count * per_after
            print(f"    {game:<12} {count:>8,} {count * per_before / 1e9:>11.2f} GB "
                  f"{count * per_after / 1e9:>11.2f} GB")
        print(f"    {'all games':<12} {sum(r.entries.values()):>8,} {total_before / 1e9:>11.2f} GB "
              f"{total_after / 1e9:>11.2f} GB")
        totals[(r.lang, r.backend)] = (total_before, total_after)
        print("    codecs on the sample: " + "; ".join(
            f"{label} {size / r.sampled / 1024:.0f} KiB a clip, decode {1000 * cpu / r.sampled:.1f} ms"
            for label, (size, cpu) in r.codecs.items()))
    if ("ja", "espeak") in totals and ("ja", "jtalk") in totals and ("en", "espeak") in totals:
        before = totals[("ja", "espeak")][0] + totals[("en", "espeak")][0]
        jtalk_wav = totals[("ja", "jtalk")][0] + totals[("en", "espeak")][0]
        after = totals[("ja", "jtalk")][1] + totals[("en", "espeak")][1]
        print(f"\n  every game, both languages (ja + en): before {before / 1e9:.1f} GB with espeak-ng WAV "
              f"({jtalk_wav / 1e9:.1f} GB with Open JTalk WAV), after {after / 1e9:.1f} GB "
              f"= {100 * after / CARD_BYTES:.0f}% of the 16 GB card")
    print(f"  {clock.line()}")
    return 0
