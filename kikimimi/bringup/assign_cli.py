"""`kikimimi bringup --assign`: find the readers, bind each to its role by a tap, write the config."""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from kikimimi.bringup.binding import bind
from kikimimi.bringup.candidates import Candidate, discover
from kikimimi.bringup.configfile import rewrite_readers, write_atomic
from kikimimi.devices.hub import Hub
from kikimimi.games.base import SPEAKER, Say
from kikimimi.paths import data_dir
from kikimimi.table.config import TableConfig, load_config
from kikimimi.voice.catalog import catalog
from kikimimi.voice.router import Voice


def _target(config: TableConfig, args: argparse.Namespace, err: Console) -> Path | None:
    if args.output:
        return Path(args.output)
    shipped = data_dir("devices").resolve()
    if config.source.resolve().is_relative_to(shipped):
        err.print(f"[red]kikimimi bringup --assign: {config.source} is a shipped example; copy it first "
                  f"(cp {config.source} table.toml) and run with --config table.toml, or give --output FILE[/red]")
        return None
    return config.source


def _show(out: Console, candidates: list[Candidate], notes: list[str]) -> None:
    out.print(f"{len(candidates)} reader(s) to bind:")
    for c in candidates:
        out.print(escape(f"  {c.name}: {c.open_path}  ({c.origin}) -> will be written as {c.write_path}"))
    for note in notes:
        out.print(f"[yellow]  note: {escape(note)}[/yellow]")


def run_assign(config: TableConfig, args: argparse.Namespace, err: Console) -> int:
    out = Console(highlight=False, soft_wrap=True)
    target = _target(config, args, err)
    if target is None:
        return 2
    candidates, notes = discover(config, args.reader, args.protocol)
    _show(out, candidates, notes)
    if not candidates:
        err.print("[red]no reader to bind: plug the readers in (`kikimimi devices list` shows what is there) "
                  "or name them with --reader PATH[/red]")
        return 2
    roles = args.role or [s.role for s in config.readers]
    unknown = [r for r in roles if r not in {s.role for s in config.readers}]
    if unknown:
        err.print(f"[red]--role {', '.join(unknown)}: not a reader of {config.source}; its readers: "
                  f"{', '.join(s.role for s in config.readers)}[/red]")
        return 2
    by_name = {c.name: c for c in candidates}
    voice_outputs = [replace(o, sink="transcript") for o in config.outputs] if args.transcript else config.outputs
    voice = Voice.open(config.voice, voice_outputs, phrases=catalog(config.language, config.deck.game))
    hub = Hub([c.spec() for c in candidates], debounce=config.debounce,
              on_health=lambda name, h: out.print(f"  [dim]{name} ({h.path}): {h.status}: {h.detail}[/dim]"))
    end = time.monotonic() + args.seconds if args.seconds else None

    def next_tap() -> str | None:
        while end is None or time.monotonic() < end:
            event = hub.get(timeout=0.2)
            if event is not None and event.kind == "tap":
                out.print(f"  [dim]tap {event.uid} on {event.reader} ({by_name[event.reader].open_path})[/dim]")
                return event.reader
        return None

    def tell(text: str, say: Say | None) -> None:
        out.print(escape(text))
        if say is not None:
            voice.say(say)

    hub.start()
    bound: dict[str, str] = {}
    try:
        bound = bind(roles, list(by_name), next_tap, tell)
    except KeyboardInterrupt:
        out.print("stopped; the configuration is unchanged")
        return 130
    finally:
        hub.stop()
        if bound:
            voice.say(Say(SPEAKER, "bringup.done"))
        voice.wait_idle(timeout=5)
        voice.close()
    if not bound:
        err.print("[yellow]no reader was tapped; the configuration is unchanged[/yellow]")
        return 1
    return _write(config, target, {role: by_name[name] for role, name in bound.items()}, roles, out, err)


def _write(config: TableConfig, target: Path, bound: dict[str, Candidate], roles: list[str], out: Console,
           err: Console) -> int:
    sections = {role: c.section() for role, c in bound.items()}
    text, kept = rewrite_readers(config.source.read_text(encoding="utf-8"), sections)

    def check(tmp: Path) -> None:
        load_config(tmp)  # TableConfigError: refuse to write a config the table would not start with

    try:
        backup = write_atomic(target, text, check)
    except (OSError, ValueError) as exc:
        err.print(f"[red]not written: {escape(str(exc))}[/red]")
        return 1
    out.print(f"wrote {target}" + (f" (previous file kept as {backup})" if backup else ""))
    if not kept:
        out.print("[yellow]the file's layout could not be edited in place, so it was written out anew: its "
                  "comments are gone (they are still in the .bak file)[/yellow]")
    for role, c in bound.items():
        out.print(escape(f"  [readers.{role}] path = {c.write_path}"))
        for note in c.notes:
            out.print(f"[yellow]    note: {escape(note)}[/yellow]")
    left = [r for r in roles if r not in bound]
    if left:
        out.print(f"[yellow]not bound (unchanged): {', '.join(left)}[/yellow]")
        return 1
    return 0
