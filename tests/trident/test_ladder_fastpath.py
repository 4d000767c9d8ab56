"""The ladder's fast path (`packed_status`, a meeting's games packed in a string) gives exactly what the
reference `replay(...).status` gives: over random histories (hypothesis), over a seeded corpus that is
checked to reach every rank, peerage 5, demotions, contests and long crash runs, and over every short
meeting after players in many different states (runs, crash runs, ranks)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kikimimi.games.trident.ladder import (
    MAX_PEERAGE,
    GameResult,
    MeetingResult,
    Rank,
    pack_game,
    packed_status,
    replay,
    unpack_game,
)

Game = tuple[int, bool]  # (place, crashed)


def both(meetings: list[tuple[int, str, tuple[Game, ...], str, bool]], form: str = "king"):
    """The reference status and the fast path's, from meetings as (id, kind, games, held_at, won contest)."""
    history = [MeetingResult(mid, kind, tuple(GameResult(p, c) for p, c in games), (held, mid), won)
               for mid, kind, games, held, won in meetings]
    packed = [((held, mid), mid, kind, won, "".join(pack_game(p, c) for p, c in games))
              for mid, kind, games, held, won in meetings]
    return replay(history, name="P", title_form=form).status, packed_status(packed, name="P", title_form=form)


def assert_same(meetings: list[tuple[int, str, tuple[Game, ...], str, bool]], form: str = "king") -> None:
    reference, fast = both(meetings, form)
    assert fast == reference
    assert list(fast.streaks_by_rank) == list(reference.streaks_by_rank)  # same order made, as a dict shows it
    assert type(fast.rank) is Rank and all(type(r) is Rank for r in fast.streaks_by_rank)


# A win, a 2nd place, a 3rd, a crash (last place), and rarer shapes the fast path must not assume away:
# a 4th or 6th place, a crash at 2nd, a crash at 1st (the records refuse it; the ladder still counts it).
games = st.one_of(
    st.sampled_from([(1, False)] * 5 + [(2, False), (3, False), (3, True), (3, True)]),
    st.sampled_from([(4, False), (6, True), (2, True), (1, True)]),
)
meetings = st.tuples(
    st.sampled_from(["full", "full", "half", "contest"]),
    st.lists(games, max_size=12),
    st.integers(0, 6),  # held_at: many meetings share one, so the meeting id decides their order
    st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(meetings, max_size=40), st.sampled_from(["king", "queen"]), st.randoms(use_true_random=False))
def test_the_fast_path_is_the_reference_for_any_history(drawn, form, rng):
    history = [(mid, kind, tuple(gs), f"t{held}", won) for mid, (kind, gs, held, won) in enumerate(drawn, start=1)]
    rng.shuffle(history)  # either takes meetings in any order
    assert_same(history, form)


def _random_history(rng: random.Random) -> list[tuple[int, str, tuple[Game, ...], str, bool]]:
    """Long, win-heavy histories with crash spells: enough to reach King, peerage 5 and demotions."""
    win, crash = rng.uniform(0.2, 0.9), rng.uniform(0.0, 0.5)
    history = []
    for mid in range(1, rng.randint(1, 60) + 1):
        kind = rng.choice(["full", "full", "half", "contest"])
        count = {"full": 10, "half": 5}.get(kind, rng.randint(0, 8))
        spell = rng.random() < 0.2  # a meeting of many crashes: runs of three and more
        played = []
        for _ in range(count):
            r = rng.random()
            if r < (0.1 if spell else win):
                played.append((1, False))
            elif r < (0.9 if spell else win + crash * (1 - win)):
                played.append((3, True))
            else:
                played.append((rng.choice([2, 3]), False))
        history.append((mid, kind, tuple(played), f"t{rng.randint(0, 99):02d}", rng.random() < 0.3))
    return history


def test_the_fast_path_is_the_reference_over_a_corpus_reaching_every_case():
    rng = random.Random(16)
    reached: Counter[str] = Counter()
    for _ in range(3000):
        history = _random_history(rng)
        reference, fast = both(history, rng.choice(["king", "queen"]))
        assert fast == reference, history
        assert list(fast.streaks_by_rank) == list(reference.streaks_by_rank)
        reached[reference.rank.name] += 1
        reached["peerage 5"] += reference.peerage == MAX_PEERAGE
        reached["demoted"] += reference.demotions > 0
        reached["demoted twice"] += reference.demotions > 1
        reached["contest won"] += reference.contests_won > 0
        reached["crash run of 3+"] += reference.crash_run >= 3
        reached["run of 8+"] += reference.longest_run >= 8
    # The corpus is only a proof where it went: every rank and every kind of event, many times.
    assert all(reached[r.name] >= 5 for r in Rank), reached
    events = ("peerage 5", "demoted", "demoted twice", "contest won", "crash run of 3+", "run of 8+")
    assert all(reached[event] >= 100 for event in events), reached


def _prefixes() -> list[list[tuple[int, str, tuple[Game, ...], str, bool]]]:
    """Histories leaving a player in many states: runs 0..5 and crash runs 0..3 at the first meeting,
    then three players at each rank from Apprentice to King ending on a run and a crash run."""
    w, second, crash = (1, False), (2, False), (3, True)
    found = [[]]
    for run, crashes in itertools.product(range(6), range(4)):
        found.append([(1, "full", (second, *[crash] * crashes, *[w] * run) if not crashes else
                       (second, *[w] * run, *[crash] * crashes), "a", False)])
    rng, at_rank = random.Random(3), Counter[Rank]()
    while any(at_rank[r] < 3 for r in Rank if r >= Rank.APPRENTICE):
        history = _random_history(rng)
        tail = (second, *[w] * rng.randint(0, 5), *[crash] * rng.randint(0, 3))
        history.append((len(history) + 1, "half", tail, "z0", False))
        rank = both(history)[0].rank
        if rank >= Rank.APPRENTICE and at_rank[rank] < 3:
            at_rank[rank] += 1
            found.append(history)
    return found


def test_every_short_meeting_after_many_states_is_the_reference():
    codes = [(1, False), (2, False), (3, False), (3, True)]
    patterns = [p for n in range(0, 5) for p in itertools.product(codes, repeat=n)]
    for prefix in _prefixes():
        for pattern in patterns:
            assert_same([*prefix, (999, "full", pattern, "zz", False)])


def test_a_game_packs_into_one_character_and_back():
    for place, crashed in itertools.product(range(1, 40), (False, True)):
        code = pack_game(place, crashed)
        assert len(code) == 1 and unpack_game(code) == GameResult(place, crashed)
    assert pack_game(1) == "B" and pack_game(3, True) == "G"


def test_the_records_pack_a_stored_result_as_the_fast_path_reads_it():
    """The store packs a result through the ladder's `result` and `pack` (a crash is its result's
    detail): the same character `pack_game` gives, and `unpack` gives the result back."""
    from kikimimi.games.trident.ladder import LADDER

    for place, crashed, won in itertools.product(range(1, 12), (False, True), (False, True)):
        stored = LADDER.result(place, won, 7, {"crashed": True, "pieces": 2} if crashed else {"pieces": 2})
        assert LADDER.pack(stored) == pack_game(place, crashed)
        assert LADDER.unpack(LADDER.pack(stored)) == stored == GameResult(place, crashed)
