"""`kikimimi players ...`, `kikimimi records import`, `kikimimi meeting ...`: the club's records."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from kikimimi.cliargs import whole
from kikimimi.games.base import Outcome
from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, game_ids
from kikimimi.records.entry import EntryError, parse_json_line, parse_typed
from kikimimi.records.kinds import NoLadder, check_game, default_ladder_game, ladder, title_forms
from kikimimi.records.location import URL_ENV, default_db_path, records_target
from kikimimi.records.names import RecordError, name_key, printable
from kikimimi.words import counted

if TYPE_CHECKING:
    from kikimimi.games.ladder import AnyLadder
    from kikimimi.records.store import RecordStore
# The store, the views and the meeting driver load SQLAlchemy: imported where a command runs, so that
# every `kikimimi` command (the table's included) starts without them.

ENTERED = "This meeting takes each game's result from {source} instead of the table."
TYPING_GUIDE = (
    "Type each game's result, the players best first (by name or seat number), then Enter:\n"
    "  NAME:N   a score (the game's own: {score})\n"
    "{marks}"
    "  NAME*    each winner of a shared win\n"
    "  e.g. {example}    Ctrl-C stops: the meeting stays open, to resume later"
)


def _typing_guide(seat_players: Mapping[int, str], rules: AnyLadder | None) -> str:
    marks = "".join(f"  NAME{mark}    {name}\n" for mark, name in (rules.result_marks if rules else {}).items())
    score = (rules.score_name if rules is not None else "") or "the score the game gives"
    return TYPING_GUIDE.format(score=score, marks=marks, example=_typed_example(seat_players, rules))


def _typed_example(seat_players: Mapping[int, str], rules: AnyLadder | None = None) -> str:
    """A typed result with this meeting's own names: the first best, scores, the last with the game's
    first mark (if it has any)."""
    names = list(seat_players.values())
    mark = next(iter(rules.result_marks), "") if rules is not None else ""
    return " ".join([names[0], *(f"{n}:{7 * (i + 1)}" for i, n in enumerate(names[1:-1]))]
                    + [f"{names[-1]}:30{mark}"])


def _db_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--db",
        default=None,
        metavar="PATH|URL",
        help=f"records database: a SQLite file or a URL (sqlite:///path, postgresql://user@host/db); "
             f"default ${URL_ENV}, else the table config's [records] url (with --config), else "
             f"{default_db_path()} ($KIKIMIMI_DATA sets the folder)",
    )
    return parent


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _game(text: str) -> str:
    try:
        return check_game(text)
    except UnknownGame as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


GAME_HELP = "a registered game ({}); default: {}"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db = _db_parent()

    players = subparsers.add_parser("players", help="the club's players, their ranks and titles")
    psub = players.add_subparsers(dest="players_command", metavar="ACTION", required=True)
    p = psub.add_parser("add", parents=[db], help="add a player")
    p.add_argument("name")
    p.add_argument("--title-form", help="how the player is addressed: one of the title forms the games' ladders "
                   "know (default: the first)")
    p.set_defaults(func=_players_add)
    p = psub.add_parser("list", parents=[db], help="every player with rank, peerage and wins")
    p.add_argument("--json", action="store_true")
    p.add_argument("--game", type=_game, help="whose ranks (a game with a ladder); default: the default game's")
    p.set_defaults(func=_players_list)
    p = psub.add_parser("show", parents=[db], help="one player's standing on the ladder")
    p.add_argument("name")
    p.add_argument("--json", action="store_true")
    p.add_argument("--history", action="store_true", help="also list every rank and peerage change")
    p.add_argument("--game", type=_game, help="whose ranks (a game with a ladder); default: the default game's")
    p.set_defaults(func=_players_show)
    p = psub.add_parser("set", parents=[db], help="change a player's title form")
    p.add_argument("name")
    p.add_argument("--title-form", required=True, help="one of the ladders' title forms")
    p.set_defaults(func=_players_set)

    records = subparsers.add_parser("records", help="import results from paper score sheets")
    rsub = records.add_subparsers(dest="records_command", metavar="ACTION", required=True)
    p = rsub.add_parser("import", parents=[db], help="add results from score sheets: a JSONL file (one line per "
                                                      "game) or a CSV file (*.csv: one row per player per game)")
    p.add_argument("results", type=Path)
    p.add_argument("--dry-run", action="store_true", help="check the file and say what would change")
    p.set_defaults(func=_records_import)

    meeting = subparsers.add_parser("meeting", help="official meetings (full/half trials) and contests")
    msub = meeting.add_subparsers(dest="meeting_command", metavar="ACTION", required=True)
    p = msub.add_parser("start", parents=[db], help="play a meeting's games in turn and settle the ladder")
    p.add_argument("--players", type=_names, required=True, help="names in seat order: seat 1,seat 2,seat 3")
    p.add_argument("--game", type=_game, default=DEFAULT_GAME, metavar="GAME",
                   help=GAME_HELP.format(", ".join(game_ids()), DEFAULT_GAME))
    p.add_argument("--trial", choices=("full", "half", "contest"), required=True, help="full 10, half 5 games")
    p.add_argument("--games", type=int, help="number of games (contests only)")
    p.add_argument("--results", help="JSONL file of game results, or '-' to type them; default: play on the table")
    p.add_argument("--config", type=Path,
                   help="the table's TOML (default: the simulated table); its [records] url names the records")
    p.add_argument("--add-new", action="store_true", help="add players not yet in the records")
    p.add_argument("--winner", help="a contest's winner when the standings are level")
    p.add_argument("--tables", type=whole(1, 100), default=1,
                   help="tables the meeting is played at; over 1, seats are dealt by seat-choice order and "
                        "each table joins with `kikimimi venue join` (default 1: play here)")
    p.set_defaults(func=_meeting_start)
    p = msub.add_parser("resume", parents=[db], help="carry on an open meeting from its next game")
    p.add_argument("id", type=int)
    p.add_argument("--results", help="JSONL file of the remaining games' results, or '-' to type them")
    p.add_argument("--config", type=Path, help="the table's TOML (default: the simulated table)")
    p.add_argument("--games", type=int, help="number of games (contests only)")
    p.add_argument("--winner", help="a contest's winner when the standings are level")
    p.set_defaults(func=_meeting_resume)
    p = msub.add_parser("seats", parents=[db], help="who chooses a seat first, second, third")
    p.add_argument("--players", type=_names, required=True)
    p.add_argument("--game", type=_game, default=DEFAULT_GAME, metavar="GAME",
                   help="the game whose ranks set the order (default: %(default)s)")
    p.set_defaults(func=_meeting_seats)
    p = msub.add_parser("show", parents=[db], help="a meeting's standings and each player's rank")
    p.add_argument("id", type=int, nargs="?", help="default: the open meeting, else the latest")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true")
    shown.add_argument("--csv", action="store_true", help="the standings as CSV, for a spreadsheet")
    p.set_defaults(func=_meeting_show)
    p = msub.add_parser("list", parents=[db], help="every meeting")
    p.set_defaults(func=_meeting_list)
    p = msub.add_parser("finish", parents=[db], help="settle an open meeting that has all its games")
    p.add_argument("id", type=int)
    p.add_argument("--winner", help="a contest's winner")
    p.set_defaults(func=_meeting_finish)
    p = msub.add_parser("abandon", parents=[db], help="close an unfinished meeting; it never counts")
    p.add_argument("id", type=int)
    p.add_argument("--config", type=Path, help="the table's TOML, whose journal's unfinished meeting game is "
                                               "finished as abandoned (default: the simulated table)")
    p.set_defaults(func=_meeting_abandon)


# -- plumbing -------------------------------------------------------------------------------------

Handler = Callable[[argparse.Namespace, "RecordStore"], int]


def _records(args: argparse.Namespace) -> str | os.PathLike[str]:
    """--db, else $KIKIMIMI_RECORDS_URL, else the [records] url of the table config given (--config),
    else the SQLite file in the data folder."""
    config_url = None
    if args.db is None and getattr(args, "config", None) is not None and not os.environ.get(URL_ENV):
        from kikimimi.table.config import load_config

        config_url = load_config(args.config).records_url
    return records_target(args.db, config_url)


def _creating_store(handler: Handler) -> Callable[[argparse.Namespace], int]:
    """_with_store for a command that creates records: an existing empty file may become the records."""
    return _with_store(handler, create=True)


def _with_store(handler: Handler, create: bool = False) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from kikimimi.records.importer import SheetError
        from kikimimi.records.schema import SchemaError
        from kikimimi.records.store import RecordStore
        from kikimimi.table.config import TableConfigError

        try:
            with RecordStore(_records(args), create=create) as store:
                return handler(args, store)
        except (RecordError, SchemaError, SheetError, EntryError, NoLadder, TableConfigError) as exc:
            _say(f"kikimimi: {exc}", file=sys.stderr)
            return 1

    run.__name__ = handler.__name__
    return run


def _out() -> Console:
    return Console(highlight=False)


def _say(text: str, file: Any = None) -> None:
    """Lines holding data (names, labels, messages quoting them): control characters never reach the
    terminal (see `printable`); the line breaks of a message of several lines stay."""
    print("\n".join(printable(line) for line in str(text).split("\n")), file=file)


# -- players --------------------------------------------------------------------------------------


@_creating_store
def _players_add(args: argparse.Namespace, store: RecordStore) -> int:
    player = store.players.add(args.name, args.title_form)
    _say(f"added {player.name} ({player.title_form} titles); registered once they play an official meeting")
    return 0


@_with_store
def _players_set(args: argparse.Namespace, store: RecordStore) -> int:
    player = store.players.set_title_form(args.name, args.title_form)
    _say(f"{player.name}: {store.ladder.status(player.name).title} ({player.title_form} titles)")
    return 0


def _ladder_of(game: str) -> AnyLadder:
    found = ladder(game)
    if found is None:
        raise NoLadder(f"{game} keeps no ranks; `kikimimi players show NAME` lists each game's results")
    return found


def _ladder_game(args: argparse.Namespace) -> str:
    game = args.game or default_ladder_game()
    if ladder(game) is None:
        raise NoLadder(f"{game} keeps no ranks; `kikimimi players show NAME` lists each game's results")
    return game


@_with_store
def _players_list(args: argparse.Namespace, store: RecordStore) -> int:
    from kikimimi.records.view import game_title, players_table

    game = _ladder_game(args)
    statuses = list(store.ladder.by_name(game).values())  # by name, as players() orders them
    if args.json:
        print(json.dumps([s.as_dict() for s in statuses], ensure_ascii=False, indent=2))
    elif not statuses:
        print("no players yet; add one with `kikimimi players add NAME`")
    else:
        _out().print(players_table(statuses, f"Players: {game_title(game)} ranks", ladder(game)))
    return 0


@_with_store
def _players_show(args: argparse.Namespace, store: RecordStore) -> int:
    from kikimimi.records.view import game_title

    game = _ladder_game(args)
    replayed = store.ladder.replay(args.name, game)
    s = replayed.status
    played = store.games.played(s.name)
    if args.json:
        data = s.as_dict()
        if args.history:
            data["changes"] = [c.as_dict() for c in replayed.changes]
        data["played"] = {g: {"games": n, "wins": w} for g, (n, w) in played.items()}
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    for line in _ladder_of(game).status_lines(s):
        _say(line)
    if args.history:
        for change in replayed.changes:
            _say(f"  meeting {change.meeting_id}: {change.text()}")
    others = ", ".join(f"{game_title(g)} {counted(n, 'game')}, {w} won" for g, (n, w) in played.items() if g != game)
    if others:
        _say(f"  other games (no ranks): {others}")
    return 0


# -- records import -------------------------------------------------------------------------------


@_creating_store
def _records_import(args: argparse.Namespace, store: RecordStore) -> int:
    from kikimimi.records.importer import import_results

    summary = import_results(store, args.results, dry_run=args.dry_run)
    for label in summary.skipped:
        _say(f"skipped meeting {label!r}: already in the records")
    for name in summary.new_players:
        forms = title_forms()
        other = forms[1] if len(forms) > 1 else "FORM"
        _say(f"new player {name} ({forms[0]} titles; change with `kikimimi players set {name} --title-form {other}`)")
    if args.dry_run:
        _say(f"{args.results} reads well; nothing written (dry run)")
        return 0
    _say(f"imported {len(summary.imported)} meeting(s) from {args.results}")
    for line in summary.changes:
        _say(f"  {line}")
    return 0


# -- meetings -------------------------------------------------------------------------------------


def _lines(source: str) -> Iterator[tuple[int, str]]:
    """The file's result lines, numbered; opened now, so that a missing file stops before the meeting starts."""
    if source == "-":
        return _numbered(sys.stdin, source)
    try:
        handle = open(source, "rb")  # noqa: SIM115 - closed by _numbered
    except OSError as exc:
        raise EntryError(f"cannot read results file {source}: {exc.strerror or exc}") from None
    return _numbered(handle, source)


