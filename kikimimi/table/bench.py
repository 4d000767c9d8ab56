"""Table latency: a tap on a simulated reader to the answer's first audio frame; and start to ready.

The tap goes through the whole path (simulated reader -> hub -> deck -> journal on disk -> engine ->
voice -> pack -> mixer callback). Without --device it runs in a subprocess on a virtual ALSA device
(`type file` to /dev/null, as `bench voice` does): the real PortAudio path, but a device that takes audio
as fast as it is given, so on a real card add up to one audio block (printed).
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

from kikimimi.voice.bench import BENCH_ASOUNDRC


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=("ja", "en"), default="ja")
    parser.add_argument("-n", type=int, default=200, help="taps (default 200)")
    parser.add_argument("--device", help="a real output device (name or index) instead of the virtual one")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    if args.device is None and not args.inner:
        with tempfile.TemporaryDirectory(prefix="kikimimi-bench-table-") as home:
            Path(home, ".asoundrc").write_text(BENCH_ASOUNDRC)
            env = {**os.environ, "HOME": home}
            env.pop("ALSA_CONFIG_PATH", None)
            cmd = [sys.executable, "-m", "kikimimi", "bench", "table", "--inner", "--lang", args.lang,
                   "-n", str(args.n)]
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0 or not proc.stdout.strip():
            print(f"bench table: the measuring process failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
            return 1
        figures = json.loads(proc.stdout.strip().splitlines()[-1])
    else:
        figures = measure(args.lang, args.n, args.device if args.device is not None else "kikimimi_bench")
        if args.inner:
            print(json.dumps(figures))
            return 0
    if args.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0 if figures.get("tap_to_sound") else 1


def _process_age() -> float:
    """Seconds since this process started (from /proc; 0 where there is none)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def measure(lang: str, n: int, device: str | int) -> dict:
    from dataclasses import replace

    from kikimimi.devices.simdeck import sim_uid
    from kikimimi.table.config import load_config
    from kikimimi.table.live import open_table
    from kikimimi.voice.catalog import Catalog, catalog
    from kikimimi.voice.pack import Pack, render_pack
    from kikimimi.voice.tts import make_backend

    imports_seconds = _process_age()  # Python and kikimimi's imports, before the bench's own pack rendering
    words = catalog(lang)
    figures: dict = {"lang": lang, "n": n, "device": str(device)}
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-table-") as tmp:
        pack_dir = Path(tmp) / "pack"
        piece_keys = [k for k in words.phrases if k.startswith("piece.")]
        backend = make_backend("espeak", lang)
        render_pack(Catalog(lang, {k: words.phrases[k] for k in piece_keys}, words.values), "espeak",
                    getattr(backend, "voice", ""), backend.synth, pack_dir)
        del backend
        config = load_config(None, {"language": lang, "journal": str(Path(tmp) / "journal.sqlite")})
        voice = replace(config.voice, pack=pack_dir, backend="espeak", allow_shared_channels=False)
        outputs = [replace(o, device=device, channels=(i,)) for i, o in enumerate(config.outputs, start=1)]
        config = replace(config, voice=voice, outputs=outputs)

        frames: list[tuple[str, float]] = []
        started = time.perf_counter()
        table = open_table(config, on_first_frame=lambda out, said, frame: frames.append((out, frame)))
        try:
            # Ready: listening (open_table returned), every reader open and the pack in memory.
            while not all(h.status == "ok" for h in table.hub.health().values()):
                time.sleep(0.001)
            Pack.load(pack_dir, lang, "espeak").preload()  # what the voice's preload thread does, timed here
            figures["ready_ms"] = 1000 * (time.perf_counter() - started)
            figures["process_start_to_ready_ms"] = 1000 * (imports_seconds + time.perf_counter() - started)
            figures["open_table_ms"] = 1000 * table.ready_seconds
            figures["health"] = {k: f"{h.status}: {h.detail}" for k, h in table.voice.health().items()}
            if table.voice.devices and table.voice.devices[0].stream is not None:
                figures["block_ms"] = 1000 * table.voice.devices[0].stream.latency
            # Deal five pieces to each seat; then tap them again and again (each tap: its name, privately).
            pieces = config.info.pieces  # the table's game (the default: the Trident)
            hands = {seat: list(pieces[(seat - 1) * 5:seat * 5]) for seat in (1, 2, 3)}
            delays = []
            for i in range(n):
                seat = 1 + i % 3
                piece = hands[seat][(i // 3) % 5]
                output = f"hand:{seat}"
                frames.clear()
                tapped = time.perf_counter()
                table.hub.simulated(output).tap_and_remove(sim_uid(piece, 0, config.info))
                deadline = tapped + 2.0
                while not any(o == output for o, _ in frames) and time.perf_counter() < deadline:
                    time.sleep(0.0002)
                hits = [t for o, t in frames if o == output]
                if hits:
                    delays.append(hits[0] - tapped)
                table.voice.wait_idle(timeout=5)
                time.sleep(0.02)
            if delays:
                ms = np.array(delays) * 1000
                figures["tap_to_sound"] = {"count": len(ms), "p50_ms": float(np.percentile(ms, 50)),
                                           "p99_ms": float(np.percentile(ms, 99)), "max_ms": float(ms.max())}
        finally:
            table.close()
    return figures


def _print(f: dict) -> None:
    print(f"table latency: tap on a simulated reader -> first audio frame of the answer ({f['lang']}, "
          f"device {f['device']}, pre-rendered pack)")
    c = f.get("tap_to_sound")
    if c:
        print(f"  tap to sound   n={c['count']:<4} p50 {c['p50_ms']:6.2f} ms   p99 {c['p99_ms']:6.2f} ms   "
              f"max {c['max_ms']:6.2f} ms   (target p99 < 20 ms)")
    else:
        print("  tap to sound   no measurement (see health below)")
    print(f"  start to ready {f['ready_ms']:6.0f} ms (open_table {f['open_table_ms']:.0f} ms; from process start "
          f"{f['process_start_to_ready_ms']:.0f} ms incl. Python imports; target < 1000 ms)")
    if "block_ms" in f:
        print(f"  stream output latency {f['block_ms']:.1f} ms (add up to one block on a real card)")
    for name, h in f.get("health", {}).items():
        if not h.startswith("ok"):
            print(f"  {name}: {h}")
