"""The Trident ladder: ranks, peerage, streaks, demotion and seat order, derived from stored results.

Pure: `replay(history)` walks a player's meetings in the order they were held and returns where the
player stands and every change, meeting by meeting. Nothing is counted by hand and nothing is stored
here; the records hand in this game's results only (found through the game class's `ladder`), this module
derives. `docs/rules/ranks.md` is this module in words, with every interpretation of the rules marked.

What the records ask of a ladder is the protocol `kikimimi.games.ladder.Ladder`; `LADDER` at the end
(a `TridentLadder`) is this game's, built on the functions here: `replay(history, name=, title_form=)`
returning a `LadderHistory` (`.status`, `.changes`, `.changes_in(meeting_id)`), `seat_order(statuses)`, and,
for standings of many players at once, `packed_status(meetings, name=, title_form=)`, the status from
each meeting's games packed one character a game (`pack_game`), equal to `replay(...).status`. The
records keep the Trident's crash as the result detail `"crashed": true` and its points left in hand
as the score; only this module reads them so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cmp_to_key
from typing import Any, Literal

from kikimimi.games.ladder import Ladder
from kikimimi.words import counted

MeetingKind = Literal["full", "half", "contest"]
TitleForm = Literal["king", "queen"]

OFFICIAL_KINDS: tuple[str, ...] = ("full", "half")
MEETING_KINDS: tuple[str, ...] = ("full", "half", "contest")
GAMES_PER_MEETING: Mapping[str, int | None] = {"full": 10, "half": 5, "contest": None}
TITLE_FORMS: tuple[str, ...] = ("king", "queen")


class Rank(IntEnum):
    """Ranks from lowest to highest. UNREGISTERED: has not finished an official meeting yet."""

    UNREGISTERED = 0
    APPRENTICE = 1
    BISHOP = 2
    WIZARD = 3
    KNIGHT = 4
    GENERAL = 5
    KING = 6  # King or Queen, by the player's chosen title form

    def title(self, form: str = "king") -> str:
        if self is Rank.KING:
            return "Queen" if form == "queen" else "King"
        return "Unregistered" if self is Rank.UNREGISTERED else self.name.capitalize()

    def key(self, form: str = "king") -> str:
        """The rank as a lower-case word for data and phrase keys (`queen` for a Queen)."""
        return self.title(form).lower()


# Ranks that two crashes in a row never take down.
EXEMPT_FROM_DEMOTION = frozenset({Rank.GENERAL, Rank.KING})
# Apprentice and below have no rank to lose (interpretation, see ranks.md).
DEMOTABLE = frozenset({Rank.BISHOP, Rank.WIZARD, Rank.KNIGHT})


@dataclass(frozen=True)
class Requirement:
    """What it takes to rise into a rank: total wins, streaks made at the rank below, a peerage."""

    wins: int
    streaks: int = 0
    streaks_at: Rank | None = None
    peerage: int = 0


PROMOTION: Mapping[Rank, Requirement] = {
    Rank.BISHOP: Requirement(wins=10),
    Rank.WIZARD: Requirement(wins=20, streaks=2, streaks_at=Rank.BISHOP),
    Rank.KNIGHT: Requirement(wins=30, streaks=3, streaks_at=Rank.WIZARD),
    Rank.GENERAL: Requirement(wins=50, streaks=5, streaks_at=Rank.KNIGHT),
    Rank.KING: Requirement(wins=100, peerage=1),
}

DEMOTION_WIN_PENALTY = 10
RUN_PER_PEERAGE = 4
MAX_PEERAGE = 5
PEERAGE_TITLES: Mapping[str, tuple[str, ...]] = {
    "king": ("", "Baron", "Viscount", "Earl", "Marquis", "Duke"),
    "queen": ("", "Baroness", "Viscountess", "Countess", "Marchioness", "Duchess"),
}


def peerage_title(level: int, form: str = "king") -> str:
    """The peerage's name in the player's form; '' for no peerage."""
    return PEERAGE_TITLES["queen" if form == "queen" else "king"][max(0, min(level, MAX_PEERAGE))]


def full_title(rank: Rank, peerage: int, form: str = "king") -> str:
    """How the club addresses the player: 'Knight', 'Wizard, Countess', 'Queen, Duchess'."""
    peer = peerage_title(peerage, form)
    return f"{rank.title(form)}, {peer}" if peer else rank.title(form)


# -- input ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One player's result in one game: 1st place is a win; a crash is always last place."""

    place: int
    crashed: bool = False


