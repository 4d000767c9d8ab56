"""Table commands: replay, simulate, demo."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console

from kikimimi.voice.catalog import LANGUAGES, catalog


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay an event script (spec/event-script.md)")
    p.add_argument("script", type=Path, help="JSON Lines event script ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print the state report as JSON")
    p.add_argument("--lang", choices=LANGUAGES, default="ja", help="language of spoken text (default ja)")
    p.add_argument("--deck", type=Path, help="deck file to resolve raw tag UIDs")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play whole bot games and check the invariants after every event")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("demo", help="three bots play one game; the transcript shows every output")
    p.add_argument("--lang", choices=LANGUAGES, default="ja")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--rules", choices=("standard", "competition"), default="standard")
    p.set_defaults(func=cmd_demo)


def cmd_replay(args: argparse.Namespace) -> int:
    from kikimimi.devices.deck import DeckError, load_deck
    from kikimimi.table.replay import replay
    from kikimimi.table.transcript import print_state, print_step

    err = Console(stderr=True)
    deck = None
    if args.deck:
        try:
            deck = load_deck(args.deck)
        except DeckError as exc:
            err.print(f"[red]replay: {exc}[/red]")
            return 2
    try:
        text = sys.stdin.read() if str(args.script) == "-" else args.script.read_text(encoding="utf-8")
    except OSError as exc:
        err.print(f"[red]replay: cannot read {args.script}: {exc.strerror}[/red]")
        return 2
    result = replay(text.splitlines(), lang=args.lang, deck=deck)
    for number, message in result.refused:
        err.print(f"[red]{args.script}:{number}: refused: {message}[/red]", highlight=False)
    if args.json:
        print(json.dumps(result.report(), ensure_ascii=False, indent=2))
    else:
        console = Console(highlight=False)
        words = catalog(args.lang)
        for step in result.steps:
            print_step(console, f"{step.line}", step.event, step.effects, words)
        print_state(console, result.report())
    return 0 if result.ok else 1


def cmd_simulate(args: argparse.Namespace) -> int:
    from kikimimi.games.trident.simulate import simulate

    totals = simulate(args.games, args.seed)
    summary = {
        "games": totals.games,
        "wins_by_seat": {str(s): totals.wins[s] for s in (1, 2, 3)},
        "crashes_by_seat": {str(s): totals.crashes[s] for s in (1, 2, 3)},
        "ended_by": dict(totals.ended_by),
        "penalties": dict(totals.penalties),
        "mean_events_per_game": round(totals.events / max(totals.games, 1), 1),
        "games_per_second": round(totals.games_per_second, 1),
        "invariant_violations": len(totals.violations),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        console = Console(highlight=False)
        for key, value in summary.items():
            console.print(f"{key:>22}: {value}")
        for problem in totals.violations[:20]:
            console.print(f"[red]violation: {problem}[/red]")
    return 1 if totals.violations else 0


def cmd_demo(args: argparse.Namespace) -> int:
    from kikimimi.games.base import GameOver
    from kikimimi.games.session import Session
    from kikimimi.games.trident import Trident
    from kikimimi.games.trident.bots import BotTable
    from kikimimi.table.transcript import print_state, print_step

    console = Console(highlight=False)
    words = catalog(args.lang)
    session = Session(Trident(), {"first": 1, "rules": args.rules})
    bots = BotTable(args.seed)
    console.rule(f"kikimimi demo: The Trident, three bots (seed {args.seed}, {args.lang})")
    number = 0
    while (event := bots.next_event(session.state)) is not None:
        number += 1
        effects = session.feed(event)
        print_step(console, str(number), event, effects, words)
        if any(isinstance(e, GameOver) for e in effects):
            break
    print_state(console, session.game.report(session.state))
    return 0
