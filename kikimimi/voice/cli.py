"""`kikimimi voices render|say|list-outputs`: voice packs and audio bring-up."""

from __future__ import annotations

import argparse
import logging
import sys
import tomllib
from pathlib import Path
from typing import Any

from kikimimi.keyvalue import parse_key_values
from kikimimi.voice.catalog import LANGUAGES, Catalog, CatalogError, catalog
from kikimimi.voice.config import BACKENDS, ConfigError, OutputSpec, default_pack_dir, parse_voice


def register(subparsers: argparse._SubParsersAction) -> None:
    voices = subparsers.add_parser("voices", help="voice packs and audio outputs (render, say, list-outputs)")
    sub = voices.add_subparsers(dest="voices_command", metavar="ACTION", required=True)

    render = sub.add_parser("render", help="pre-render every phrase into a voice pack (only changed texts)")
    render.add_argument("--lang", choices=LANGUAGES, required=True)
    render.add_argument("--backend", choices=[b for b in BACKENDS if b != "none"], default="espeak")
    render.add_argument("--out", type=Path, help="pack folder (default voices/packs/<lang>-<backend>)")
    render.add_argument("--catalog", type=Path, help="catalog folder (default: the shipped voices/catalog)")
    render.add_argument("--game", action="append", metavar="ID",
                        help="only this game's phrases and the common ones (repeat for several; default: every "
                             "registered game, which is tens of thousands of lines: see hardware_docs/bringup.md)")
    render.add_argument("--quiet", action="store_true", help="no progress line")
    render.set_defaults(func=cmd_render)

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


def cmd_render(args: argparse.Namespace) -> int:
    from kikimimi.games.registry import UnknownGame
    from kikimimi.voice.pack import render_pack
    from kikimimi.voice.tts import BackendUnavailable, make_backend

    try:
        if args.catalog:
            phrases: Catalog | list[Catalog] = Catalog.load(args.lang, args.catalog)
        else:
            phrases = game_catalogs(args.lang, args.game)
        backend = make_backend(args.backend, args.lang)
    except (CatalogError, BackendUnavailable, UnknownGame) as exc:
        print(f"voices render: {exc}", file=sys.stderr)
        return 1
    out = args.out or default_pack_dir(args.lang, args.backend)
    voice = getattr(backend, "voice", "")

    def progress(n: int, total: int, entry: str) -> None:
        if not args.quiet:
            print(f"\r  {n}/{total} {entry[:60]:<60}", end="", file=sys.stderr, flush=True)

    report = render_pack(phrases, args.backend, voice, backend.synth, out, progress)
    if not args.quiet:
        print(file=sys.stderr)
    print(
        f"{out}: {len(report.rendered)} rendered, {report.kept} unchanged, {report.removed} removed, "
        f"{len(report.failed)} failed in {report.seconds:.1f} s"
    )
    for entry, error in list(report.failed.items())[:10]:
        print(f"  failed {entry}: {error}", file=sys.stderr)
    return 1 if report.failed else 0


def game_catalogs(lang: str, game_ids: list[str] | None = None) -> list[Catalog]:
    """The catalogs a pack holds: the games' (every registered game's when none is named), each with the
    common phrases. Raises UnknownGame for a game not registered."""
    from kikimimi.games.registry import games, get_info

    chosen = [get_info(game) for game in game_ids] if game_ids else games()
    return [catalog(lang, info.catalog) for info in chosen]


def parse_params(items: list[str]) -> dict[str, Any]:
    """A phrase's parameters, typed as `--set` values are (the one KEY=VALUE reader)."""
    return parse_key_values(items, "parameter", "seat=2")


def load_table_voice(config: Path | None, lang: str | None, backend: str | None, to: str):
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
    except (OSError, ValueError, tomllib.TOMLDecodeError) as exc:  # ConfigError is a ValueError
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
    except (ConfigError, CatalogError) as exc:
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