@dataclass(frozen=True)
class MeetingResult:
    """One player's part in one finished meeting, in the order the games were played.

    `order` sorts meetings as they were held (the store uses (held_at, meeting id)); it is also what
    "who reached that rank first" compares.
    """

    meeting_id: int
    kind: str
    games: tuple[GameResult, ...]
    order: tuple[Any, ...] = ()
    won_contest: bool = False

    @property
    def official(self) -> bool:
        return self.kind in OFFICIAL_KINDS


# -- output ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """A rank or peerage change settled at the end of a meeting."""

    player: str
    meeting_id: int
    kind: Literal["registered", "promoted", "demoted", "peerage"]
    before: str
    after: str
    reason: str

    def text(self) -> str:
        verbs = {
            "registered": "is registered as",
            "promoted": "is promoted to",
            "demoted": "is demoted to",
            "peerage": "is raised to",
        }
        frm = "" if self.kind == "registered" else f" (from {self.before or 'no peerage'})"
        return f"{self.player} {verbs[self.kind]} {self.after}{frm}: {self.reason}."

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "meeting": self.meeting_id,
            "kind": self.kind,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class PlayerStatus:
    """Where a player stands on the ladder, derived from every finished meeting."""

    name: str
    title_form: str
    rank: Rank
    peerage: int
    wins: int  # the ladder's win count: 1st places in official meetings, less demotion penalties
    first_places: int  # every 1st place in official meetings, never reduced
    streaks: int
    streaks_by_rank: Mapping[Rank, int]
    crashes: int
    run: int  # wins in a row right now (official games, across meetings)
    crash_run: int  # crashes in a row right now
    longest_run: int
    games: int
    meetings: int
    contests_won: int
    demotions: int
    rank_since: tuple[Any, ...] | None  # `order` of the meeting at whose end the rank was reached
    rank_since_meeting: int | None

    @property
    def registered(self) -> bool:
        return self.rank >= Rank.APPRENTICE

    @property
    def rank_title(self) -> str:
        return self.rank.title(self.title_form)

    @property
    def peerage_title(self) -> str:
        return peerage_title(self.peerage, self.title_form)

    @property
    def title(self) -> str:
        return full_title(self.rank, self.peerage, self.title_form)

    def next_rank(self) -> tuple[Rank, Requirement] | None:
        """The rank above and what it takes, None at the top."""
        if self.rank >= Rank.KING:
            return None
        up = Rank(max(self.rank, Rank.APPRENTICE) + 1)
        return up, PROMOTION[up]

    def as_dict(self) -> dict[str, Any]:
        nxt = self.next_rank()
        return {
            "name": self.name,
            "title_form": self.title_form,
            "rank": self.rank.key(self.title_form),
            "rank_level": int(self.rank),
            "peerage": self.peerage_title or None,
            "peerage_level": self.peerage,
            "title": self.title,
            "wins": self.wins,
            "first_places": self.first_places,
            "streaks": self.streaks,
            "streaks_by_rank": {r.key(self.title_form): n for r, n in sorted(self.streaks_by_rank.items())},
            "crashes": self.crashes,
            "run": self.run,
            "crash_run": self.crash_run,
            "longest_run": self.longest_run,
            "games": self.games,
            "meetings": self.meetings,
            "contests_won": self.contests_won,
            "demotions": self.demotions,
            "rank_since_meeting": self.rank_since_meeting,
            "next_rank": None
            if nxt is None
            else {
                "rank": nxt[0].key(self.title_form),
                "wins": nxt[1].wins,
                "streaks": nxt[1].streaks,
                "streaks_at": nxt[1].streaks_at.key() if nxt[1].streaks_at else None,
                "peerage": nxt[1].peerage,
            },
        }


@dataclass(frozen=True)
class LadderHistory:
    status: PlayerStatus
    changes: tuple[Change, ...]

    def changes_in(self, meeting_id: int) -> list[Change]:
        return [c for c in self.changes if c.meeting_id == meeting_id]


# -- derivation -----------------------------------------------------------------------------------


