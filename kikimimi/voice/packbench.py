"""`kikimimi bench voice --pack-size`: how long every game's voice pack takes to render and how big it is, in
each language, as `kikimimi voices render` makes it (each distinct spoken part rendered once, entries with
many parameter values built from their parts: `pack.plan_entries`); with each codec's size, encode and decode
time; and how long a pack takes to give a built entry (decode its parts and join them) when it is said.

A full render of every game is tens of thousands of entries, so every entry is planned (exact counts of
entries and of the clips they need) and a random sample of the clips is rendered, shaped and compressed as a
render process does it, in this process, timed in CPU seconds: render time and size are the sample's per-clip
figures times the clip count (printed with the sample size: estimates, not a full render; a full render
prints its own measured figures).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kikimimi.benchclock import Stopwatch

GOAL_BYTES = 1e9  # every game in both languages
GOAL_JA_MINUTES = 15.0  # every game in Japanese, on this machine's two cores
CORES = 2
VOICES = (("ja", "jtalk"), ("en", "espeak"))
CODECS = (  # (label, format, subtype, rate): the candidates measured on the sample
    ("FLAC 16-bit (chosen)", "FLAC", "PCM_16", None),
    ("Ogg/Opus 24 kHz", "OGG", "OPUS", 24000),
    ("Ogg/Opus 48 kHz", "OGG", "OPUS", 48000),
)
SAY_SAMPLE = 400  # built entries said from a small real pack to time the lookup


@dataclass
class VoiceSample:
    lang: str
    backend: str
    entries: dict[str, int]  # game -> its entries
    clips: dict[str, int]  # game -> the clips its entries need (a game rendered alone)
    all_entries: int  # distinct entries of every game together (the table's own phrases once)
    all_clips: int  # distinct clips of every game together
    built: int  # entries built from more than one part
    sampled: int
    cpu_per_clip: float  # CPU seconds to render, shape and compress one clip (one process)
    wall_per_clip: float
    bytes_per_clip: float
    audio_per_clip: float
    old_bytes_per_entry: float  # format 2: a FLAC per entry (the sample's whole-phrase clips, untightened)
    codecs: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # label -> (bytes, enc s, dec s)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("--pack-size: every game's voice pack: render time and size")
    group.add_argument("--pack-size", action="store_true", help="estimate every game's pack render time and size")
    group.add_argument("--sample", type=int, default=60, help="clips rendered per voice (default 60)")


def measure(sample: int, seed: int = 1) -> list[VoiceSample]:
    import soundfile  # type: ignore[import-untyped]

    from kikimimi.games.registry import games
    from kikimimi.voice.catalog import catalog
    from kikimimi.voice.clip import resample_for_pack
    from kikimimi.voice.pack import clip_problem, encode_clip, pack_clip, part_line, plan_entries
    from kikimimi.voice.tts import make_backend, voice_identity

    rng = random.Random(seed)
    results = []
    for lang, backend_name in VOICES:
        backend = make_backend(backend_name, lang)
        voice = voice_identity(backend)
        per_game = {info.id: plan_entries([catalog(lang, info.catalog)], backend_name, voice) for info in games()}
        every = plan_entries([catalog(lang, info.catalog) for info in games()], backend_name, voice)
        texts = {c: (t, plan.line) for plan in every.values() for c, t in zip(plan.clips, plan.texts, strict=True)}
        chosen = rng.sample(sorted(texts), min(sample, len(texts)))
        blobs, audio, raw = [], 0.0, []
        cpu_started, wall_started = time.process_time(), time.perf_counter()
        for clip_id in chosen:
            text, line = texts[clip_id]
            spoken = backend.synth(part_line(line, text))
            if clip_problem(part_line(line, text), spoken):
                continue
            shaped = pack_clip(spoken)
            blobs.append(encode_clip(shaped))
            audio += shaped.seconds
            raw.append(spoken)
        cpu, wall = time.process_time() - cpu_started, time.perf_counter() - wall_started
        whole = [plan for plan in every.values() if len(plan.clips) == 1]
        old_sample = [backend.synth(plan.line) for plan in rng.sample(whole, min(10, len(whole)))]
        from kikimimi.voice.clip import normalise_loudness, speech_rate

        old_bytes = [len(encode_clip(normalise_loudness(resample_for_pack(c, speech_rate(c.rate)))))
                     for c in old_sample]
        done = max(1, len(blobs))
        codecs = {}
        for label, fmt, subtype, rate in CODECS:
            encoded, enc = [], 0.0
            for clip in raw:
                shaped = pack_clip(clip)
                target = rate or shaped.rate
                started = time.process_time()
                at_rate = resample_for_pack(shaped, target)  # Opus takes its own rates only (not 22,050 Hz)
                out = io.BytesIO()
                soundfile.write(out, at_rate.samples, at_rate.rate, format=fmt, subtype=subtype)
                enc += time.process_time() - started
                encoded.append(out.getvalue())
            started = time.process_time()
            for blob in encoded:
                soundfile.read(io.BytesIO(blob), dtype="float32")
            codecs[label] = (sum(map(len, encoded)) / done, enc / done, (time.process_time() - started) / done)
        results.append(VoiceSample(
            lang, backend_name, {g: len(p) for g, p in per_game.items()},
            {g: len({c for plan in p.values() for c in plan.clips}) for g, p in per_game.items()},
            len(every), len(texts), sum(len(plan.clips) > 1 for plan in every.values()), len(blobs),
            cpu / done, wall / done, sum(map(len, blobs)) / done, audio / done,
            float(np.mean(old_bytes)) if old_bytes else 0.0, codecs))
    return results


def say_times(lang: str = "en", backend_name: str = "espeak", game: str = "suhjong",
              key: str = "round.score") -> dict[str, float]:
    """A real pack of one built phrase (every value), read as the table reads it: a built entry's lookup
    (decode its parts, join them) from a cold pack, ms p50/p99, and its parts' count."""
    from kikimimi.voice.catalog import Catalog, catalog
    from kikimimi.voice.pack import Pack, render_pack
    from kikimimi.voice.tts import make_backend, voice_identity

    words = catalog(lang, game)
    subset = Catalog(lang, {key: words.phrases[key]}, words.values, words.namespace, words.param_types,
                     words.ranges, words.readings)
    backend = make_backend(backend_name, lang)
    voice = voice_identity(backend)
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-pack-") as folder:
        report = render_pack(subset, backend_name, voice, backend.synth, Path(folder))
        pack = Pack.load(Path(folder), lang, backend_name)
        assert pack is not None
        pack.preload()
        rng = random.Random(3)
        chosen = rng.sample(sorted(report.rendered), min(SAY_SAMPLE, len(report.rendered)))
        lines = {entry: subset.render(key, pack.entries[entry]["params"]) for entry in chosen}
        times, cpu_times = [], []
        for entry in chosen:
            params = pack.entries[entry]["params"]
            started, cpu_started = time.perf_counter(), time.thread_time()
            clip = pack.get(lines[entry], params)
            times.append(time.perf_counter() - started)
            cpu_times.append(time.thread_time() - cpu_started)
            assert clip is not None, entry
        parts = [len(pack.entries[e]["clips"]) for e in chosen]
    ms, cpu_ms = np.array(times) * 1000, np.array(cpu_times) * 1000
    return {"entries": len(report.rendered), "clips": report.clips_rendered, "parts": float(np.mean(parts)),
            "p50_ms": float(np.percentile(ms, 50)), "p99_ms": float(np.percentile(ms, 99)), "max_ms": float(ms.max()),
            "cpu_p50_ms": float(np.percentile(cpu_ms, 50)), "cpu_p99_ms": float(np.percentile(cpu_ms, 99))}


