"""Voice latency: from a Say handed to the router to its first non-silent frame in the audio callback.

Measured with a pre-rendered pack and with live TTS (every phrase new, so no cache helps). Without
--device it runs in a subprocess on a virtual ALSA device (`type file` to /dev/null): the real
PortAudio path, but a device that takes audio as fast as it is given, so one audio block adds ~0
there; on a real card add up to one block (printed) to the figures.

With --lag: how far behind the speaker and the earphones get in bot games of every game at a human pace,
with the real lengths of the rendered clips (kikimimi/voice/lagbench.py). With --pack-size: every game's
voice pack size per language, before and after compression (kikimimi/voice/packbench.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from kikimimi.benchclock import Stopwatch
from kikimimi.voice import lagbench, packbench

BENCH_ASOUNDRC = """
pcm.kikimimi_bench {
    type plug
    slave { pcm { type file; slave.pcm "null"; file "/dev/null"; format "raw" }; format S16_LE; channels 4 }
}
"""
PACK_KEYS = ("bringup.this_is_seat", "bringup.this_is_speaker", "table.resuming", "bringup.reader_ok")
LIVE_KEY = "bringup.tag_enrolled"  # one parameter with 61 values: each live utterance is new


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("-n", type=int, default=200, help="utterances per case (default 200)")
    parser.add_argument("--device", help="a real output device (name or index) instead of the virtual one")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    lagbench.add_arguments(parser)
    packbench.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "pack_size", False):
        return packbench.run(args)
    if getattr(args, "lag", False):
        return lagbench.run(args)
    if args.device is None and not args.inner:
        return _run_virtual(args)
    with Stopwatch() as clock:
        figures = measure(args.lang, args.n, args.device if args.device is not None else "kikimimi_bench")
    figures["clock"] = clock.line()
    if args.json or args.inner:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0 if figures.get("pack") else 1


def _run_virtual(args: argparse.Namespace) -> int:
    """PortAudio reads its devices once per process: the virtual device needs a fresh process."""
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-") as home:
        Path(home, ".asoundrc").write_text(BENCH_ASOUNDRC)
        env = {**os.environ, "HOME": home}
        env.pop("ALSA_CONFIG_PATH", None)
        cmd = [sys.executable, "-m", "kikimimi", "bench", "voice", "--inner", "--lang", args.lang, "-n", str(args.n)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0 or not proc.stdout.strip():
        print(f"bench voice: the measuring process failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return 1
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    if args.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0


def measure(lang: str, n: int, device: str | int) -> dict[str, Any]:
    from kikimimi.games.base import SPEAKER, Say, hand
    from kikimimi.voice.catalog import Catalog, catalog
    from kikimimi.voice.config import OutputSpec, VoiceSpec
    from kikimimi.voice.pack import render_pack
    from kikimimi.voice.router import Voice
    from kikimimi.voice.tts import make_backend

    full = catalog(lang)
    keys = [k for k in PACK_KEYS if k in full.phrases]
    subset = Catalog(lang, {k: full.phrases[k] for k in keys}, full.values)
    outputs = [
        OutputSpec(name, device, (ch,), 1.0, "audio") for ch, name in enumerate((SPEAKER, *map(hand, (1, 2, 3))), 1)
    ]
    figures: dict[str, Any] = {"lang": lang, "n": n, "device": str(device)}
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-pack-") as pack_dir:
        backend = make_backend("espeak", lang)
        render_pack(subset, "espeak", getattr(backend, "voice", ""), backend.synth, Path(pack_dir))
        del backend  # the router starts its own speech worker
        spec = VoiceSpec(lang, "espeak", Path(pack_dir), None, False, None)
        delays: list[float] = []
        voice = Voice.open(
            spec, outputs, on_first_frame=lambda out, said, frame: delays.append(frame - said), phrases=full
        )
        try:
            health = voice.health()
            figures["health"] = {k: f"{h.status}: {h.detail}" for k, h in health.items()}
            device_stream = voice.devices[0] if voice.devices else None
            if device_stream is not None and device_stream.stream is not None:
                figures["block_ms"] = 1000 * device_stream.stream.latency
                figures["rate"] = device_stream.rate
            cases = {
                "pack": [Say(outputs[i % 4].name, keys[i % len(keys)], {"seat": 1 + i % 3}) for i in range(n)],
                "live": [Say(outputs[i % 4].name, LIVE_KEY, {"count": i % 61}) for i in range(min(n, 61))],
            }
            for case, says in cases.items():
                delays.clear()
                for effect in says:
                    voice.say(effect)
                    voice.wait_idle(timeout=30)  # one at a time: a queue behind another phrase is not latency
                    time.sleep(0.002)
                if delays:
                    ms = np.array(delays) * 1000
                    figures[case] = {
                        "count": len(ms),
                        "p50_ms": float(np.percentile(ms, 50)),
                        "p99_ms": float(np.percentile(ms, 99)),
                        "max_ms": float(ms.max()),
                    }
        finally:
            voice.close()
    return figures


def _print(f: dict[str, Any]) -> None:
    print(f"voice latency, Say -> first non-silent frame in the audio callback ({f['lang']}, device {f['device']})")
    for case, label in (("pack", "pre-rendered pack"), ("live", "live TTS (espeak)")):
        c = f.get(case)
        if c:
            print(
                f"  {label:<20} n={c['count']:<4} p50 {c['p50_ms']:7.2f} ms   p99 {c['p99_ms']:7.2f} ms   "
                f"max {c['max_ms']:7.2f} ms"
            )
        else:
            print(f"  {label:<20} no measurement (see health)")
    if "block_ms" in f:
        print(f"  stream output latency {f['block_ms']:.1f} ms at {f['rate']} Hz (add up to one block on a real card)")
    for name, h in f.get("health", {}).items():
        if not h.startswith("ok"):
            print(f"  {name}: {h}")
    if "clock" in f:
        print(f"  {f['clock']} (the measuring process)")