@dataclass
class _Walk:
    """The running counts while replaying one player's meetings (private, mutable, short-lived)."""

    rank: Rank = Rank.UNREGISTERED
    wins: int = 0
    first_places: int = 0
    run: int = 0
    crash_run: int = 0
    longest_run: int = 0
    run_peerages: int = 0
    contest_peerages: int = 0
    peerage: int = 0
    crashes: int = 0
    games: int = 0
    meetings: int = 0
    contests_won: int = 0
    demotions: int = 0
    streaks: Counter[Rank] = field(default_factory=Counter)
    rank_since: tuple[Any, ...] | None = None
    rank_since_meeting: int | None = None


def _promotable(walk: _Walk) -> Rank | None:
    if walk.rank >= Rank.KING or walk.rank < Rank.APPRENTICE:
        return None
    up = Rank(walk.rank + 1)
    need = PROMOTION[up]
    if walk.wins < need.wins or walk.peerage < need.peerage:
        return None
    if need.streaks_at is not None and walk.streaks[need.streaks_at] < need.streaks:
        return None
    return up


def _play_official(walk: _Walk, meeting: MeetingResult) -> bool:
    """Count one official meeting's games; True when a demotion is due at its end."""
    # Within a meeting the rank is the one it started with: ranks are settled at its end.
    rank_now = max(walk.rank, Rank.APPRENTICE)
    demote = False
    for game in meeting.games:
        walk.games += 1
        if game.place == 1:
            walk.wins += 1
            walk.first_places += 1
            walk.run += 1
            walk.longest_run = max(walk.longest_run, walk.run)
            if walk.run >= 2:
                walk.streaks[rank_now] += 1  # each pair of consecutive wins is one streak
            if walk.run % RUN_PER_PEERAGE == 0:
                walk.run_peerages += 1  # a run of n wins counts floor(n/4) times
        else:
            walk.run = 0
        if game.crashed:
            walk.crashes += 1
            walk.crash_run += 1
            # The second crash in a row is the event; a third or fourth belongs to the same one.
            # One demotion per meeting: later events in the same meeting change nothing.
            if walk.crash_run == 2 and not demote and rank_now in DEMOTABLE:
                demote = True
                walk.wins = max(0, walk.wins - DEMOTION_WIN_PENALTY)
        else:
            walk.crash_run = 0
    return demote


def _settle_peerage(walk: _Walk, name: str, form: str, meeting: MeetingResult, why: str) -> list[Change]:
    level = min(MAX_PEERAGE, walk.run_peerages + walk.contest_peerages)
    if level <= walk.peerage:
        return []
    before = walk.peerage
    walk.peerage = level
    return [Change(name, meeting.meeting_id, "peerage", peerage_title(before, form), peerage_title(level, form), why)]


def _set_rank(walk: _Walk, rank: Rank, meeting: MeetingResult) -> None:
    walk.rank = rank
    walk.rank_since = meeting.order
    walk.rank_since_meeting = meeting.meeting_id


def replay(history: Iterable[MeetingResult], *, name: str = "", title_form: str = "king") -> LadderHistory:
    """Walk a player's finished meetings in the order held; the standing reached and every change.

    `history` may come in any order: it is sorted by `order`, then meeting id.
    """
    form = "queen" if title_form == "queen" else "king"
    walk = _Walk()
    changes: list[Change] = []
    for meeting in sorted(history, key=lambda m: (m.order, m.meeting_id)):
        if meeting.official:
            changes += _walk_official(walk, meeting, name, form)
        elif meeting.won_contest:
            changes += _walk_contest_won(walk, meeting, name, form)
    status = PlayerStatus(
        name=name,
        title_form=form,
        rank=walk.rank,
        peerage=walk.peerage,
        wins=walk.wins,
        first_places=walk.first_places,
        streaks=sum(walk.streaks.values()),
        streaks_by_rank=dict(walk.streaks),
        crashes=walk.crashes,
        run=walk.run,
        crash_run=walk.crash_run,
        longest_run=walk.longest_run,
        games=walk.games,
        meetings=walk.meetings,
        contests_won=walk.contests_won,
        demotions=walk.demotions,
        rank_since=walk.rank_since,
        rank_since_meeting=walk.rank_since_meeting,
    )
    return LadderHistory(status, tuple(changes))


