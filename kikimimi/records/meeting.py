"""A meeting played game after game: record each result as it comes, settle the ladder at the end.

The live table plays the games (`kikimimi.records.ontable.table_games`); this module only needs a
callable `play_one_game(seat_players)` that plays one game of the meeting's game and returns its
`Outcome` (or `(outcome, journal_game_id)`). Every game is recorded the moment it ends, so a meeting
cut short (power, a fault, Ctrl-C) resumes where it stopped with `run_meeting(..., meeting_id=ID)`.
A meeting is of one registered game; ranks change only for a game with a ladder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.games.base import Outcome
from kikimimi.games.ladder import AnyLadder
from kikimimi.games.registry import DEFAULT_GAME
from kikimimi.records.entry import facts_said
from kikimimi.records.kinds import GAMES_PER_MEETING, ladder
from kikimimi.records.standings import Standing, standings
from kikimimi.records.store import RecordError, RecordStore
from kikimimi.words import counted

PlayOneGame = Callable[[Mapping[int, str]], "Outcome | tuple[Outcome, str | None]"]
SayLine = Callable[[str], None]  # prints one line to the person at the command (not the core Say effect)


@dataclass(frozen=True)
class MeetingReport:
    meeting_id: int
    standings: list[Standing]
    changes: list[Any]  # the ladder's Changes (none for a game without a ladder)
    statuses: list[Any]  # the ladder's PlayerStatus of each player (none for a game without a ladder)
    game: str = DEFAULT_GAME


def _quiet(_: str) -> None:
    return None


def standings_lines(table: Sequence[Standing], rules: AnyLadder | None = None) -> list[str]:
    """The standings as sentences for the speaker and the screen (with what the game's ladder adds)."""
    return [
        ", ".join([f"{s.position}. {s.player}: {counted(s.wins, 'win')}", counted(s.score, "point"),
                   *(rules.standing_notes(s) if rules is not None else ())])
        for s in table
    ]


def run_meeting(
    store: RecordStore,
    kind: str,
    players: Sequence[str],
    play_one_game: PlayOneGame,
    *,
    say: SayLine = _quiet,
    game: str = DEFAULT_GAME,
    meeting_id: int | None = None,
    games: int | None = None,
    contest_winner: str | None = None,
    add_unknown: bool = False,
) -> MeetingReport:
    """Play a meeting's games in turn, record each, then settle and announce standings and changes.

    `players` are in seat order (seat 1 first); the seats stay for the whole meeting. A trial has
    its fixed number of games; a contest needs `games`. With `meeting_id`, an open meeting is
    resumed from its next game (`kind`, `game` and `players` are then taken from it).
    """
    if meeting_id is None:
        due = GAMES_PER_MEETING.get(kind) if kind in GAMES_PER_MEETING else None
        if kind == "contest":
            if not games or games < 1:
                raise RecordError("a contest needs its number of games (--games N)")
            due = games
        meeting_id = store.meetings.start(kind, players, game=game, add_unknown=add_unknown)
    else:
        info = store.meetings.get(meeting_id)
        if info.status != "open":
            raise RecordError(f"{info.describe()} is {info.status}; only an open meeting can be resumed")
        if info.tables > 1:
            raise RecordError(f"{info.describe()} is played by its {info.tables} tables, each joining it "
                              "(`kikimimi venue join`), not here")
        kind, players, game = info.kind, info.players, info.game
        due = info.games_due if info.games_due is not None else games
    if due is None:  # a new meeting's kind was checked as it was opened: only a resumed contest lacks it
        raise RecordError("resuming a contest needs its number of games (--games N)")
    info = store.meetings.get(meeting_id)
    seat_players = {seat: name for seat, name in enumerate(info.players, start=1)}
    say(f"Meeting {meeting_id}, {kind}: " + ", ".join(f"seat {s} {n}" for s, n in seat_players.items()) + ".")
    for number in range(info.games_played + 1, due + 1):
        say(f"Game {number} of {due}.")
        played = play_one_game(seat_players)
        outcome, journal_id = played if isinstance(played, tuple) else (played, None)
        store.games.record_outcome(meeting_id, seat_players, outcome, journal_id)
        say(f"Game {number}: {game_line(outcome, seat_players, ladder(game))}")
    changes = store.meetings.finish(meeting_id, contest_winner=contest_winner)
    rules = ladder(game)
    final = standings(store.games.in_meeting(meeting_id), info.players, rules)
    say(f"Meeting {meeting_id} is over. Standings:")
    for line in standings_lines(final, rules):
        say(line)
    for change in changes:
        say(change.text())
    if rules is not None and not changes:
        say("No rank or peerage changed.")
    statuses = store.ladder.statuses(info.players, game) if rules is not None else []
    return MeetingReport(meeting_id, final, changes, statuses, game)


def game_line(outcome: Outcome, seat_players: Mapping[int, str], rules: AnyLadder | None = None) -> str:
    """How a game ended, in one sentence: its winners (or who came first), and each player's flags
    (what the game's ladder keeps true of a result: `Cid retired`)."""
    names = [seat_players[seat] for seat in outcome.winners]
    if len(names) == 1:
        line = f"{names[0]} wins."
    elif names:
        line = f"{', '.join(names[:-1])} and {names[-1]} share the win."
    else:
        line = f"{seat_players[outcome.ranking[0]]} comes first."
    return " ".join([line, *(f"{fact}." for fact in facts_said(outcome, seat_players, rules))])
