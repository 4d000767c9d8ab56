"""Table commands: replay, simulate, demo."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.cliargs import seconds, whole
from kikimimi.keyvalue import parse_key_values
from kikimimi.voice.languages import LANGUAGES

if TYPE_CHECKING:
    from rich.console import Console

    from kikimimi.table.config import TableConfig
    from kikimimi.table.journal import Journal


def _console(**options: Any) -> Console:
    from rich.console import Console  # a command imports what it runs: `kikimimi --help` needs no rich

    return Console(**options)


def error(message: str) -> None:
    """An error for the person at the terminal: plain text, never wrapped, so paths stay whole."""
    print(f"kikimimi: {message}", file=sys.stderr)


REPLAY_FORMAT = """Replay an event script through the game's rules and print what each output said.

An event script is JSON Lines, one object per line:
  {"game": "trident", "first": 1}            the first line may set the game up (`kikimimi games`: set-up keys)
  {"scan": "hand:1", "piece": "heart-1"}      a tap of a piece or control on a reader
  {"scan": "field", "uid": "04a1b2c3"}        a tap of a raw tag UID (needs --deck)
  {"referee": "undo"}                         a referee action, with its parameters as further keys
A line the format does not allow is reported with its number and skipped; a line the rules refuse is
an event like any other. `kikimimi journal export GAME` writes a played game as such a script."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay an event script of any game", description=REPLAY_FORMAT,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("script", type=Path, help="JSON Lines event script ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print the state report as JSON")
    p.add_argument("--lang", choices=LANGUAGES, default="ja", help="language of spoken text (default ja)")
    p.add_argument("--deck", type=Path, help="deck file to resolve raw tag UIDs")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play whole bot games and check every rule of the game after every event")
    p.add_argument("--game", help="the game (default: the default game; `kikimimi games` lists them)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a set-up key (repeatable)")
    p.add_argument("--games", type=whole(1), default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("demo", help="bots play a game on its simulated table; every output is shown")
    p.add_argument("--game", help="the game (default: the table's; `kikimimi games` lists them)")
    p.add_argument("--players", type=int, help="seats, for games played by 2 to 10 (e.g. 6 nimmt!)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a set-up key of the game, e.g. --set rules=competition (repeatable)")
    p.add_argument("--config", type=Path, help="table TOML (default: the game's simulated table)")
    p.add_argument("--lang", choices=LANGUAGES, help="language (default: the table's, ja)")
    p.add_argument("--seed", type=int, default=7)
    # Kept for command lines written before --set: the same as `--set rules=...`, a set-up key of one game,
    # so not offered in the help (`kikimimi games` lists each game's set-up keys).
    p.add_argument("--rules", help=argparse.SUPPRESS)
    p.add_argument("--fast", action="store_true", help="no human pace: tap as fast as the table answers")
    p.add_argument("--pace", type=seconds(0, 60), default=0.6, help="seconds between taps at human pace (default 0.6)")
    p.add_argument("--record", type=Path, metavar="DIR", help="keep a WAV file per output in DIR")
    p.add_argument("--seat", type=int, help="play this seat yourself from the keyboard")
    p.add_argument("--bots", metavar="NAME", help="the bots' strength, one of the game's bots (the Trident: bot, "
                   "perfect, rules, strong); default: the game's own, 'strong' against a keyboard seat if it has one")
    p.add_argument("--text-only", action="store_true", help="no audio, the transcript only")
    p.set_defaults(func=cmd_demo)

    simtables = sub.add_parser("simtables", help="the simulated tables and their decks, one per game "
                               "(devices/tables/<game>-sim.toml, devices/decks/<game>-sim.toml)")
    simtables.add_argument("--game", help="one game (default: every registered game)")
    simtables.add_argument("--write", action="store_true", help="write the shipped files instead of printing")
    simtables.set_defaults(func=cmd_simtables)


    p = sub.add_parser("games", help="the games this table plays, their seats and set-up keys")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("play", help="run the live table: readers, voice, journal")
    p.add_argument("--game", help="play this game (default: the config's `game`)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a set-up key (repeatable)")
    p.add_argument("--config", type=Path, help="table TOML (default: the game's simulated table)")
    p.add_argument("--feed", type=Path, metavar="SCRIPT", help="tap an event script through the simulated readers")
    p.add_argument("--pace", type=seconds(0, 60), default=0.0, help="seconds between fed taps")
    p.add_argument("--stay", action="store_true", help="keep running after the feed is done")
    p.add_argument("--console", action="store_true", help="the Priest's console instead of the log")
    p.add_argument("--web", nargs="?", const="", metavar="ADDR:PORT",
                   help="serve the Priest's web console for a tablet too (default 0.0.0.0:8770)")
    p.add_argument("--text-only", action="store_true", help="no audio, the transcript only")
    p.add_argument("--quiet", action="store_true", help="no live log")
    p.add_argument("--reveal-hands", action="store_true",
                   help="the log names hand taps and earphone lines (players may see the screen: off by default)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("journal", help="games kept in the journal")
    jsub = p.add_subparsers(dest="journal_command", required=True, metavar="COMMAND")
    q = jsub.add_parser("list", help="every game: id, start, events, how it ended")
    q.add_argument("--config", type=Path)
    q.set_defaults(func=cmd_journal_list)
    q = jsub.add_parser("export", help="a game as an event script that `kikimimi replay` accepts")
    q.add_argument("game", help="game id (or a unique prefix)")
    q.add_argument("--config", type=Path)
    q.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    q.set_defaults(func=cmd_journal_export)


def cmd_replay(args: argparse.Namespace) -> int:
    from kikimimi.devices.deck import DeckError, load_deck
    from kikimimi.table.replay import replay
    from kikimimi.table.transcript import print_state, print_step

    deck = None
    if args.deck:
        try:
            deck = load_deck(args.deck)
        except DeckError as exc:
            error(f"replay: {exc}")
            return 2
    try:
        data = sys.stdin.buffer.read() if str(args.script) == "-" else args.script.read_bytes()
    except OSError as exc:
        error(f"replay: cannot read {args.script}: {exc.strerror}")
        return 2
    # A line that is not UTF-8 is refused with its number (read_script), the others replayed.
    text = data.decode("utf-8", errors="surrogateescape")
    result = replay(text.splitlines(), lang=args.lang, deck=deck)
    for number, message in result.refused:
        error(f"{args.script}:{number}: refused: {message}")
    if args.json:
        import json

        print(json.dumps(result.report(), ensure_ascii=False, indent=2))
    else:
        console = _console(highlight=False)
        from kikimimi.voice.catalog import catalog

        words = catalog(args.lang, result.info.catalog)
        for step in result.steps:
            print_step(console, f"{step.line}", step.event, step.effects, words)
        from kikimimi.console.modeltext import state_view

        print_state(console, result.report(), view=state_view(result.info))
    return 0 if result.ok else 1


def parse_assignments(items: list[str]) -> dict[str, Any]:
    """`--set key=value` values (numbers and true/false typed, else the text)."""
    return parse_key_values(items, "--set", "--set first=2")


def cmd_simulate(args: argparse.Namespace) -> int:
    from kikimimi.games.conformance import simulate
    from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, get_info

    try:
        info = get_info(args.game or DEFAULT_GAME)
        setup = info.parse_setup(parse_assignments(args.set))
    except (UnknownGame, ValueError) as exc:
        error(f"simulate: {exc}")
        return 2
    totals = simulate(info, args.games, args.seed, setup)
    summary = totals.summary(info)
    problems = totals.problems[:20]
    if args.json:
        import json

        print(json.dumps(summary, indent=2))
    else:
        console = _console(highlight=False)
        for key, value in summary.items():
            console.print(f"{key:>22}: {value}")
        for problem in problems:
            console.print(f"[red]violation: {problem}[/red]")
    return 1 if summary.get("invariant_violations") else 0


def cmd_games(args: argparse.Namespace) -> int:
    """Plain lines, not a rich table: the listing is the one command that must start at once (no rich import)."""
    from kikimimi.games.registry import games

    for info in games():
        seats = str(info.seats[0]) if info.seats[0] == info.seats[1] else f"{info.seats[0]}-{info.seats[1]}"
        print(f"{info.id:<12} {info.title('en')} ({info.title('ja')}), {seats} seats")
        for key in info.setup_keys:
            print(f"{'':<12}   {key.describe()}")
    return 0


def _config(path: Path | None, overrides: dict[str, Any] | None = None,
            game: str | None = None) -> TableConfig | None:
    from kikimimi.table.config import TableConfigError, default_config_path, load_config

    try:
        if path is None and game is not None:
            path = default_config_path(game)
            if not path.exists():
                raise TableConfigError(f"no simulated table for game {game!r} ({path}); `kikimimi games` lists "
                                       f"the games")
        return load_config(path, overrides)
    except TableConfigError as exc:
        error(f"{exc}")
        return None


def _overrides(args: argparse.Namespace) -> dict[str, Any] | None:
    """Config overrides from --game, --set, --players, --rules and --lang; None after an error message."""
    overrides: dict[str, Any] = {}
    try:
        overrides.update(parse_assignments(getattr(args, "set", [])))
    except ValueError as exc:
        error(str(exc))
        return None
    if getattr(args, "game", None):
        overrides["game"] = args.game
    if getattr(args, "lang", None):
        overrides["language"] = args.lang
    if getattr(args, "rules", None):
        overrides["rules"] = args.rules
    if getattr(args, "players", None):
        from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, get_info

        try:
            info = get_info(args.game or DEFAULT_GAME)
        except UnknownGame as exc:
            error(str(exc))
            return None
        if info.seat_key is None:
            error(f"--players: {info.title('en')} is played by {info.seats[0]} seats, always")
            return None
        overrides[info.seat_key] = args.players
    return overrides


def cmd_play(args: argparse.Namespace) -> int:
    from kikimimi.table.run import run_play

    if args.console or getattr(args, "web", None) is not None:
        # Each command imports only its own module: `play` asks for the consoles it was told to run.
        from kikimimi.app.console_cli import install_front_ends

        install_front_ends()
    overrides = _overrides(args)
    config = None if overrides is None else _config(args.config, overrides, args.game)
    return 2 if config is None else run_play(config, args)


def cmd_demo(args: argparse.Namespace) -> int:
    from kikimimi.table.demo import run_demo

    overrides = _overrides(args)
    config = None if overrides is None else _config(args.config, overrides, args.game)
    if config is None:
        return 2
    from kikimimi.console.modeltext import state_view

    return run_demo(config, args, state_view(config.info))


def _journal(args: argparse.Namespace) -> Journal | None:
    from kikimimi.table.journal import Journal, JournalError

    config = _config(args.config)
    if config is None:
        return None
    try:
        return Journal(config.journal)
    except JournalError as exc:
        error(f"{exc}")
        return None


LONGEST_GAME = 12 * 3600.0  # a game that "lasted" longer than an evening: the clock moved, not the game


def clock_jump(previous_start: float | None, started: float, ended: float | None) -> str:
    """What the times shown for a game cannot mean ('' when they can): a game begun "before" the one played
    before it, or one that ended before it began or lasted more than an evening. A Pi without a real-time
    clock boots with an old time and is set later by the network: its times may jump, its order never does."""
    if previous_start is not None and started < previous_start:
        return "the clock went back"
    if ended is not None and ended < started:
        return "the clock went back during the game"
    if ended is not None and ended - started > LONGEST_GAME:
        return "the clock jumped during the game"
    return ""


def cmd_journal_list(args: argparse.Namespace) -> int:
    import time

    from rich.table import Table

    from kikimimi.table.journal import JournalError

    journal = _journal(args)
    if journal is None:
        return 2
    table = Table(title=f"journal {journal.path}")
    for col in ("game", "started", "events", "ended", "result"):
        table.add_column(col)
    try:
        games = journal.games()
    except JournalError as exc:
        error(f"{exc}")
        return 2
    previous: float | None = None
    for g in games:  # in the order played (the journal's numbers), whatever the clock said
        ended = time.strftime("%H:%M:%S", time.localtime(g.ended_at)) if g.ended_at else "[yellow]unfinished[/]"
        result = ""
        if g.outcome:
            result = " > ".join(f"seat {s}" for s in g.outcome["ranking"]) + f" ({g.outcome['reason']})"
        elif g.ended_at:
            result = "abandoned"
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started_at))
        jump = clock_jump(previous, g.started_at, g.ended_at)
        previous = g.started_at
        table.add_row(g.id, started + (f" [yellow]({jump})[/]" if jump else ""), str(g.events), ended, result)
    _console().print(table)
    return 0