def _walk_official(walk: _Walk, meeting: MeetingResult, name: str, form: str) -> list[Change]:
    """An official meeting's games: registration, a peerage by a run, then a demotion or promotions."""
    walk.meetings += 1
    demote = _play_official(walk, meeting)
    changes: list[Change] = []
    if walk.rank is Rank.UNREGISTERED:
        _set_rank(walk, Rank.APPRENTICE, meeting)
        changes.append(Change(name, meeting.meeting_id, "registered", "", "Apprentice", "played an official meeting"))
    changes += _settle_peerage(walk, name, form, meeting, "four wins in a row")
    if demote:
        before = walk.rank
        _set_rank(walk, Rank(before - 1), meeting)
        walk.demotions += 1
        changes.append(Change(name, meeting.meeting_id, "demoted", before.title(form), walk.rank.title(form),
                              f"two crashes in a row; wins now {walk.wins}"))
        return changes  # a meeting that demotes does not also promote
    while (up := _promotable(walk)) is not None:
        before = walk.rank
        _set_rank(walk, up, meeting)
        changes.append(Change(name, meeting.meeting_id, "promoted", before.title(form), up.title(form),
                              _why(up, walk)))
    return changes


def _walk_contest_won(walk: _Walk, meeting: MeetingResult, name: str, form: str) -> list[Change]:
    """A contest won: a peerage and one rank up (nothing once the last peerage is held)."""
    walk.contests_won += 1
    if walk.peerage >= MAX_PEERAGE:
        return []  # no next peerage to give, so nothing gained this way and no promotion
    walk.contest_peerages += 1
    changes = _settle_peerage(walk, name, form, meeting, "won a contest")
    if walk.rank < Rank.KING:
        before = walk.rank
        _set_rank(walk, Rank(before + 1), meeting)
        verb: Literal["registered", "promoted"] = "registered" if before is Rank.UNREGISTERED else "promoted"
        changes.append(Change(name, meeting.meeting_id, verb, before.title(form) if before else "",
                              walk.rank.title(form), "won a contest and gained a peerage"))
    return changes


def _why(rank: Rank, walk: _Walk) -> str:
    need = PROMOTION[rank]
    parts = [f"{walk.wins} wins"]
    if need.streaks_at is not None:
        parts.append(f"{walk.streaks[need.streaks_at]} streaks as {need.streaks_at.title()}")
    if need.peerage:
        parts.append("a peerage")
    return " and ".join(parts)


def player_status(history: Iterable[MeetingResult], *, name: str = "", title_form: str = "king") -> PlayerStatus:
    """Where a player stands after the meetings in `history` (see `replay`)."""
    return replay(history, name=name, title_form=title_form).status


# -- the fast path: a status from packed games ------------------------------------------------------
# `replay` is the reference: one object per game, every change named. Standings of a whole club only
# need each player's status, so `packed_status` reads a meeting's games as one string and counts with
# string methods (runs, pairs, crash pairs) instead of a step per game. It must give exactly what
# `replay(...).status` gives: tests/trident/test_ladder_fastpath.py checks it over random histories.

PackedMeeting = tuple[tuple[Any, ...], int, str, bool, str]  # (order, meeting id, kind, won contest, games)


def pack_game(place: int, crashed: bool = False) -> str:
    """One game as one character, chr(64 + 2 * place + crashed): a meeting's games in play order are
    a string (what the records keep per player and meeting, see `packed_status`)."""
    return chr(64 + 2 * place + int(crashed))


def unpack_game(code: str) -> GameResult:
    place, crashed = divmod(ord(code) - 64, 2)
    return GameResult(place, bool(crashed))


class _Bits(dict[int, str]):
    """A `str.translate` table from packed games to "1" (a win, or a crash) and "0", filled as codes
    are met, so any place packs."""

    def __init__(self, crashes: bool) -> None:
        super().__init__()
        self.crashes = crashes

    def __missing__(self, code: int) -> str:
        place, crashed = divmod(code - 64, 2)
        bit = self[code] = "1" if (crashed if self.crashes else place == 1) else "0"
        return bit


