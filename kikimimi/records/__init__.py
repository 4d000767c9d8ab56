"""Players, meetings and every game's results; ranks, peerage and streaks from a game's own ladder.

Only results are stored; everything else is derived by pure functions. A game's ranks live in its
own package (the game class's `ladder`, a `kikimimi.games.ladder.Ladder`) and are computed from that
game's results only.
"""

from kikimimi.records.kinds import GAMES_PER_MEETING, MEETING_KINDS, OFFICIAL_KINDS, ladder, title_forms
from kikimimi.records.location import default_db_path
from kikimimi.records.names import RecordError
from kikimimi.records.results import GameRecord, PlayerResult
from kikimimi.records.standings import Standing, standings

__all__ = [
    "GAMES_PER_MEETING",
    "MEETING_KINDS",
    "OFFICIAL_KINDS",
    "GameRecord",
    "PlayerResult",
    "RecordError",
    "RecordStore",
    "Standing",
    "default_db_path",
    "ladder",
    "standings",
    "title_forms",
]


def __getattr__(name: str) -> object:
    # The store loads SQLAlchemy: only when it is used, so that every `kikimimi` command starts fast.
    if name == "RecordStore":
        from kikimimi.records.store import RecordStore

        return RecordStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