def _numbered(handle: Any, source: str) -> Iterator[tuple[int, str]]:
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            except UnicodeDecodeError:
                raise EntryError(f"{source} line {number}: not UTF-8 text; save the file as UTF-8") from None
            if line.strip() and not line.lstrip().startswith("#"):
                yield number, line


def _result_source(results: str | None, rules: AnyLadder | None) -> Callable[[Mapping[int, str]], Outcome]:
    """Results entered instead of played on the table: a JSONL file, or typed at the keyboard (None);
    read with the meeting's game's ladder `rules` (its marks and result fields)."""
    if results is not None:
        lines = _lines(results)

        def from_file(seat_players: Mapping[int, str]) -> Outcome:
            try:
                number, line = next(lines)
            except StopIteration:
                raise EntryError(f"{results} has no more results; the meeting stays open") from None
            try:
                return parse_json_line(line, seat_players, rules)
            except EntryError as exc:
                raise EntryError(f"{results} line {number}: {exc}") from None

        return from_file

    guided: list[bool] = []

    def from_keyboard(seat_players: Mapping[int, str]) -> Outcome:
        if not guided:  # once, before the first prompt: what the signs mean
            guided.append(True)
            _say(_typing_guide(seat_players, rules))
        while True:
            try:
                text = input(f"  result, best first (e.g. {_typed_example(seat_players, rules)}): ")
            except EOFError:
                raise EntryError("no more input; the meeting stays open") from None
            try:
                return parse_typed(text, seat_players, rules)
            except EntryError as exc:
                _say(f"  {exc}")

    return from_keyboard