_WON = _Bits(crashes=False)
_CRASHED = _Bits(crashes=True)
_RANKS = tuple(Rank)
_KING = int(Rank.KING)
_DEMOTABLE_LEVELS = frozenset(int(r) for r in DEMOTABLE)
# By the rank risen into: (wins, streaks, at which rank, peerage), ranks as ints.
_NEEDS: dict[int, tuple[int, int, int, int]] = {
    int(r): (n.wins, n.streaks, int(n.streaks_at or 0), n.peerage) for r, n in PROMOTION.items()
}
# By the rank held: the wins to rise from it (never from Unregistered, in a meeting, nor from King).
_WINS_TO_RISE = (1 << 62, *(_NEEDS[r + 1][0] for r in range(1, _KING)), 1 << 62)




def packed_status(meetings: Iterable[PackedMeeting], *, name: str = "", title_form: str = "king") -> PlayerStatus:
    """`replay(history, name=, title_form=).status`, from each meeting as (order, meeting id, kind,
    won contest, games) where games packs the player's games in play order (`pack_game`). Meetings
    may come in any order; each meeting id once."""
    form = "queen" if title_form == "queen" else "king"
    rank = wins = first_places = run = crash_run = longest = run_peerages = contest_peerages = 0
    peerage = crashes = games = meetings_played = contests_won = demotions = 0
    streaks: dict[int, int] = {}  # by rank, in the order first made (as `replay`'s Counter)
    since: tuple[Any, ...] | None = None
    since_meeting: int | None = None
    for order, meeting_id, kind, won_contest, packed in sorted(meetings):  # by (order, meeting id): ids are unique
        if kind in OFFICIAL_KINDS:
            meetings_played += 1
            now = rank or 1  # the rank the meeting started with; a first-timer plays as Apprentice
            demote = False
            n = len(packed)
            if n:
                games += n
                won = packed.translate(_WON)
                w = won.count("1")
                before = wins
                wins += w
                first_places += w
                if not w:
                    run = 0
                else:
                    made, peerages_made, run, longest = _runs(won, w, run, longest)
                    run_peerages += peerages_made
                    if made:
                        streaks[now] = streaks.get(now, 0) + made
                crashed = packed.translate(_CRASHED)
                c = crashed.count("1")
                if not c:
                    crash_run = 0
                else:
                    crashes += c
                    if now in _DEMOTABLE_LEVELS:
                        at = _second_crash(crashed, crash_run)
                        if at >= 0:
                            demote = True
                            upto = won.count("1", 0, at + 1)  # the wins counted when the penalty came
                            wins = max(0, before + upto - DEMOTION_WIN_PENALTY) + w - upto
                    crash_run = crash_run + n if c == n else n - len(crashed.rstrip("1"))
            if rank == 0:
                rank, since, since_meeting = 1, order, meeting_id
            if run_peerages + contest_peerages > peerage:
                peerage = min(MAX_PEERAGE, run_peerages + contest_peerages)
            if demote:
                rank, since, since_meeting = rank - 1, order, meeting_id
                demotions += 1
                continue
            while wins >= _WINS_TO_RISE[rank]:  # mostly too few: the rest is looked at only then
                _, need_streaks, at_rank, need_peerage = _NEEDS[rank + 1]
                if peerage < need_peerage or (at_rank and streaks.get(at_rank, 0) < need_streaks):
                    break
                rank, since, since_meeting = rank + 1, order, meeting_id
        elif won_contest:
            contests_won += 1
            if peerage >= MAX_PEERAGE:
                continue
            contest_peerages += 1
            if run_peerages + contest_peerages > peerage:
                peerage = min(MAX_PEERAGE, run_peerages + contest_peerages)
            if rank < _KING:
                rank, since, since_meeting = rank + 1, order, meeting_id
    return PlayerStatus(
        name=name,
        title_form=form,
        rank=_RANKS[rank],
        peerage=peerage,
        wins=wins,
        first_places=first_places,
        streaks=sum(streaks.values()),
        streaks_by_rank={_RANKS[r]: k for r, k in streaks.items()},
        crashes=crashes,
        run=run,
        crash_run=crash_run,
        longest_run=longest,
        games=games,
        meetings=meetings_played,
        contests_won=contests_won,
        demotions=demotions,
        rank_since=since,
        rank_since_meeting=since_meeting,
    )


