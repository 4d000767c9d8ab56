"""Who chooses a seat first: the lowest-ranked player, then the highest, then the one between.

Precedence among players: rank, then peerage, then who reached that rank first. Apprentices are all
equal (peerage and dates do not count among them), and a first-timer is below every Apprentice.
Among equals the order given is kept, so a caller that wants "any order" gets a stable one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cmp_to_key

from kikimimi.records.ladder import PlayerStatus, Rank


def compare_precedence(a: PlayerStatus, b: PlayerStatus) -> int:
    """Negative when `a` stands below `b`, positive above, 0 for equals."""
    if a.rank != b.rank:
        return -1 if a.rank < b.rank else 1
    if a.rank <= Rank.APPRENTICE:
        return 0
    if a.peerage != b.peerage:
        return -1 if a.peerage < b.peerage else 1
    if a.rank_since is None or b.rank_since is None or a.rank_since == b.rank_since:
        return 0
    return 1 if a.rank_since < b.rank_since else -1  # reached earlier stands higher


def by_precedence(statuses: Sequence[PlayerStatus]) -> list[PlayerStatus]:
    """Lowest first; equals keep the order given."""
    return sorted(statuses, key=cmp_to_key(compare_precedence))


def seat_order(statuses: Sequence[PlayerStatus]) -> list[str]:
    """Names in the order they choose their seats: lowest, highest, then the rest from the top down.

    For three players that is lowest, highest, middle. Equal players keep the order given, so when
    the lowest are tied the one listed first chooses first.
    """
    ranked = by_precedence(statuses)
    if len(ranked) <= 1:
        return [s.name for s in ranked]
    lowest = ranked[0]
    # The highest: the last of the top group keeps its given order among equals, so take the first
    # status equal to the top one.
    top = ranked[-1]
    highest = next(s for s in ranked[1:] if compare_precedence(s, top) == 0)
    rest = [s for s in ranked[1:] if s is not highest]
    rest = sorted(rest, key=cmp_to_key(lambda a, b: -compare_precedence(a, b)))
    return [lowest.name, highest.name, *(s.name for s in rest)]
