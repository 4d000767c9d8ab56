"""`kikimimi voices render|say|list-outputs`: voice packs and audio bring-up."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kikimimi.keyvalue import parse_key_values
from kikimimi.voice.catalog import LANGUAGES, Catalog, CatalogError, catalog
from kikimimi.voice.config import (
    BACKENDS,
    OutputSpec,
    VoiceConfigError,
    VoiceSpec,
    default_backend,
    default_pack_dir,
    parse_voice,
)
from kikimimi.voice.packfile import register as register_packfile


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    voices = subparsers.add_parser("voices", help="voice packs and audio outputs (render, say, list-outputs)")
    sub = voices.add_subparsers(dest="voices_command", metavar="ACTION", required=True)

    render = sub.add_parser(
        "render", help="pre-render phrases into a voice pack (adds or refreshes; never removes another game's)",
        description=f"Renders every phrase of the games named (with every parameter value and short form) into "
                    f"the pack the table reads: {default_pack_dir('LANG', 'BACKEND')}. Only new or changed texts "
                    f"are rendered; another game's phrases stay; stale clips go only with --prune. Interrupted, it "
                    f"keeps what it finished: run it again to render the rest.")
    render.add_argument("--lang", choices=LANGUAGES, required=True)
    render.add_argument("--backend", choices=[b for b in BACKENDS if b != "none"],
                        help="speech backend (default: jtalk, Open JTalk, for ja; espeak for en)")
    render.add_argument("--out", type=Path,
                        help=f"pack folder (default {default_pack_dir('LANG', 'BACKEND')}, where the table looks)")
    render.add_argument("--catalog", type=Path, help="catalog folder (default: the shipped voices/catalog)")
    render.add_argument("--game", action="append", metavar="ID",
                        help="only this game's phrases and the common ones (repeat for several; default: every "
                             "registered game, which is tens of thousands of lines: see hardware_docs/bringup.md)")
    render.add_argument("--prune", action="store_true",
                        help="remove the clips of the rendered games (and common phrases) that their catalogs no "
                             "longer have; other games' clips are never removed")
    render.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="render processes (default: one per core, %(default)s here)")
    render.add_argument("--quiet", action="store_true", help="no progress bar")
    render.set_defaults(func=cmd_render)

    check = sub.add_parser("check", help="check the catalogs' speech: Open JTalk's readings, and every phrase "
                                         "rendered (empty, silent or too long clips)")
    check.add_argument("--lang", choices=LANGUAGES, required=True)
    check.add_argument("--backend", choices=[b for b in BACKENDS if b != "none"],
                       help="speech backend (default: the language's voice)")
    check.add_argument("--game", action="append", metavar="ID", help="only this game (default: every game)")
    check.add_argument("--all", action="store_true", help="render every entry (default: --sample a game)")
    check.add_argument("--sample", type=int, default=50, help="entries rendered per game (default 50)")
    check.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="render processes")
    check.set_defaults(func=cmd_check)

    say = sub.add_parser("say", help="speak one phrase on one output (bring-up, checks)")
    say.add_argument("key", help="phrase key, e.g. bringup.this_is_seat")
    say.add_argument("params", nargs="*", metavar="PARAM=VALUE", help="phrase parameters, e.g. seat=2")
    say.add_argument("--to", required=True, help="output: speaker or hand:N")
    say.add_argument("--config", type=Path, help="table TOML with [voice] and [outputs] (default: default device)")
    say.add_argument("--lang", choices=LANGUAGES, help="language (default: the config's, else en)")
    say.add_argument("--backend", choices=BACKENDS, help="speech backend (overrides the config)")
    say.set_defaults(func=cmd_say)

    list_outputs = sub.add_parser("list-outputs", help="list the audio output devices sounddevice sees")
    list_outputs.set_defaults(func=cmd_list_outputs)
    register_packfile(sub)  # voices export / voices import


def cmd_render(args: argparse.Namespace) -> int:
    from kikimimi.benchclock import Stopwatch, children_cpu_seconds
    from kikimimi.games.registry import UnknownGame
    from kikimimi.voice.pack import render_pack
    from kikimimi.voice.tts import BackendUnavailable, make_backend, voice_identity

    args.backend = args.backend or default_backend(args.lang)
    try:
        if args.catalog:
            phrases: Catalog | list[Catalog] = Catalog.load(args.lang, args.catalog)
        else:
            phrases = game_catalogs(args.lang, args.game)
        backend = make_backend(args.backend, args.lang)  # fails here, with its fix, before any process starts
    except (CatalogError, BackendUnavailable, UnknownGame) as exc:
        print(f"voices render: {exc}", file=sys.stderr)
        return 1
    out = args.out or default_pack_dir(args.lang, args.backend)
    voice = voice_identity(backend)
    jobs = max(1, args.jobs)
    synth = backend.synth if jobs == 1 else None
    print(f"rendering into {out} ({args.lang}, {args.backend}, {jobs} process{'es' if jobs > 1 else ''})",
          file=sys.stderr)
    children_before = children_cpu_seconds()
    try:
        with render_progress(args.quiet) as progress, Stopwatch() as clock:
            report = render_pack(phrases, args.backend, voice, synth, out, progress, prune=args.prune, jobs=jobs)
    except KeyboardInterrupt:
        print(f"voices render: interrupted; the clips finished are kept in {out}: run the same command to render "
              f"the rest", file=sys.stderr)
        return 130
    cpu = clock.cpu + children_cpu_seconds() - children_before
    done, clips = len(report.rendered), report.clips_rendered
    print(
        f"{out}: {done} rendered, {report.kept} unchanged, {report.removed} removed, {len(report.failed)} failed; "
        f"{clips} clips rendered, {report.clips_kept} kept ({report.bytes_written / 1e6:.1f} MB, "
        f"{report.audio_seconds / 60:.1f} min of speech)\n"
        f"  {clips / clock.wall if clock.wall else 0:.1f} clips/s wall, {clips / cpu if cpu else 0:.1f} clips "
        f"per CPU second (render processes included): wall {clock.wall:.1f} s · cpu {cpu:.1f} s · "
        f"load {clock.load:.2f}"
    )
    if report.other_games:
        print(f"  {report.other_games} clips of other games kept")
    if report.stale:
        print(f"  {report.stale} stale clips of these games kept (remove them with --prune)")
    for entry, error in list(report.failed.items())[:10]:
        print(f"  failed {entry}: {error}", file=sys.stderr)
    return 1 if report.failed else 0


@contextmanager
def render_progress(quiet: bool) -> Iterator[Callable[[int, int, str], None] | None]:
    """A rich progress bar on a terminal; in a pipe or a log, a plain line every 10%."""
    if quiet:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        marks: set[int] = set()

        started = time.monotonic()

        def plain(done: int, total: int, entry: str) -> None:
            tenth = 10 * done // max(total, 1)
            if tenth not in marks and (tenth or done == total):
                marks.add(tenth)
                spent = time.monotonic() - started
                rate = done / spent if spent > 0 else 0.0
                left = f", {(total - done) / rate:.0f} s left" if rate > 0 and done < total else ""
                print(f"  {done}/{total} rendered ({10 * tenth}%), {rate:.1f} clips/s{left}", file=sys.stderr,
                      flush=True)

        yield plain
        return
    columns = (TextColumn("[bold]rendering"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
               TextColumn("elapsed,"), TimeRemainingColumn(), TextColumn("left"), TextColumn("{task.fields[entry]}"))
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("render", total=None, entry="", rate="")

        def update(done: int, total: int, entry: str) -> None:
            speed = bar.tasks[0].speed
            bar.update(task, completed=done, total=total, entry=entry[:30],
                       rate=f"{speed:.1f} clips/s" if speed else "")

        yield update


def cmd_check(args: argparse.Namespace) -> int:
    import random
    import tempfile

    from kikimimi.benchclock import Stopwatch
    from kikimimi.voice.pack import render_pack
    from kikimimi.voice.readings import misreadings

    backend = args.backend or default_backend(args.lang)
    try:
        catalogs = game_catalogs(args.lang, args.game)
    except Exception as exc:  # UnknownGame, CatalogError
        print(f"voices check: {exc}", file=sys.stderr)
        return 1
    problems = 0
    if backend == "jtalk":
        found = {m.describe() for words in catalogs for m in misreadings(words)}
        problems += len(found)
        print(f"Open JTalk readings: {len(found)} phrase(s) read otherwise than the catalog's kana"
              + "".join(f"\n  {line}" for line in sorted(found)))
    rng = random.Random(22)
    with tempfile.TemporaryDirectory(prefix="kikimimi-check-") as folder, Stopwatch() as clock:
        for words in catalogs:
            keys = None
            if not args.all:  # a sample of the game's phrases, each with all its values
                keys = rng.sample(sorted(words.phrases), min(args.sample, len(words.phrases)))
            subset = Catalog(words.lang, {k: words.phrases[k] for k in (keys or words.phrases)}, words.values,
                             words.namespace, words.param_types, words.ranges, words.readings)
            report = render_pack(subset, backend, "", None, Path(folder) / (words.namespace or "pack"),
                                 jobs=max(1, args.jobs))
            problems += len(report.failed)
            print(f"{words.namespace}: {len(report.rendered)} phrases rendered, {len(report.failed)} unfit"
                  + "".join(f"\n  {entry}: {why}" for entry, why in sorted(report.failed.items())[:20]))
    print(f"{problems} problem(s); {clock.line()}")
    return 1 if problems else 0


def game_catalogs(lang: str, game_ids: list[str] | None = None) -> list[Catalog]:
    """The catalogs a pack holds: the games' (every registered game's when none is named), each with the
    common phrases. Raises UnknownGame for a game not registered."""
    from kikimimi.games.registry import games, get_info

    chosen = [get_info(game) for game in game_ids] if game_ids else games()
    return [catalog(lang, info.catalog) for info in chosen]


def parse_params(items: list[str]) -> dict[str, Any]:
    """A phrase's parameters, typed as `--set` values are (the one KEY=VALUE reader)."""
    return parse_key_values(items, "parameter", "seat=2")


