"""`kikimimi bench voice --lag --realtime`: the speaker's lag and gaps heard through a real-time sound card.

The card is virtual but keeps real time: a PulseAudio null sink (4 channels, 44.1 kHz, clocked by the system
timer) that PortAudio reaches through ALSA's `pulse` plugin, recorded from its monitor with `parec` (Debian:
pulseaudio, pulseaudio-utils, libasound2-plugins). The bench starts its own PulseAudio, private to it.

The bots' games of `--lag` are fed to the live table (the table loop, the simulated readers, the voice and
its mixer, as `kikimimi play --feed SCRIPT --pace TAP` plays them) in a process of its own, run with
real-time scheduling where the system allows it (`chrt -f`). That process notes what its speaker lane was
handed (each phrase's samples and when the game said it); the bench finds each phrase in the recording by
its exact samples. Lag = where its clip starts in the recording - when the game said it (the clock of the
recording is placed by when its data arrived). A gap = digital silence inside a phrase where its samples
were not silent (the card ran dry). With `--busy`, another process keeps one core busy meanwhile.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

SINK = "kikimimi_rt"
RATE = 44100
CHANNELS = 4
CHANNEL_MAP = "front-left,front-right,rear-left,rear-right"  # as ALSA's pulse plugin sends 4 channels: no remix
RT_PRIORITY = 20  # chrt -f for the player
# PulseAudio's threads and the recorder run above the table's audio thread (mixer.AUDIO_RT_PRIORITY): the table
# feeds the card, so the card must never wait for the table's own real-time threads, nor for the machine's load.
CARD_RT_PRIORITY = 30
MATCH_SAMPLES = 256  # a phrase is found where these many of its samples, from its first sound, are recorded
SKIP_SAMPLES = 4410  # ... or, failing that, from this much later (up to three times)
QUIET_AFTER_SECONDS = 2.0  # recorded after the last phrase was handed over
# A new stream through ALSA's pulse plugin plays its first second or so late (PulseAudio fills its buffer at the
# start): a table opens long before its first tap, so the bench lets the stream settle before it feeds taps.
STREAM_SETTLE_SECONDS = 2.0


class CardMissing(RuntimeError):
    """The real-time card cannot be made here; the message names the Debian package."""


def missing_packages() -> str | None:
    """Which Debian package the real-time card needs and is not installed, or None."""
    if shutil.which("pulseaudio") is None:
        return "pulseaudio (Debian package pulseaudio)"
    if shutil.which("parec") is None or shutil.which("pactl") is None:
        return "parec and pactl (Debian package pulseaudio-utils)"
    if not glob.glob("/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so") + glob.glob(
            "/usr/lib/alsa-lib/libasound_module_pcm_pulse.so"):
        return "ALSA's pulse plugin (Debian package libasound2-plugins)"
    return None


def realtime_allowed() -> bool:
    """Whether this process may ask for real-time scheduling (root, or a LimitRTPRIO)."""
    return shutil.which("chrt") is not None and subprocess.run(
        ["chrt", "-f", str(RT_PRIORITY), "true"], capture_output=True).returncode == 0


class Recording:
    """`parec` of the sink's monitor into a file; when its sample 0 was played, in time.monotonic seconds."""

    def __init__(self, env: dict[str, str], path: Path) -> None:
        self.path = path
        self.start_time = float("inf")
        self.frames = 0
        self._proc = subprocess.Popen(
            ["parec", "-d", f"{SINK}.monitor", "--raw", "--format=float32le", f"--rate={RATE}",
             f"--channels={CHANNELS}", f"--channel-map={CHANNEL_MAP}", "--latency-msec=10"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.pid = self._proc.pid
        self._thread = threading.Thread(target=self._read, name="parec-reader", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        frame = 4 * CHANNELS
        with contextlib.suppress(AttributeError, OSError):  # a pipe holds 0.1 s of the card: a late reader
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(CARD_RT_PRIORITY))  # makes parec drop samples
        with self.path.open("wb") as out:
            # stdout is a BufferedReader (bufsize default), typed as IO[bytes], which has no read1.
            while chunk := self._proc.stdout.read1(1 << 16):  # type: ignore[attr-defined]
                now = time.monotonic()
                out.write(chunk)
                self.frames += len(chunk) // frame
                # Data arrives after it was played: the earliest arrival, less what came before it, is the start.
                self.start_time = min(self.start_time, now - self.frames / RATE)

    def stop(self) -> np.ndarray:
        """End the recording; its samples, (frames, CHANNELS)."""
        self._proc.terminate()
        self._proc.wait(timeout=5)
        self._thread.join(timeout=5)
        data = np.fromfile(self.path, dtype="<f4")
        return data[: len(data) // CHANNELS * CHANNELS].reshape(-1, CHANNELS)


class RealtimeCard:
    """A private PulseAudio with one null sink, reachable by PortAudio as the ALSA device `kikimimi_rt`."""

    def __init__(self, folder: Path, realtime: bool = False) -> None:
        self.folder = folder
        self.realtime = realtime
        self.env: dict[str, str] = {}
        self._daemon: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> RealtimeCard:
        if (missing := missing_packages()) is not None:
            raise CardMissing(f"the real-time card needs {missing}")
        run = self.folder / "run"
        run.mkdir(parents=True, exist_ok=True)
        socket = run / "native"
        (self.folder / ".asoundrc").write_text(f'pcm.{SINK} {{ type pulse; device "{SINK}" }}\n')
        if self.realtime:  # as a Pi's PulseAudio is set up (hardware_docs/audio.md): its I/O threads real-time
            conf = self.folder / ".config" / "pulse"
            conf.mkdir(parents=True, exist_ok=True)
            (conf / "daemon.conf").write_text(
                f"high-priority = yes\nnice-level = -11\nrealtime-scheduling = yes\n"
                f"realtime-priority = {CARD_RT_PRIORITY}\n")
        env = {k: v for k, v in os.environ.items() if k not in ("ALSA_CONFIG_PATH", "PULSE_SERVER")}
        self.env = {**env, "HOME": str(self.folder), "XDG_RUNTIME_DIR": str(run),
                    "PULSE_RUNTIME_PATH": str(run / "pulse"), "PULSE_STATE_PATH": str(run / "state"),
                    "PULSE_SERVER": f"unix:{socket}"}
        cmd = ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "-n", "--disallow-exit", "--use-pid-file=no",
               f"--load=module-null-sink sink_name={SINK} rate={RATE} channels={CHANNELS} format=float32le "
               f"channel_map={CHANNEL_MAP}",
               f"--load=module-native-protocol-unix auth-anonymous=1 socket={socket}"]
        if self.realtime:
            cmd = ["chrt", "-f", str(CARD_RT_PRIORITY), *cmd]
        self._daemon = subprocess.Popen(cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode != 0:
            if self._daemon.poll() is not None or time.monotonic() > deadline:
                err = self._daemon.stderr.read().decode(errors="replace") if self._daemon.stderr else ""
                self.__exit__(None, None, None)
                raise CardMissing(f"PulseAudio did not start: {err.strip()[-300:] or 'no answer on its socket'}")
            time.sleep(0.05)
        if self.realtime:
            # PulseAudio drops its main thread (which takes the clients' samples off their sockets) to normal
            # scheduling and only its I/O threads ask for real time: every thread of it real-time, as the card's.
            self.threads_realtime(self._daemon.pid)
        return self

    @staticmethod
    def threads_realtime(pid: int) -> None:
        subprocess.run(["chrt", "-a", "-f", "-p", str(CARD_RT_PRIORITY), str(pid)], check=True, capture_output=True)

    def record(self, path: Path) -> Recording:
        recording = Recording(self.env, path)
        if self.realtime:
            self.threads_realtime(recording.pid)  # a late reader loses samples from the monitor
        return recording

    def __exit__(self, *exc: object) -> None:
        if self._daemon is not None and self._daemon.poll() is None:
            self._daemon.terminate()
            try:
                self._daemon.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._daemon.kill()
                self._daemon.wait()


# -- finding what the speaker lane was handed in the recording ---------------------------------------------


@dataclass(frozen=True)
class Heard:
    key: str
    lag: float  # seconds from the game saying it to its clip starting in the recording
    gaps: int  # runs of digital silence inside it where its own samples were not silent
    gap_seconds: float


def find_phrases(recorded: np.ndarray, start_time: float, phrases: list[dict[str, Any]],
                 samples: np.ndarray) -> tuple[list[Heard], int]:
    """Each phrase (in the order it was handed over) found in the recorded speaker channel; (found, not found)."""
    heard: list[Heard] = []
    missing = 0
    cursor = 0
    for phrase in phrases:
        clip = samples[phrase["offset"]: phrase["offset"] + phrase["length"]]
        first = phrase["first_sound"]
        if first >= len(clip):
            continue  # silence: nothing to find
        # From its first sound; a hole there (the card ran dry just then) leaves a later stretch to find it by.
        for skip in range(0, min(len(clip) - first, 4 * SKIP_SAMPLES), SKIP_SAMPLES):
            if (at := _find(recorded, clip[first + skip:first + skip + MATCH_SAMPLES], cursor)) is not None:
                break
        if at is None:
            missing += 1
            continue
        gaps, gap_frames, end = _gaps(recorded, at, clip[first + skip:])
        cursor = end
        lag = start_time + (at - skip - first) / RATE - phrase["said"]
        heard.append(Heard(phrase["key"], lag, gaps, gap_frames / RATE))
    return heard, missing


def _find(recorded: np.ndarray, needle: np.ndarray, start: int) -> int | None:
    """The first index from `start` where `needle` is recorded sample for sample."""
    candidates = np.flatnonzero(recorded[start:] == needle[0])
    for candidate in candidates[:20000]:
        at = start + int(candidate)
        if np.array_equal(recorded[at:at + len(needle)], needle):
            return at
    return None


def _gaps(recorded: np.ndarray, at: int, expected: np.ndarray) -> tuple[int, int, int]:
    """Walk the phrase through the recording from `at`, skipping runs of inserted digital silence; (gaps,
    silent frames inserted, where the phrase ends in the recording)."""
    gaps = inserted = 0
    pos, done = at, 0
    while done < len(expected):
        got = recorded[pos:pos + len(expected) - done]
        want = expected[done:done + len(got)]
        differ = np.flatnonzero(got != want)
        if not len(differ):
            return gaps, inserted, pos + len(got)
        d = int(differ[0])
        silent = np.flatnonzero(recorded[pos + d:] != 0)
        run = int(silent[0]) if len(silent) else 0
        if run == 0:
            break  # something else is recorded here: stop following this phrase
        gaps += 1
        inserted += run
        pos += d + run
        done += d
    return gaps, inserted, pos


# -- the player: the live table fed the bots' game, in its own process ---------------------------------------


def play_inner(args: argparse.Namespace) -> int:
    """`--inner-play DIR`: play DIR/feed.jsonl on the table of DIR/table.toml; note what the speaker lane plays."""
    from kikimimi.games.base import SPEAKER
    from kikimimi.table.config import load_config
    from kikimimi.table.feed import SimTapper
    from kikimimi.table.live import open_table
    from kikimimi.voice.lagbench import awaited as lagbench_awaited
    from kikimimi.voice.lagbench import waits_for
    from kikimimi.voice.mixer import Playing

    folder = Path(args.inner_play)
    config = load_config(folder / "table.toml")
    table = open_table(config)
    voice = table.voice
    out = voice.outputs[SPEAKER]
    lane = out.lane
    if lane is None or out.status != "ok":
        print(f"the speaker is not on the real-time card: {out.detail}", file=sys.stderr)
        table.close()
        return 1
    notes: list[dict[str, Any]] = []
    speaking = threading.local()
    samples_file = (folder / "speaker.f32").open("wb")
    offset = 0
    queue, speak = lane.queue, voice._speak

    # The speaker phrases the players wait to hear, by id: the table speaks a step before its listeners see it,
    # so a phrase may be handed to the lane before it is known to be awaited, or after.
    awaited: set[int] = set()  # known to be awaited, not yet handed to the lane
    ends: dict[int, tuple[Any, int]] = {}  # handed to the lane: (the phrase, kept alive; where it ends in the lane)
    heard_at = 0  # the lane's sample count once the last awaited phrase has played
    waiting_lock = threading.Lock()

    def noting_speak(output: Any, effect: Any, *rest: Any) -> None:
        nonlocal heard_at
        speaking.key = effect.key
        speak(output, effect, *rest)
        end = lane.written + sum(len(p.samples) - p.pos for p in list(lane.backlog))
        with waiting_lock:
            ends[id(effect)] = (effect, end)
            if id(effect) in awaited:
                awaited.discard(id(effect))
                heard_at = max(heard_at, end)

    def noting_queue(playing: Playing) -> None:
        nonlocal offset
        data = np.ascontiguousarray(playing.samples, dtype=np.float32)
        notes.append({"key": getattr(speaking, "key", "?"), "said": playing.say_time, "offset": offset,
                      "length": len(data), "first_sound": playing.first_sound})
        samples_file.write(data.tobytes())
        offset += len(data)
        queue(playing)

    # The bench notes each phrase as the table speaks it: the instance methods are wrapped on purpose.
    voice._speak = noting_speak  # type: ignore[method-assign,assignment]
    lane.queue = noting_queue  # type: ignore[method-assign]
    lines = (folder / "feed.jsonl").read_text(encoding="utf-8").splitlines()
    tap = args.tap[0] if args.tap else 1.5
    waits = table.loop.info.heard_before_next

    def on_step(step: Any) -> None:
        nonlocal heard_at
        if any(waits_for(effect, waits) for effect in step.effects):
            group = voice.catalog.group
            with waiting_lock:
                for e in step.effects:
                    if lagbench_awaited(e, waits, group(getattr(e, "key", ""))):
                        if id(e) in ends:  # already handed over: heard once the lane has played it
                            heard_at = max(heard_at, ends[id(e)][1])
                        else:
                            awaited.add(id(e))

    table.loop.listeners.append(on_step)
    tapper = SimTapper(table.loop, table.hub)
    time.sleep(STREAM_SETTLE_SECONDS)
    try:
        for event in read_events(lines, tapper):
            tapper.perform(event)
            # The players wait to hear the reveal (what the tap says with it, not what a newer phrase drops:
            # `lagbench.awaited`), then tap a tap's time later.
            deadline = time.monotonic() + 60
            while (awaited or lane.played < heard_at) and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(tap)
        voice.wait_idle(timeout=120)
        device = out.device
        result = {"phrases": notes, "underflows": device.underflows if device else 0,
                  "audio_thread_realtime": device.realtime if device else False,
                  "starved": device.starved if device else 0, "rate": device.rate if device else 0,
                  "latency": float(device.stream.latency) if device and device.stream else 0.0}
    finally:
        table.close()
        samples_file.close()
    (folder / "played.json").write_text(json.dumps(result))
    return 0


def read_events(lines: list[str], tapper: Any) -> Iterator[Any]:
    """The script's events (its set-up line starts the game on the table, as `play --feed` does)."""
    from kikimimi.table.script import read_script

    for line in read_script(lines, tapper.deck):
        if line.setup is not None:
            if {"game": tapper.loop.info.id, **tapper.loop.session.setup} == line.setup:
                continue
            count = tapper.loop.processed
            tapper.loop.new_game(line.setup)
            tapper.loop.wait_processed(count + 1, tapper.timeout)
        elif line.event is not None:
            yield line.event
        else:
            raise RuntimeError(f"feed line {line.number}: {line.error}")


def table_toml(game_id: str, lang: str, pack: Path, backend: str, folder: Path, latency: str = "\"high\"") -> str:
    """A simulated table of the game whose speaker and first three earphones are the card's four channels."""
    from kikimimi.games.registry import get_info
    from kikimimi.table.config import default_config_path

    info = get_info(game_id)
    sim = default_config_path(game_id).read_text(encoding="utf-8")
    head = sim.split("[voice]")[0]
    head = "\n".join(line for line in head.splitlines() if not line.startswith(("language", "journal")))
    outputs = [f'[outputs.speaker]\ndevice = "{SINK}"\nchannels = [1]']
    hands = sorted({r for r in info.outputs(dict(info.setup_defaults)) if r.startswith("hand:")},
                   key=lambda r: int(r.split(":")[1]))
    for n, hand in enumerate(hands):
        where = f'device = "{SINK}"\nchannels = [{n + 2}]' if n < CHANNELS - 1 else 'sink = "null"'
        outputs.append(f'[outputs."{hand}"]\n{where}')
    return (f'language = "{lang}"\njournal = "{folder / "journal.sqlite"}"\n{head}\n'
            f'[voice]\nbackend = "{backend}"\npack = "{pack}"\nlatency = {latency}\n\n' + "\n".join(outputs) + "\n")


def _busy_core() -> subprocess.Popen[bytes]:
    """Another process keeping one core busy (at the default priority), as a table's other work might."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def play_realtime(card: RealtimeCard, game_id: str, game_no: int, seed: int, lang: str, backend: str,
                  pack: Path, tap: float, folder: Path, realtime: bool, latency: str) -> dict[str, Any]:
    """One bot game fed to the live table at `tap` seconds a tap, recorded; what the speaker was heard saying."""
    from kikimimi.games.codec import event_to_json
    from kikimimi.voice import lagbench

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "table.toml").write_text(table_toml(game_id, lang, pack, backend, folder, latency), encoding="utf-8")
    script = [json.dumps({"game": game_id, **lagbench.bot_setup(game_id, game_no)})]
    script += [json.dumps(event_to_json(event)) for event, _effects in lagbench.bot_game(game_id, game_no, seed)]
    (folder / "feed.jsonl").write_text("\n".join(script) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "kikimimi", "bench", "voice", "--lag", "--realtime", "--inner-play", str(folder),
           "--tap", f"{tap:g}", "--lang", lang]
    if realtime:
        cmd = ["chrt", "-f", str(RT_PRIORITY), *cmd]
    recording = card.record(folder / "recorded.f32")
    try:
        proc = subprocess.run(cmd, env={**card.env, "KIKIMIMI_DATA": str(folder)}, capture_output=True, text=True)
        time.sleep(QUIET_AFTER_SECONDS)
    finally:
        recorded = recording.stop()
    if proc.returncode != 0:
        raise RuntimeError(f"the table's process failed: {proc.stderr.strip()[-1500:]}")
    played = json.loads((folder / "played.json").read_text())
    samples = np.fromfile(folder / "speaker.f32", dtype=np.float32)
    heard, missing = find_phrases(recorded[:, 0], recording.start_time, played["phrases"], samples)
    for name in ("recorded.f32", "speaker.f32"):
        (folder / name).unlink(missing_ok=True)  # large: the figures are what is kept
    return {"heard": heard, "missing": missing, "underflows": played["underflows"], "starved": played["starved"],
            "audio_thread_realtime": played["audio_thread_realtime"],
            "latency": played["latency"], "said": len(played["phrases"])}


def _figures(values: list[float]) -> dict[str, float]:
    a = np.array(values) if values else np.zeros(1)
    return {"count": len(values), "p50_s": float(np.percentile(a, 50)), "p95_s": float(np.percentile(a, 95)),
            "max_s": float(a.max())}


def run(args: argparse.Namespace) -> int:
    """The real-time bench: every game's bot games through the card, beside the simulated bench's figures."""
    import tempfile

    from kikimimi.benchclock import Stopwatch, children_cpu_seconds
    from kikimimi.games.registry import games
    from kikimimi.voice import lagbench
    from kikimimi.voice.config import default_backend

    if args.inner_play:
        return play_inner(args)
    if (missing := missing_packages()) is not None:
        print(f"bench voice --realtime: needs {missing}; `./run` installs it", file=sys.stderr)
        return 2
    backend = args.backend or default_backend(args.lang)
    game_ids = args.game or [info.id for info in games()]
    tap = (args.tap or [lagbench.PACES[0]])[0]
    realtime = realtime_allowed()
    try:
        latency = json.dumps(float(args.latency))
    except ValueError:
        latency = json.dumps(args.latency)
    results: dict[str, Any] = {"lang": args.lang, "backend": backend, "games_each": args.games, "tap": tap,
                               "realtime_scheduling": realtime, "busy_core": args.busy, "latency": args.latency}
    children_before = children_cpu_seconds()
    busy = _busy_core() if args.busy else None
    try:
        with Stopwatch() as clock, tempfile.TemporaryDirectory(prefix="kikimimi-bench-rt-") as tmp:
            folder = Path(tmp)
            lines: dict[str, Any] = {}
            joins: dict[str, list[str]] = {}
            plays = {g: lagbench.play_games(g, args.games, args.seed, args.lang, lines, joins) for g in game_ids}
            seconds = lagbench.render_as_pack(args.lang, backend, lines, folder / "pack", os.cpu_count() or 1,
                                              game_ids, lagbench.clip_cache(args.lang, backend))
            for entry, parts in joins.items():
                seconds[entry] = lagbench.join_seconds([seconds[part] for part in parts])
            with RealtimeCard(folder / "card", realtime=realtime) as card:
                for game_id in game_ids:
                    runs = [play_realtime(card, game_id, n, args.seed, args.lang, backend, folder / "pack", tap,
                                          folder / f"{game_id}-{n}", realtime, latency) for n in range(args.games)]
                    heard = [h for r in runs for h in r["heard"]]
                    simulated = lagbench.simulate(plays[game_id], tap, seconds, keep_current=True)
                    results[game_id] = {
                        "real": _figures([h.lag for h in heard]),
                        "simulated": simulated.get("speaker"),
                        "said": sum(r["said"] for r in runs), "not_found": sum(r["missing"] for r in runs),
                        "phrases_with_gaps": sum(1 for h in heard if h.gaps),
                        "gaps": sum(h.gaps for h in heard),
                        "longest_gap_ms": 1000 * max((h.gap_seconds for h in heard), default=0.0),
                        "underflows": sum(r["underflows"] for r in runs), "starved": sum(r["starved"] for r in runs),
                        "stream_latency_ms": 1000 * runs[0]["latency"] if runs else 0.0,
                        "audio_thread_realtime": all(r["audio_thread_realtime"] for r in runs),
                        "slowest": sorted(((h.lag, h.key) for h in heard), reverse=True)[:3],
                    }
    except CardMissing as exc:
        print(f"bench voice --realtime: {exc}", file=sys.stderr)
        return 2
    finally:
        if busy is not None:
            busy.terminate()
            busy.wait()
    cpu = clock.cpu + children_cpu_seconds() - children_before
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"speaker lag heard through a real-time card, phrase said -> its clip starts in the recording "
          f"({args.lang}, {backend}; {args.games} bot games per game at {tap:g} s a tap; "
          f"{'real-time scheduling' if realtime else 'no real-time scheduling (not allowed here)'}"
          f"{'; another process busy on one core' if args.busy else ''}; [voice] latency {args.latency})")
    print(f"  {'game':<11} {'real p50 / p95 / max':>22}  {'simulated p50 / p95 / max':>27}  {'phrases':>7} "
          f"{'gaps':>5} {'in':>4} {'longest':>8} {'underflows':>10} {'starved':>7} {'missing':>7}")
    worst = 0.0
    for game_id in game_ids:
        f = results[game_id]
        real, sim = f["real"], f["simulated"] or {"p50_s": 0.0, "p95_s": 0.0, "max_s": 0.0}
        worst = max(worst, real["p95_s"])
        print(f"  {game_id:<11} {real['p50_s']:5.2f} {real['p95_s']:6.2f} {real['max_s']:6.2f} s  "
              f"{sim['p50_s']:9.2f} {sim['p95_s']:6.2f} {sim['max_s']:6.2f} s  {real['count']:>7} {f['gaps']:>5} "
              f"{f['phrases_with_gaps']:>4} {f['longest_gap_ms']:6.0f} ms {f['underflows']:>10} {f['starved']:>7} "
              f"{f['not_found']:>7}")
    verdict = "meets" if worst <= lagbench.GOAL_P95 else "misses"
    print(f"  worst real p95: {worst:.2f} s ({verdict} the goal of {lagbench.GOAL_P95:g} s); gaps = runs of "
          f"digital silence inside a phrase (in = phrases with one); underflows = PortAudio's count, starved = "
          f"blocks the mixer's ring ran dry, both from the table's own counters")
    print(f"  wall {clock.wall:.1f} s · cpu {cpu:.1f} s (children included) · load {clock.load:.2f}")
    return 0
