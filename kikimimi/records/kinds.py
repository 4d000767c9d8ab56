"""What the records know of every game alike: kinds of meeting, title forms, and each game's ladder.

A meeting is a full trial (10 games), a half trial (5) or a contest (as many as the Priest sets), of
one registered game. Full and half trials are the official meetings; what "official" brings (ranks,
peerage, streaks) is the rule of a game's ladder, a module the game names in the game class's `ladder` and
that sees that game's results only. A game without a ladder keeps plain results and standings.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from kikimimi.games.registry import DEFAULT_GAME, UnknownGame, game_ids, get_info

MEETING_KINDS: tuple[str, ...] = ("full", "half", "contest")
OFFICIAL_KINDS: tuple[str, ...] = ("full", "half")
GAMES_PER_MEETING: Mapping[str, int | None] = {"full": 10, "half": 5, "contest": None}
TITLE_FORMS: tuple[str, ...] = ("king", "queen")  # how a player is addressed: King/Baron... or Queen/Baroness...


class NoLadder(LookupError):
    """The game keeps no ranks (or is not registered here)."""


def check_game(game: str) -> str:
    """A registered game's id; UnknownGame (a KeyError) names the known ones."""
    return get_info(game).id


def ladder(game: str) -> ModuleType | None:
    """The module holding `game`'s ranks, peerage and streaks; None for a game without one (or a game
    this kikimimi no longer knows: its results stay, they rank nothing)."""
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