def load_table_voice(config: Path | None, lang: str | None, backend: str | None,
                     to: str) -> tuple[VoiceSpec, list[OutputSpec]]:
    """The voice spec and outputs from a table TOML, or `to` on the default device without one."""
    data: dict[str, Any] = {}
    if config is not None:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    table = data.get("table", {}) if isinstance(data.get("table"), dict) else {}
    lang = lang or data.get("lang") or data.get("language") or table.get("lang") or "en"
    voice_table = dict(data.get("voice", {}))
    if backend:
        voice_table["backend"] = backend
    outputs_table = data.get("outputs") or {to: {"device": "default", "channels": [1]}}
    source = str(config) if config else "(default output)"
    base = config.parent if config else Path.cwd()
    return parse_voice(voice_table, outputs_table, lang, source, base)


def cmd_say(args: argparse.Namespace) -> int:
    from kikimimi.games.base import Say
    from kikimimi.voice.router import Voice

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        params = parse_params(args.params)
        spec, outputs = load_table_voice(args.config, args.lang, args.backend, args.to)
    except (OSError, ValueError, tomllib.TOMLDecodeError) as exc:  # VoiceConfigError is a ValueError
        print(f"voices say: {exc}", file=sys.stderr)
        return 2
    chosen: list[OutputSpec] = [o for o in outputs if o.name == args.to]
    if not chosen:
        print(
            f"voices say: no output {args.to!r} in {args.config}; configured: {[o.name for o in outputs]}",
            file=sys.stderr,
        )
        return 2
    try:
        voice = Voice.open(spec, chosen, on_line=lambda out, line: print(f"{out}: {line.text}"))
    except (VoiceConfigError, CatalogError) as exc:
        print(f"voices say: {exc}", file=sys.stderr)
        return 2
    try:
        health = voice.health()[args.to]
        print(f"{args.to}: {health.status} ({health.detail})")
        voice.say(Say(args.to, args.key, params))
        voice.wait_idle(timeout=30)
    finally:
        voice.close()
    return 0 if health.status == "ok" else 1