def _runs(won: str, w: int, run: int, longest: int) -> tuple[int, int, int, int]:
    """A meeting's `w` wins (`won`: "1" a win, "0" not, in play order; w > 0) after a run of `run` wins
    before it: (streaks made, peerages made by runs, the run after it, the longest run so far)."""
    n = len(won)
    lead = n - len(won.lstrip("1"))  # wins continuing the run from before
    if lead == n:
        made = n if run else n - 1
        return made, (run + n) // 4 - run // 4, run + n, max(longest, run + n)
    # Each later run of k wins makes k - 1 streaks and k // 4 peerages; the leading one continues the
    # run (a pair with the last win before).
    made = (w - lead) - won.count("01") + (lead if run else lead - 1 if lead else 0)
    peerages = won.count("1111", lead) + (run + lead) // 4 - run // 4
    if run + lead > longest:
        longest = run + lead
    if w - lead > longest:  # a later run might be longer
        longest = max(longest, *map(len, won[lead:].split("0")))
    return made, peerages, n - len(won.rstrip("1")), longest


def _second_crash(crashed: str, crash_run: int) -> int:
    """The game where crashes in a row first reach two (one demotion a meeting), in a meeting's games
    (`crashed`: "1" a crash) after `crash_run` crashes in a row before it; -1 when they do not."""
    if crash_run == 1 and crashed[0] == "1":
        return 0
    start = len(crashed) - len(crashed.lstrip("1")) if crash_run >= 2 else 0
    at = crashed.find("11", start)
    return at + 1 if at >= 0 else -1


# -- meetings: how the Trident's meetings are played and stood --------------------------------------

# Official meetings and contests are played under competition rules, the first player at seat 1.
MEETING_SETUP: Mapping[str, Any] = {"first": 1, "rules": "competition"}


def meeting_win(place: int, won: bool) -> bool:
    """A win is a 1st place (the contract), also in a game that ended by a crash, where no one went out."""
    return place == 1


# -- seat order -------------------------------------------------------------------------------------
# Who chooses a seat first: the lowest-ranked player, then the highest, then the one between.
#
# Precedence among players: rank, then peerage, then who reached that rank first. Apprentices are all
# equal (peerage and dates do not count among them), and a first-timer is below every Apprentice.
# Among equals the order given is kept, so a caller that wants "any order" gets a stable one.


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


def _higher_first(a: PlayerStatus, b: PlayerStatus) -> int:
    return -compare_precedence(a, b)


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
    rest = sorted(rest, key=cmp_to_key(_higher_first))
    return [lowest.name, highest.name, *(s.name for s in rest)]


# -- the records' view of this ladder (kikimimi.games.ladder.Ladder) ---------------------------------
# The records keep a result's place, win, score and details; the Trident's crash is the detail
# `"crashed": true` on the seat that crashed, its points left in hand the score, its pieces left the
# detail `pieces`. Everything the records need to know of that is said here.

CRASHED = "crashed"  # the result detail of the seat that crashed


def _crashed(details: Mapping[str, Any]) -> bool:
    return details.get(CRASHED) is True