def cmd_journal_export(args: argparse.Namespace) -> int:
    from kikimimi.table.journal import JournalError

    journal = _journal(args)
    if journal is None:
        return 2
    try:
        text = "".join(line + "\n" for line in journal.export(args.game))
    except JournalError as exc:
        error(f"{exc}")
        return 2
    except KeyError:
        error(f"no single game {args.game!r} in {journal.path}; see `kikimimi journal list`")
        return 2
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def cmd_simtables(args: argparse.Namespace) -> int:
    from kikimimi.devices.simdeck import sim_deck_path, sim_deck_text
    from kikimimi.games.registry import UnknownGame, games, get_info
    from kikimimi.paths import data_dir
    from kikimimi.table.simconfig import sim_table_path, sim_table_text

    try:
        chosen = [get_info(args.game)] if args.game else games()
    except UnknownGame as exc:
        print(f"kikimimi simtables: {exc}", file=sys.stderr)
        return 2
    for info in chosen:
        files = [(sim_deck_path(info, data_dir("devices") / "decks"), sim_deck_text(info)),
                 (sim_table_path(info, data_dir("devices") / "tables"), sim_table_text(info))]
        for path, text in files:
            if args.write:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
            else:
                sys.stdout.write(f"# --- {path.name}\n{text}")
    return 0