def cmd_list_outputs(args: argparse.Namespace) -> int:
    from kikimimi.voice.mixer import load_sounddevice

    sd, error = load_sounddevice()
    if sd is None:
        print(f"voices list-outputs: {error}", file=sys.stderr)
        return 1
    try:
        devices = sd.query_devices()
        default_out = sd.default.device[1]
    except Exception as exc:
        print(f"voices list-outputs: PortAudio could not list devices: {exc}", file=sys.stderr)
        return 1
    if not any(dev["max_output_channels"] > 0 for dev in devices):
        print("no audio output device found (is a sound card connected? see hardware_docs/audio.md)")
        return 1
    hostapis = sd.query_hostapis()
    print(f"{'#':>3}  {'channels':>8}  {'rate':>6}  name (host API)")
    for dev in devices:
        if dev["max_output_channels"] < 1:
            continue
        mark = "*" if dev["index"] == default_out else " "
        api = hostapis[dev["hostapi"]]["name"]
        print(
            f"{mark}{dev['index']:>2}  {dev['max_output_channels']:>8}  {int(dev['default_samplerate']):>6}  "
            f"{dev['name']} ({api})"
        )
    print('\n* default. In the table\'s TOML: [outputs."hand:1"] device = "<name or #>", channels = [2]')
    return 0
