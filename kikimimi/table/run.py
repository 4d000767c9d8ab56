"""`kikimimi play`: the live table in the terminal, until Ctrl-C or SIGTERM (or the end of a fed script)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType

from rich.console import Console
from rich.logging import RichHandler

from kikimimi.table.config import TableConfig
from kikimimi.table.feed import FeedError, SimTapper, feed_script
from kikimimi.table.journal import JournalError
from kikimimi.table.live import LiveTable, open_table
from kikimimi.table.loop import Step
from kikimimi.table.transcript import PUBLIC, print_step
from kikimimi.voice.catalog import catalog
from kikimimi.words import counted

log = logging.getLogger(__name__)

# Front ends that run a live table instead of the log (`play --console`). They register themselves (the
# console's command module does), so the table never imports the console.
FRONT_ENDS: dict[str, Callable[[LiveTable], int]] = {}
# Servers that run beside the table (`play --web`: the web console), registered the same way: started with the
# table and an option's value, they return how to stop them.
COMPANIONS: dict[str, Callable[[LiveTable, str | None], Callable[[], None]]] = {}


def setup_logging(console: Console, quiet: bool = False) -> None:
    level = logging.WARNING if quiet else logging.INFO
    logging.basicConfig(level=level, format="%(message)s", datefmt="[%X]",
                        handlers=[RichHandler(console=console, show_path=False)], force=True)


def log_steps(table: LiveTable, console: Console, seat: int | None = None) -> None:
    def show(step: Step) -> None:
        label = str(step.seq) if step.seq else "·"
        words = catalog(table.config.language, table.loop.info.catalog)  # the game may change (new game)
        print_step(console, label, step.event, step.effects, words, seat=seat)

    table.loop.listeners.append(show)


def _stop_on_sigterm(stop: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001 - signal's calling convention
        stop.set()

    signal.signal(signal.SIGTERM, handler)


def run_play(config: TableConfig, args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    setup_logging(console, args.quiet)
    # SIGTERM is caught before the table opens: one that comes while it opens (a service stopped at once)
    # then closes it cleanly (its socket file removed, its lock dropped) instead of killing it half-open.
    stop = threading.Event()
    _stop_on_sigterm(stop)
    try:
        table = open_table(config, transcript_only=args.text_only)  # the hub logs each reader's health itself
    except (JournalError, ValueError) as exc:  # TableRunning too; ValueError: readers refused (a PC/SC name)
        print(f"kikimimi: {exc}", file=sys.stderr)  # plain, one line, never wrapped: paths stay whole
        return 2
    log.info("table ready in %.0f ms (journal %s, game %s%s)", table.ready_seconds * 1000, config.journal,
             table.loop.status.game_id, ", resumed" if table.loop.status.resumed else "")
    code = 0
    stop_web = _start_web(table, getattr(args, "web", None))
    try:
        if args.console:
            front = FRONT_ENDS.get("console")
            if front is None:
                log.error("no console installed (kikimimi.console registers itself when the command starts)")
                return 2
            return front(table)
        if not args.quiet:
            # Players may see this screen: hands stay hidden unless the Priest asks for them. The step log
            # shows what the speaker said; the voice's own transcript log would name private lines.
            log_steps(table, console, seat=None if args.reveal_hands else PUBLIC)
            if not args.reveal_hands:
                logging.getLogger("kikimimi.voice.transcript").setLevel(logging.WARNING)
        if args.feed:
            code = _feed(table, args)
            table.voice.wait_idle(timeout=30)
            if not args.stay:
                return code
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if stop_web is not None:
            stop_web()
        table.close()
        log.info("table stopped; the journal keeps the game (%s)", table.loop.status.game_id)
    return code


def _start_web(table: LiveTable, listen: str | None) -> Callable[[], None] | None:
    """`--web [ADDR:PORT]`: the web console beside the table; one that cannot start is said, the table plays."""
    if listen is None:
        return None
    start = COMPANIONS.get("web")
    if start is None:
        log.error("no web console installed (kikimimi.console registers itself when the command starts)")
        return None
    try:
        return start(table, listen or None)
    except (ValueError, OSError) as exc:
        log.error("web console: %s; the table plays without it", exc)
        return None


def _feed(table: LiveTable, args: argparse.Namespace) -> int:
    try:
        data = args.feed.read_bytes()
    except OSError as exc:
        log.error("cannot read %s: %s", args.feed, exc.strerror)
        return 2
    # A line that is not UTF-8 is refused with its number (read_script), as `replay` does; the others are fed.
    lines = data.decode("utf-8", errors="surrogateescape").splitlines()
    saved = []
    if table.loop.status.resumed and table.journal is not None and table.loop.status.game_id:
        saved = list(table.journal.events(table.loop.status.game_id))
    if saved:
        log.info("resuming the feed after the %s the journal already holds", counted(len(saved), "event"))
    try:
        sent = feed_script(SimTapper(table.loop, table.hub), lines, pace=args.pace, saved=saved, source=str(args.feed))
    except FeedError as exc:
        log.error("feed %s stopped: %s", args.feed, exc)
        return 1
    log.info("fed %s from %s", counted(sent, "event"), args.feed)
    return 0
