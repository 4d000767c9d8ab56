"""`kikimimi demo`: bots play any registered game on its simulated table, through the real
readers-to-voice path (taps on simulated readers, the hub, the loop, the journal, the voice).

With `--seat N` a person plays seat N from the keyboard, for games that have a keyboard player.
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console

from kikimimi.table.config import TableConfig
from kikimimi.table.feed import FeedError, SimTapper
from kikimimi.table.live import LiveTable, open_table
from kikimimi.table.run import log_steps, setup_logging
from kikimimi.table.transcript import print_state

log = logging.getLogger(__name__)


def run_demo(config: TableConfig, args: argparse.Namespace,
             state_view: Callable[..., Any] | None = None) -> int:
    """`state_view`: the game's panel printed at the end (the command layer gives the console's drawing)."""
    console = Console(highlight=False)
    setup_logging(console, quiet=True)
    info = config.info
    if args.seat and not info.keyboard_class():
        console.print(f"[red]kikimimi demo: {info.title('en')} has no keyboard player yet; watch the bots, or play "
                      f"any seat from the console's virtual table (kikimimi play --console)[/red]")
        return 2
    if args.seat and not 1 <= args.seat <= info.seat_count(config.game_setup):
        console.print(f"[red]kikimimi demo: --seat {args.seat}: {info.title('en')} is played by seats "
                      f"1-{info.seat_count(config.game_setup)}[/red]")
        return 2
    with tempfile.TemporaryDirectory(prefix="kikimimi-demo-") as tmp:
        # The demo keeps its own journal: it never resumes or touches the table's real games.
        config = replace(config, journal=Path(tmp) / "demo-journal.sqlite")
        table = open_table(config, record_dir=args.record, transcript_only=args.text_only)
        try:
            return _play(table, args, console, state_view)
        except KeyboardInterrupt:
            return 130
        finally:
            table.close()
            if args.record:
                console.print(f"WAV per output in {args.record}")


def _play(table: LiveTable, args: argparse.Namespace, console: Console,
          state_view: Callable[..., Any] | None) -> int:
    loop = table.loop
    info = loop.info
    setup = dict(loop.session.setup)
    used = set(info.outputs(setup))  # a table built for more seats: the earphones nobody wears are not listed
    audio = {name: h.status for name, h in table.voice.health().items() if name in used}
    console.rule(f"kikimimi demo: {info.title(table.config.language)} on the simulated table "
                 f"({info.seat_count(setup)} seats, {table.config.language}, seed {args.seed})")
    console.print(f"ready in {table.ready_seconds * 1000:.0f} ms; audio: "
                  + ", ".join(f"{n} {s}" for n, s in audio.items()), style="dim")
    log_steps(table, console, seat=args.seat)
    tapper = SimTapper(loop, table.hub)
    bot_names = tuple(info.roster())
    name = getattr(args, "bots", None) or ("strong" if args.seat and "strong" in bot_names else None)
    if name and name not in bot_names:
        console.print(f"[red]kikimimi demo: --bots {name}: {info.title('en')} has bots {', '.join(bot_names)}[/red]")
        return 2
    bots = info.new_bots(args.seed, setup, name)
    keyboard = info.keyboard_class()
    human = keyboard(args.seat, args.seed, console) if args.seat and keyboard is not None else None
    if human is not None and hasattr(human, "observe"):
        loop.listeners.append(lambda step: human.observe(step.event))  # the order pieces reach the seat
    humans = (args.seat,) if args.seat else ()
    while not loop.game.is_over(loop.state):
        state = loop.state
        event = bots.next_event(state, humans)
        if event is None and human is not None:
            event = human.decide(state)
        if event is None:
            log.error("demo: the bots stopped before the end of the game")
            return 1
        if isinstance(event, str):  # the person left
            return 0
        try:
            tapper.perform(event)
        except FeedError as exc:
            log.error("demo: %s", exc)
            return 1
        if not args.fast:
            table.voice.wait_idle(timeout=15)
            if not human:
                time.sleep(args.pace)
    table.voice.wait_idle(timeout=30)
    print_state(console, loop.report(), view=state_view, seat=args.seat)
    return 0