PLAY_KEY = ("trident", "play.next")  # the phrase said on most plays of the flagship game
PLAY_GOAL_SECONDS = 1.2


def play_seconds(lang: str = "en", backend_name: str = "espeak") -> dict[str, float]:
    """How long the play phrase lasts as a pack clip, every entry of it (full form), at the voice's rate."""
    from kikimimi.voice.catalog import catalog
    from kikimimi.voice.pack import pack_clip, pack_entries
    from kikimimi.voice.tts import make_backend

    game, key = PLAY_KEY
    words = catalog(lang, game)
    backend = make_backend(backend_name, lang)
    lines = [line for _entry, _params, line in pack_entries(words, [key]) if not line.entry.endswith("~short")]
    seconds = np.array([pack_clip(backend.synth(line)).seconds for line in lines])
    return {"entries": len(lines), "rate": float(getattr(backend, "rate", 0)), "p50_s": float(np.median(seconds)),
            "p95_s": float(np.percentile(seconds, 95)), "max_s": float(seconds.max())}


def heard_gap(joined: np.ndarray, rate: int, at: int) -> float:
    """Seconds of silence heard around sample `at` of a joined phrase: the run of frames quieter than
    TRIM_BELOW_PEAK_DB under its loudest (what `clip.speech_bounds` calls silence) that holds `at`."""
    from kikimimi.voice.clip import TRIM_BELOW_PEAK_DB, frame_levels

    levels, frame = frame_levels(joined, rate)
    quiet = levels <= levels.max() - TRIM_BELOW_PEAK_DB
    middle = min(at // frame, len(quiet) - 1)
    if not quiet[middle]:
        return 0.0
    start = end = middle
    while start > 0 and quiet[start - 1]:
        start -= 1
    while end + 1 < len(quiet) and quiet[end + 1]:
        end += 1
    return (end - start + 1) * frame / rate


def join_gaps(lang: str = "ja", backend_name: str = "jtalk", games: tuple[str, ...] = ("nimmt", "royal-nine"),
              seed: int = 1) -> dict[str, dict[str, float]]:
    """The silence heard at each join of the joined phrases (reveals, round summaries) one bot game of each
    game says, with the table's join gap (router.PART_GAP_SECONDS): before (the parts' clips as rendered,
    padding and final pause kept) and after (`clip.join_clips`: tightened). Seconds, median/p95/max."""
    from kikimimi.voice.catalog import Line
    from kikimimi.voice.clip import Clip, join_clips, normalise_loudness, resample_for_pack, speech_rate, tighten
    from kikimimi.voice.lagbench import play_games
    from kikimimi.voice.router import PART_GAP_SECONDS
    from kikimimi.voice.tts import make_backend

    lines: dict[str, Line] = {}
    joins: dict[str, list[str]] = {}
    for game in games:
        play_games(game, 1, seed, lang, lines, joins)
    backend = make_backend(backend_name, lang)
    needed = sorted({part for parts in joins.values() for part in parts})
    rendered: dict[str, Clip] = {}
    for entry in needed:  # as format 2 stored them: the engine's trim, a speech rate, one loudness
        spoken = backend.synth(lines[entry])
        rendered[entry] = normalise_loudness(resample_for_pack(spoken, speech_rate(spoken.rate)))
    gaps: dict[str, list[float]] = {"before": [], "after": []}
    for parts in joins.values():
        clips = [rendered[part] for part in parts]
        rate = clips[0].rate
        gap = np.zeros(int(PART_GAP_SECONDS * rate), np.float32)
        plain: list[np.ndarray] = []
        joints: list[int] = []
        for clip in clips:
            if plain:
                plain.append(gap)
                joints.append(sum(map(len, plain)) - len(gap) // 2)
            plain.append(clip.samples)
        before = np.concatenate(plain)
        gaps["before"] += [heard_gap(before, rate, at) for at in joints]
        after = join_clips(clips, PART_GAP_SECONDS).samples
        lengths = [len(tighten(c).samples) for c in clips]
        step = int(round(PART_GAP_SECONDS * rate))
        points = [sum(lengths[: i + 1]) + i * step + step // 2 for i in range(len(clips) - 1)]
        gaps["after"] += [heard_gap(after, rate, at) for at in points]
    return {case: {"joins": len(v), "median_s": float(np.median(v)), "p95_s": float(np.percentile(v, 95)),
                   "max_s": float(np.max(v)), "gap_s": PART_GAP_SECONDS} for case, v in gaps.items() if v}


def run(args: argparse.Namespace) -> int:
    with Stopwatch() as clock:
        results = measure(args.sample, args.seed)
        said = say_times()
        joins = join_gaps()
        play = play_seconds()
    if args.json:
        print(json.dumps({"voices": [r.__dict__ for r in results], "say": said, "joins": joins, "play": play}))
        return 0
    print(f"every game's voice pack as `kikimimi voices render` makes it, from {args.sample} sampled clips per voice "
          f"(estimates: the sample's per-clip CPU time and size times the clip count)")
    total_bytes = 0.0
    for r in results:
        entries = r.all_entries
        print(f"\n  {r.lang}-{r.backend}: {entries:,} entries ({sum(r.entries.values()):,} summed over the games, "
              f"each with the table's own phrases; {r.built:,} built from parts) need {r.all_clips:,} "
              f"clips; {r.cpu_per_clip * 1000:.0f} ms CPU a clip ({r.sampled} rendered, shaped and compressed, "
              f"{r.wall_per_clip * 1000:.0f} ms wall), {r.audio_per_clip:.2f} s of speech, "
              f"{r.bytes_per_clip / 1024:.1f} KiB a clip")
        print(f"    {'game':<12} {'entries':>8} {'clips':>7} {'size':>9} {'CPU min':>8} {'min on 2 cores':>15}")
        for game, count in r.entries.items():
            clips = r.clips[game]
            print(f"    {game:<12} {count:>8,} {clips:>7,} {clips * r.bytes_per_clip / 1e6:>6.0f} MB "
                  f"{clips * r.cpu_per_clip / 60:>8.1f} {clips * r.cpu_per_clip / 60 / CORES:>15.1f}")
        size = r.all_clips * r.bytes_per_clip
        total_bytes += size
        minutes = r.all_clips * r.cpu_per_clip / 60 / CORES
        old = entries * r.old_bytes_per_entry
        print(f"    {'all games':<12} {entries:>8,} {r.all_clips:>7,} {size / 1e6:>6.0f} MB "
              f"{r.all_clips * r.cpu_per_clip / 60:>8.1f} {minutes:>15.1f}"
              f"   (a FLAC per entry, format 2: about {old / 1e9:.1f} GB)")
        if r.lang == "ja":
            print(f"    every game in Japanese: about {minutes:.1f} min on {CORES} idle cores "
                  f"({'meets' if minutes <= GOAL_JA_MINUTES else 'misses'} the goal of {GOAL_JA_MINUTES:g} min)")
        print("    codecs on the sample: " + "; ".join(
            f"{label} {size / 1024:.1f} KiB, encode {1000 * enc:.1f} ms, decode {1000 * dec:.1f} ms a clip"
            for label, (size, enc, dec) in r.codecs.items()))
    print(f"\n  every game, both languages: about {total_bytes / 1e9:.2f} GB "
          f"({'meets' if total_bytes <= GOAL_BYTES else 'misses'} the goal of {GOAL_BYTES / 1e9:g} GB)")
    print(f"  a built entry said from a pack (suhjong round.score, en: {said['entries']:,.0f} entries from "
          f"{said['clips']:,.0f} clips, {said['parts']:.1f} parts each), cold: lookup p50 {said['p50_ms']:.1f} ms, "
          f"p99 {said['p99_ms']:.1f} ms, max {said['max_ms']:.1f} ms wall; CPU p50 {said['cpu_p50_ms']:.1f} ms, "
          f"p99 {said['cpu_p99_ms']:.1f} ms (wall minus CPU: waiting for a core)")
    for case, j in joins.items():
        print(f"  heard silence at a join ({case}: {'parts tightened' if case == 'after' else 'parts as rendered'}"
              f", a {j['gap_s']:.2f} s gap; {j['joins']:.0f} joins of one bot game of 6 nimmt! and Royal Nine, ja): "
              f"median {j['median_s']:.3f} s, p95 {j['p95_s']:.3f} s, max {j['max_s']:.3f} s")
    verdict = "meets" if play["p50_s"] <= PLAY_GOAL_SECONDS else "misses"
    print(f"  English play phrase ({PLAY_KEY[0]} {PLAY_KEY[1]}, {play['entries']:.0f} entries, espeak-ng at "
          f"{play['rate']:.0f} words a minute): p50 {play['p50_s']:.2f} s, p95 {play['p95_s']:.2f} s, max "
          f"{play['max_s']:.2f} s ({verdict} {PLAY_GOAL_SECONDS:g} s at the median)")
    print(f"  {clock.line()}")
    return 0
