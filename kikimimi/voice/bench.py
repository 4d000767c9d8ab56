"""Voice latency: from a Say handed to the router to its first non-silent frame in the audio callback.

Measured with a pre-rendered pack and with live TTS (every phrase new, so no cache helps). Without
--device it runs in a subprocess on a virtual ALSA device (`type file` to /dev/null): the real
PortAudio path, but a device that takes audio as fast as it is given, so one audio block adds ~0
there; on a real card add up to one block (printed) to the figures.

With --lag: how far behind the speaker gets in a fast game. Bots play Trident games at human pace
(--tap seconds between taps) through a Voice whose speech takes as long as a real voice would (a clip
of --cps characters a second, on a sink that plays in real time, --speed times faster than the
table so the run is short; figures are in table seconds). Reports (phrase starts - phrase said) on the
speaker, p50/p95/max, before (supersession and short forms off) and after (on).
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

import numpy as np

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
    lag = parser.add_argument_group("--lag: how far behind the speaker gets in a fast Trident game")
    lag.add_argument("--lag", action="store_true", help="measure speaker lag instead of latency (no sound card)")
    lag.add_argument("--games", type=int, default=3, help="bot games per case (default 3)")
    lag.add_argument("--tap", type=float, default=0.6, help="seconds between taps (default 0.6)")
    lag.add_argument("--cps", type=float, default=12.0, help="spoken characters per second (default 12)")
    lag.add_argument("--speed", type=float, default=20.0, help="run this many times faster than a table")
    lag.add_argument("--seed", type=int, default=1)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "lag", False):
        lag_figures = {
            case: measure_lag(args.lang, args.games, args.tap, args.cps, args.speed, args.seed, keep_current)
            for case, keep_current in (("before", False), ("after", True))
        }
        if args.json:
            print(json.dumps(lag_figures))
        else:
            _print_lag(lag_figures, args)
        return 0
    if args.device is None and not args.inner:
        return _run_virtual(args)
    figures = measure(args.lang, args.n, args.device if args.device is not None else "kikimimi_bench")
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


def measure(lang: str, n: int, device: str | int) -> dict:
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
    figures: dict = {"lang": lang, "n": n, "device": str(device)}
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


def _print(f: dict) -> None:
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


# -- speaker lag -------------------------------------------------------------------------------------


class _SpokenLength:
    """Audio for any line: silence as long as a voice takes to read it (`cps` characters a second)."""

    RATE = 1000

    def __init__(self, cps: float) -> None:
        self.cps, self.speech = cps, None

    def find(self, line, params):  # noqa: ANN001 - PhraseAudio's signature
        from kikimimi.voice.clip import Clip

        seconds = max(0.2, len(line.reading.replace(" ", "")) / self.cps)
        return Clip(np.zeros(int(seconds * self.RATE), dtype=np.float32), self.RATE), "tts", ""


class _RealTimeSink:
    """A sink that takes a clip's length (plus the gap between phrases), `speed` times faster."""

    def __init__(self, speed: float) -> None:
        self.speed = speed

    def play(self, clip, gain: float) -> None:  # noqa: ANN001
        from kikimimi.voice.sinks import GAP_SECONDS

        time.sleep((clip.seconds + GAP_SECONDS) / self.speed)

    def close(self) -> None:
        pass


def measure_lag(lang: str, games: int, tap: float, cps: float, speed: float, seed: int, keep_current: bool) -> dict:
    """Bot games of the default game (the Trident) at `tap` seconds a tap through a Voice with real-time
    speech; every lag in table seconds. `keep_current`: supersession and short forms on."""
    from kikimimi.games.base import SPEAKER, GameOver, Say, hand
    from kikimimi.games.registry import DEFAULT_GAME, get_info
    from kikimimi.voice.catalog import SHORT_SUFFIX, catalog

    info = get_info(DEFAULT_GAME)
    from kikimimi.voice.config import OutputSpec, VoiceSpec
    from kikimimi.voice.router import Voice

    lags: dict[str, list[float]] = {}
    said = {"count": 0, "short": 0}
    seats = info.seat_count(info.setup_defaults)
    outputs = [OutputSpec(name, None, (1,), 1.0, "wav") for name in (SPEAKER, *map(hand, range(1, seats + 1)))]

    def started(output: str, effect: Say, at: float, start: float) -> None:
        lags.setdefault(output, []).append((start - at) * speed)

    def line_said(output: str, line) -> None:  # noqa: ANN001
        if output == SPEAKER:
            said["count"] += 1
            said["short"] += line.entry.endswith(SHORT_SUFFIX)

    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-lag-") as wav_dir:
        spec = VoiceSpec(lang, "none", None, None, False, Path(wav_dir))
        voice = Voice.open(spec, outputs, on_line=line_said, phrases=catalog(lang, info.catalog))
        voice.audio = _SpokenLength(cps)  # type: ignore[assignment]
        for out in voice.outputs.values():
            if out.wav is not None:
                out.wav.close()
            out.wav = _RealTimeSink(speed)  # type: ignore[assignment]
        voice.on_start = started
        voice.supersede = voice.short_forms = keep_current
        events = 0
        try:
            for game_no in range(games):
                setup = {**info.setup_defaults, "first": 1 + game_no % seats} if "first" in info.setup_defaults \
                    else info.setup_defaults
                game, bots = info.game, info.new_bots(seed + game_no, setup)
                state = game.initial(setup)
                due = time.perf_counter()
                while (event := bots.next_event(state)) is not None and events < 100_000:
                    due += tap / speed
                    time.sleep(max(0.0, due - time.perf_counter()))
                    state, effects = game.apply(state, event)
                    events += 1
                    for effect in effects:
                        if isinstance(effect, Say):
                            voice.say(effect)
                    if effects and isinstance(effects[-1], GameOver):
                        break
                voice.wait_idle(timeout=600)
            dropped = voice.outputs[SPEAKER].dropped
        finally:
            voice.close()
    figures: dict = {"lang": lang, "games": games, "taps": events, "tap_s": tap, "cps": cps,
                     "supersede_and_short": keep_current, "speaker_said": said["count"],
                     "speaker_short": said["short"], "speaker_dropped": dropped}
    for output, values in sorted(lags.items()):
        a = np.array(values)
        figures[output] = {"count": len(a), "p50_s": float(np.percentile(a, 50)),
                           "p95_s": float(np.percentile(a, 95)), "max_s": float(a.max())}
    return figures


def _print_lag(cases: dict, args: argparse.Namespace) -> None:
    print(f"speaker lag, phrase said -> phrase starts ({args.lang}, {args.games} bot Trident games, a tap every "
          f"{args.tap} s, speech {args.cps:g} chars/s, table seconds)")
    for case, f in cases.items():
        label = "before (all phrases, full)" if case == "before" else "after (superseded dropped, short when behind)"
        print(f"  {label}")
        for output in sorted(k for k in f if isinstance(f[k], dict)):
            c = f[output]
            print(f"    {output:<8} n={c['count']:<5} p50 {c['p50_s']:6.2f} s   p95 {c['p95_s']:6.2f} s   "
                  f"max {c['max_s']:6.2f} s")
        print(f"    speaker: {f['speaker_said']} said ({f['speaker_short']} short), {f['speaker_dropped']} superseded")
