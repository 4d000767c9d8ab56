"""What the records know of every game alike: kinds of meeting, and each game's ladder.

A meeting is a full trial (10 games), a half trial (5) or a contest (as many as the Priest sets), of
one registered game. Full and half trials are the official meetings; what "official" brings (ranks,
peerage, streaks) is the rule of a game's ladder, the object the game class names as its `ladder`
(a `kikimimi.games.ladder.Ladder`) and that sees that game's results only. A game without a ladder
keeps plain results and standings. How a player may be addressed (their title form) is the ladders'
word too.
"""

from __future__ import annotations

from collections.abc import Mapping

from kikimimi.games.ladder import AnyLadder
from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, game_ids, get_info

MEETING_KINDS: tuple[str, ...] = ("full", "half", "contest")
OFFICIAL_KINDS: tuple[str, ...] = ("full", "half")
GAMES_PER_MEETING: Mapping[str, int | None] = {"full": 10, "half": 5, "contest": None}


class NoLadder(LookupError):
    """The game keeps no ranks (or is not registered here)."""


def check_game(game: str) -> str:
    """A registered game's id; UnknownGame (a KeyError) names the known ones."""
    return get_info(game).id


def ladder(game: str) -> AnyLadder | None:
    """`game`'s ladder (its ranks, peerage and streaks); None for a game without one (or a game this
    kikimimi no longer knows: its results stay, they rank nothing)."""
    try:
        return get_info(game).game.ladder
    except UnknownGame:
        return None


def ladder_games() -> list[str]:
    """Every registered game that has a ladder, the default game first."""
    return [game for game in game_ids() if ladder(game) is not None]


def default_ladder_game() -> str:
    """The game whose ranks `players list/show` and the console show unless told otherwise."""
    if ladder(DEFAULT_GAME) is not None:
        return DEFAULT_GAME
    found = ladder_games()
    if not found:
        raise NoLadder("no registered game keeps ranks")
    return found[0]


def title_forms() -> tuple[str, ...]:
    """How a player may be addressed: every ladder's title forms, the default ladder's first (its first
    is a new player's). A club without a ladder addresses players by name only (the form "")."""
    forms: list[str] = []
    for game in sorted(ladder_games(), key=lambda g: g != DEFAULT_GAME):
        rules = ladder(game)
        forms += [f for f in (rules.title_forms if rules is not None else ()) if f not in forms]
    return tuple(forms) or ("",)