class TridentLadder:
    """The Trident's ladder as the records ask for it (`kikimimi.games.ladder.Ladder`)."""

    title_forms: tuple[str, ...] = TITLE_FORMS
    meeting_setup: Mapping[str, Any] = MEETING_SETUP
    result_marks: Mapping[str, str] = {"!": CRASHED}  # `Cid!`: Cid crashed
    result_fields: Mapping[str, type] = {CRASHED: bool, "pieces": int}
    score_name = "points"  # a sheet may give the score as the points left in hand
    standing_columns: tuple[str, ...] = ("points", "crashes")

    def seat_details(self, outcome: Any, seats: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The engine's outcome names the seat that crashed (`details["crashed"]`, None for none); the
        records keep it on that seat's result. ValueError for a seat that did not play."""
        crashed = outcome.details.get(CRASHED)
        if crashed is None or isinstance(crashed, Mapping):  # none, or already per seat (a typed result)
            return {}
        if crashed not in seats:
            raise ValueError(f"outcome says seat {crashed} crashed, but seats are {sorted(seats)}")
        return {crashed: {CRASHED: True}}

    def result_problems(self, results: Sequence[Any]) -> list[str]:
        """At most one crash, and that one last and no winner."""
        crashed = [r for r in results if _crashed(r.details)]
        if len(crashed) > 1:
            return [f"only one player can crash in a game, got {[r.player for r in crashed]}"]
        problems = []
        if crashed and crashed[0].place != len(results):
            problems.append(f"{crashed[0].player} crashed but has place {crashed[0].place}; a crash is last place")
        if crashed and crashed[0].won:
            problems.append(f"{crashed[0].player} crashed and cannot also win")
        return problems

    def first_wins(self, details: Sequence[Mapping[str, Any]]) -> bool:
        """A sheet naming no winner: the 1st place went out and won, unless someone crashed (then the
        game ended with no one out, as the engine's outcome says)."""
        return not any(_crashed(d) for d in details)

    def result(self, place: int, won: bool, score: int | None, details: Mapping[str, Any]) -> GameResult:
        return GameResult(place, _crashed(details))

    def pack(self, result: GameResult) -> str:
        return pack_game(result.place, result.crashed)

    def unpack(self, code: str) -> GameResult:
        return unpack_game(code)

    def meeting_result(self, meeting_id: int, kind: str, games: tuple[GameResult, ...], order: tuple[Any, ...],
                       won_contest: bool) -> MeetingResult:
        return MeetingResult(meeting_id, kind, games, order, won_contest)

    def replay(self, history: Iterable[MeetingResult], *, name: str = "", title_form: str = "") -> LadderHistory:
        return replay(history, name=name, title_form=title_form or TITLE_FORMS[0])

    def packed_status(self, meetings: Iterable[PackedMeeting], *, name: str = "", title_form: str = "") -> PlayerStatus:
        return packed_status(meetings, name=name, title_form=title_form or TITLE_FORMS[0])

    def seat_order(self, statuses: Sequence[PlayerStatus]) -> list[str]:
        return seat_order(statuses)

    def meeting_win(self, place: int, won: bool) -> bool:
        return meeting_win(place, won)

    def standing_key(self, standing: Any) -> tuple[int, int, int]:
        """A meeting's standings: most wins, then fewest points left in hand, then fewest crashes."""
        return (-standing.wins, standing.score, standing.counts.get(CRASHED, 0))

    def standing_figures(self, standing: Any) -> dict[str, int]:
        """Crashes, points left in hand (the score) and pieces left, as the standings show them."""
        return {"crashes": standing.counts.get(CRASHED, 0), "points": standing.score, "score": standing.score,
                "pieces": standing.counts.get("pieces", 0)}

    def standing_notes(self, standing: Any) -> list[str]:
        crashes = standing.counts.get(CRASHED, 0)
        return [counted(crashes, "crash", "crashes")] if crashes else []

    def status_figures(self, status: PlayerStatus) -> dict[str, int]:
        return {"wins": status.wins, "streaks": status.streaks, "crashes": status.crashes, "games": status.games,
                "meetings": status.meetings}

    def status_lines(self, status: PlayerStatus) -> list[str]:
        s = status
        by_rank = ", ".join(f"{n} as {r.title(s.title_form)}" for r, n in sorted(s.streaks_by_rank.items()))
        lines = [
            f"{s.name}: {s.title}",
            f"  wins {s.wins} (1st places {s.first_places}), streaks {s.streaks}, crashes {s.crashes}",
            f"  streaks by rank: {by_rank or 'none'}; in a row now: {counted(s.run, 'win')}, "
            f"{counted(s.crash_run, 'crash', 'crashes')}",
            f"  {counted(s.games, 'game')} in {counted(s.meetings, 'meeting')}; contests won {s.contests_won}; "
            f"demotions {s.demotions}",
        ]
        nxt = s.next_rank()
        if nxt:
            rank, need = nxt
            parts = [counted(need.wins, "win")]
            if need.streaks_at is not None:
                parts.append(f"{need.streaks} streaks as {need.streaks_at.title()}")
            if need.peerage:
                parts.append("a peerage")
            lines.append(f"  next: {rank.title(s.title_form)} at {' and '.join(parts)}")
        return lines

    def __repr__(self) -> str:
        return "<the Trident's ladder>"


LADDER: Ladder[GameResult, MeetingResult, PlayerStatus] = TridentLadder()  # the type checker holds it to the protocol