SIMULATED_TABLE = ("This table's readers are simulated: nothing taps them here. Play the games from the "
                   "console's virtual table (`kikimimi console` in another terminal, key v), type the results "
                   "instead (Ctrl-C, then `kikimimi meeting resume ID --results -`), or rehearse a meeting over "
                   "tables with bots (`kikimimi venue join --bots`).")


def _play(args: argparse.Namespace, store: RecordStore, **meeting: Any) -> int:
    from kikimimi.records.meeting import run_meeting
    from kikimimi.records.view import meeting_view, standings_table

    table = None
    if args.results is None:
        from kikimimi.records.ontable import table_games
        from kikimimi.table.config import TableConfigError, load_config
        from kikimimi.table.live import open_table

        try:
            table = open_table(load_config(args.config))
        except (TableConfigError, OSError) as exc:
            _say(f"kikimimi: {exc}", file=sys.stderr)
            return 2
        play_one_game: Callable[..., Any] = table_games(table, game=meeting.get("game", DEFAULT_GAME),
                                                        continue_under_way="meeting_id" in meeting)
        _say(f"Playing on the table ({table.config.source}); each game starts when the last one ends.")
        if table.config.simulated:  # nobody can tap a simulated reader here: say where the games are played
            _say(SIMULATED_TABLE)
    else:
        source = "the keyboard" if args.results == "-" else args.results
        _say(ENTERED.format(source=source))
        play_one_game = _result_source(None if args.results == "-" else args.results,
                                       ladder(meeting.get("game", DEFAULT_GAME)))
    try:
        report = run_meeting(
            store,
            play_one_game=play_one_game,
            say=_say,
            games=args.games,
            contest_winner=args.winner,
            **meeting,
        )
    except (EntryError, RecordError) as exc:
        open_meeting = store.meetings.current()
        hint = f" (resume with `kikimimi meeting resume {open_meeting.id}`)" if open_meeting else ""
        _say(f"kikimimi: {exc}{hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C at the prompt or at the table: nothing is lost, say how to go on
        open_meeting = store.meetings.current()
        if open_meeting is not None:
            _say(f"\nkikimimi: stopped; meeting {open_meeting.id} stays open with {open_meeting.games_played} "
                 f"game(s) recorded: resume it with `kikimimi meeting resume {open_meeting.id}` (add --results "
                 "- to type the results), or `kikimimi meeting abandon "
                 f"{open_meeting.id}`", file=sys.stderr)
        else:
            _say("\nkikimimi: stopped", file=sys.stderr)
        return 130
    else:
        if table is not None:
            from kikimimi.records.ontable import report_phrases

            done = table.loop.processed + 1
            table.loop.announce(report_phrases(report))  # spoken by the table's loop, like everything else
            table.loop.wait_processed(done, timeout=10)
            table.voice.wait_idle(timeout=60)
    finally:
        if table is not None:
            table.close()
    view = meeting_view(store, report.meeting_id)
    if view is not None:
        _out().print(standings_table(view))
    return 0


@_creating_store
def _meeting_start(args: argparse.Namespace, store: RecordStore) -> int:
    if args.tables > 1:
        return _open_at_tables(args, store)
    return _play(args, store, kind=args.trial, players=args.players, game=args.game, add_unknown=args.add_new)


def _open_at_tables(args: argparse.Namespace, store: RecordStore) -> int:
    """A meeting over several tables is only opened here: each table plays its own games."""
    if args.results is not None:
        _say("kikimimi: --results enters a meeting's games here, at one table; a meeting over several "
             "tables is played by its tables (`kikimimi venue join`)", file=sys.stderr)
        return 2
    meeting_id = store.meetings.start(args.trial, args.players, game=args.game, add_unknown=args.add_new,
                                     tables=args.tables)
    _say(f"opened {store.meetings.get(meeting_id).describe()}; start `kikimimi venue host`: it prints each table's "
         "own credential, and each table joins with `kikimimi venue join URL --table N --token CREDENTIAL`")
    for table in store.tables.all(meeting_id):
        seats = ", ".join(f"seat {seat} {name}" for seat, name in table.seat_players.items())
        _say(f"  table {table.table}: {seats}")
    return 0


@_with_store
def _meeting_resume(args: argparse.Namespace, store: RecordStore) -> int:
    info = store.meetings.get(args.id)
    return _play(args, store, kind=info.kind, players=info.players, game=info.game, meeting_id=args.id)


@_with_store
def _meeting_seats(args: argparse.Namespace, store: RecordStore) -> int:
    rules = ladder(args.game)
    if rules is None:
        _say(f"{args.game} keeps no ranks: players choose their seats as they agree")
        return 0
    # A name not in the records yet is a first-timer: below every Apprentice.
    statuses = [
        store.ladder.status(found.name, args.game) if (found := store.players.find(n))
        else rules.replay([], name=n).status
        for n in args.players
    ]
    for place, name in enumerate(rules.seat_order(statuses), start=1):
        status = next(s for s in statuses if name_key(s.name) == name_key(name))
        _say(f"{place}. {name} ({status.title}) chooses a seat")
    return 0


@_with_store
def _meeting_show(args: argparse.Namespace, store: RecordStore) -> int:
    from kikimimi.records.view import meeting_view, standings_table, tables_table

    view = meeting_view(store, args.id)
    if view is None:
        print("no meetings yet; start one with `kikimimi meeting start --players A,B,C --trial full`")
        return 0
    if args.json:
        print(json.dumps(view.as_dict(), ensure_ascii=False, indent=2))
    elif args.csv:
        from kikimimi.records.view import standings_csv

        sys.stdout.write(standings_csv(view))
    else:
        _out().print(standings_table(view))
        if view.meeting.tables > 1:
            _out().print(tables_table(view))
    return 0


@_with_store
def _meeting_list(args: argparse.Namespace, store: RecordStore) -> int:
    every = store.meetings.all()
    if not every:
        print("no meetings yet")
    for m in every:
        _say(f"{m.describe()} held {m.held_at}: {', '.join(m.players)}" + (f"; won by {m.winner}" if m.winner else ""))
    return 0


@_with_store
def _meeting_finish(args: argparse.Namespace, store: RecordStore) -> int:
    changes = store.meetings.finish(args.id, contest_winner=args.winner)
    _say(f"meeting {args.id} finished")
    for change in changes:
        _say(f"  {change.text()}")
    return 0


@_with_store
def _meeting_abandon(args: argparse.Namespace, store: RecordStore) -> int:
    from kikimimi.records.ontable import abandon_on_table
    from kikimimi.table.config import load_config
    from kikimimi.table.journal import JournalError
    from kikimimi.table.live import TableRunning

    store.meetings.abandon(args.id)
    _say(f"meeting {args.id} abandoned: its games are kept and never counted")
    journal = load_config(args.config).journal
    try:
        game_id = abandon_on_table(journal, store, args.id)
    except TableRunning as exc:
        _say(f"kikimimi: the meeting's game stays on the table: {exc}; start a new game there", file=sys.stderr)
        return 0
    except JournalError as exc:
        _say(f"kikimimi: the table's journal {journal} was not changed: {exc}", file=sys.stderr)
        return 0
    if game_id is not None:
        _say(f"its game {game_id} on the table ({journal}) is finished as abandoned: `play` starts afresh")
    return 0
