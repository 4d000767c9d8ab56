"""Table latency: a tap on a simulated reader to the answer's first audio frame; and start to ready.

Timed: taps of pieces in hand (their names, pre-rendered: pack hits); field plays in a game the bots play
on (their first line on the speaker, "play.next", has parameters and is spoken by live speech: every other
play with the live-speech cache emptied, as the first time a line is said); and start to ready from the
process's start (Python and kikimimi's imports included), with the CPU time it took.

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
from typing import TYPE_CHECKING, Any

from kikimimi.benchclock import Stopwatch, process_cpu_seconds

if TYPE_CHECKING:  # imported where they are used: the start-to-ready figure counts the process's imports
    from kikimimi.table.config import TableConfig
    from kikimimi.table.live import LiveTable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=("ja", "en"), default="ja")
    parser.add_argument("-n", type=int, default=200, help="taps (default 200)")
    parser.add_argument("--plays", type=int, default=40, help="field plays (default 40)")
    parser.add_argument("--device", help="a real output device (name or index) instead of the virtual one")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    if args.device is None and not args.inner:
        from kikimimi.voice.bench import BENCH_ASOUNDRC

        with tempfile.TemporaryDirectory(prefix="kikimimi-bench-table-") as home:
            Path(home, ".asoundrc").write_text(BENCH_ASOUNDRC)
            env = {**os.environ, "HOME": home}
            env.pop("ALSA_CONFIG_PATH", None)
            cmd = [sys.executable, "-m", "kikimimi", "bench", "table", "--inner", "--lang", args.lang,
                   "-n", str(args.n), "--plays", str(args.plays)]
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0 or not proc.stdout.strip():
            print(f"bench table: the measuring process failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
            return 1
        figures = json.loads(proc.stdout.strip().splitlines()[-1])
    else:
        figures = measure(args.lang, args.n, args.device if args.device is not None else "kikimimi_bench",
                          args.plays)
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


def measure(lang: str, n: int, device: str | int, plays: int = 40) -> dict[str, Any]:
    from dataclasses import replace

    from kikimimi.table.config import load_config
    from kikimimi.table.live import open_table
    from kikimimi.voice.catalog import Catalog, catalog
    from kikimimi.voice.pack import Pack, render_pack
    from kikimimi.voice.tts import make_backend

    imports_seconds = _process_age()  # Python and kikimimi's imports, before the bench's own pack rendering
    imports_cpu = process_cpu_seconds()
    whole = Stopwatch().__enter__()
    words = catalog(lang)
    figures: dict[str, Any] = {"lang": lang, "n": n, "device": str(device)}
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
        started, started_cpu = time.perf_counter(), process_cpu_seconds()
        table = open_table(config, on_first_frame=lambda out, said, frame: frames.append((out, frame)))
        try:
            # Ready: listening (open_table returned), every reader open and the pack in memory.
            while not all(h.status == "ok" for h in table.hub.health().values()):
                time.sleep(0.001)
            pack = Pack.load(pack_dir, lang, "espeak")
            if pack is None:  # rendered just above: a pack that does not load is this bench's bug
                raise RuntimeError(f"the pack rendered in {pack_dir} does not load")
            pack.preload()  # what the voice's preload thread does, timed here
            figures["ready_ms"] = 1000 * (time.perf_counter() - started)
            figures["process_start_to_ready_ms"] = 1000 * (imports_seconds + time.perf_counter() - started)
            figures["imports_ms"] = 1000 * imports_seconds
            figures["process_start_to_ready_cpu_ms"] = 1000 * (imports_cpu + process_cpu_seconds() - started_cpu)
            figures["open_table_ms"] = 1000 * table.ready_seconds
            figures["health"] = {k: f"{h.status}: {h.detail}" for k, h in table.voice.health().items()}
            if table.voice.devices and table.voice.devices[0].stream is not None:
                figures["block_ms"] = 1000 * table.voice.devices[0].stream.latency
            delays = _hand_taps(table, config, frames, n)
            if delays:
                figures["tap_to_sound"] = _spread(delays)
            live, cached = _field_plays(table, config, frames, plays)
            if live:
                figures["field_play_live"] = _spread(live)
            if cached:
                figures["field_play_cached"] = _spread(cached)
        finally:
            table.close()
    whole.__exit__()
    figures["clock"] = {"wall_s": whole.wall, "cpu_s": whole.cpu, "load": whole.load}
    return figures


def _spread(seconds: list[float]) -> dict[str, Any]:
    import numpy as np  # here, not at the top: the start-to-ready figure counts this process's imports

    ms = np.array(seconds) * 1000
    return {"count": len(ms), "p50_ms": float(np.percentile(ms, 50)), "p99_ms": float(np.percentile(ms, 99)),
            "max_ms": float(ms.max())}


def _hand_taps(table: LiveTable, config: TableConfig, frames: list[tuple[str, float]], n: int) -> list[float]:
    """Five pieces dealt to each seat, tapped again and again: each tap -> the seat's first frame of its name
    (said privately)."""
    from kikimimi.devices.simdeck import sim_uid

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
    return delays


def _field_plays(table: LiveTable, config: TableConfig, frames: list[tuple[str, float]],
                 plays: int) -> tuple[list[float], list[float]]:
    """The game goes on by mistake-free bots' taps; each field play: tap -> the speaker's first frame."""
    from kikimimi.games.base import FIELD, Scan
    from kikimimi.table.feed import SimTapper

    loop = table.loop
    tapper = SimTapper(loop, table.hub)
    bots = config.info.new_bots(1, dict(loop.session.setup), "perfect")
    live: list[float] = []
    cached: list[float] = []
    games = 0
    while len(live) + len(cached) < plays and games < 20:
        event = bots.next_event(loop.state)
        if event is None:  # the game is over: another one, dealt by the bots
            games += 1
            loop.new_game()
            deadline = time.monotonic() + 5
            while loop.game.is_over(loop.state) and time.monotonic() < deadline:
                time.sleep(0.005)
            bots = config.info.new_bots(1 + games, dict(loop.session.setup), "perfect")
            continue
        if not (isinstance(event, Scan) and event.reader == FIELD and loop.state.phase == "turn"):
            tapper.perform(event)
            continue
        fresh = (len(live) + len(cached)) % 2 == 0
        table.voice.wait_idle(timeout=10)
        if fresh:
            table.voice.audio._live.clear()  # the live-speech cache: this play's lines are synthesized anew
        frames.clear()
        tapped = time.perf_counter()
        tapper.perform(event)
        deadline = tapped + 5.0
        while not any(o == "speaker" for o, _ in frames) and time.perf_counter() < deadline:
            time.sleep(0.0002)
        hits = [t for o, t in frames if o == "speaker"]
        if hits:
            (live if fresh else cached).append(hits[0] - tapped)
    table.voice.wait_idle(timeout=10)
    return live, cached


def _print(f: dict[str, Any]) -> None:
    print(f"table latency: tap on a simulated reader -> first audio frame of the answer ({f['lang']}, "
          f"device {f['device']}, pre-rendered pack)")
    rows = (("tap_to_sound", "hand tap, pack hit ", "(target p99 < 20 ms)"),
            ("field_play_live", "field play, live   ", "(speaker's first line by live speech, not cached)"),
            ("field_play_cached", "field play, cached ", "(the same lines said before)"))
    for key, label, note in rows:
        c = f.get(key)
        if c:
            print(f"  {label} n={c['count']:<4} p50 {c['p50_ms']:7.2f} ms   p99 {c['p99_ms']:7.2f} ms   "
                  f"max {c['max_ms']:7.2f} ms   {note}")
        else:
            print(f"  {label} no measurement (see health below)")
    print(f"  start to ready, from process start: {f['process_start_to_ready_ms']:.0f} ms wall, "
          f"{f['process_start_to_ready_cpu_ms']:.0f} ms CPU (Python and imports {f['imports_ms']:.0f} ms, then ready "
          f"{f['ready_ms']:.0f} ms, of it open_table {f['open_table_ms']:.0f} ms; target < 1000 ms)")
    if "block_ms" in f:
        print(f"  stream output latency {f['block_ms']:.1f} ms (add up to one block on a real card)")
    for name, h in f.get("health", {}).items():
        if not h.startswith("ok"):
            print(f"  {name}: {h}")
    clock = f.get("clock")
    if clock:
        print(f"  measuring process: wall {clock['wall_s']:.2f} s · cpu {clock['cpu_s']:.2f} s · "
              f"load {clock['load']:.2f}")
