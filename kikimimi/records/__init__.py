"""Players, meetings, results and the ladder (ranks, peerage, streaks, demotion, seat order).

Only results are stored; everything else is derived by pure functions (see docs/rules/ranks.md).
"""

from kikimimi.records.ladder import (
    Change,
    GameResult,
    MeetingResult,
    PlayerStatus,
    Rank,
    player_status,
    replay,
)
from kikimimi.records.results import GameRecord, PlayerResult
from kikimimi.records.seats import seat_order
from kikimimi.records.standings import Standing, standings
from kikimimi.records.store import RecordError, RecordStore, default_db_path

__all__ = [
    "Change",
    "GameRecord",
    "GameResult",
    "MeetingResult",
    "PlayerResult",
    "PlayerStatus",
    "Rank",
    "RecordError",
    "RecordStore",
    "Standing",
    "default_db_path",
    "player_status",
    "replay",
    "seat_order",
    "standings",
]
