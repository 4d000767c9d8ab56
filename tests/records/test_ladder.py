"""The ladder's every condition at its boundary, as pure functions of a player's meetings."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kikimimi.games.trident.ladder import GameResult, MeetingResult, Rank, player_status, replay

_ids = itertools.count(1)

PLACES = {"W": GameResult(1), "2": GameResult(2), "L": GameResult(3), "C": GameResult(3, crashed=True)}


def meet(pattern: str, kind: str | None = None, won: bool = False) -> MeetingResult:
    """A meeting from one letter per game: W 1st, 2 second, L third, C crash (third)."""
    mid = next(_ids)
    kind = kind or {10: "full", 5: "half"}.get(len(pattern), "full")
    return MeetingResult(mid, kind, tuple(PLACES[c] for c in pattern), (f"t{mid:06d}", mid), won)


def contest(won: bool, pattern: str = "WWW") -> MeetingResult:
    return meet(pattern, "contest", won)


ALT = "W2" * 5  # 5 wins, never two in a row
NONE = "2" * 10


def status(*meetings: MeetingResult, form: str = "king"):
    return player_status(meetings, name="P", title_form=form)


def to_bishop() -> list[MeetingResult]:
    return [meet(ALT), meet(ALT)]  # 10 wins, no streaks


def to_wizard() -> list[MeetingResult]:
    # As Bishop: WWW = 2 streaks and 2 more wins: 10 + 5 = 15; then 5 more (no pairs) = 20.
    return [*to_bishop(), meet("WWW2W2W222"), meet(ALT)]


def to_knight() -> list[MeetingResult]:
    # As Wizard: WWWW = 3 streaks (and a Baron), + W = 25; then 5 more = 30.
    return [*to_wizard(), meet("WWWW2W2222"), meet(ALT)]


def to_general() -> list[MeetingResult]:
    # As Knight: WWWWWW = 5 streaks, 6 wins (and one more 4-run) = 36; then 14 more = 50.
    return [*to_knight(), meet("WWWWWW2222"), meet(ALT), meet(ALT), meet("W2W2W2W222")]


# -- registration ---------------------------------------------------------------------------------


def test_nobody_is_registered_before_an_official_meeting():
    assert status().rank is Rank.UNREGISTERED
    assert status(contest(False)).rank is Rank.UNREGISTERED


@pytest.mark.parametrize("pattern", [NONE, "22222"])
def test_an_official_meeting_registers_an_apprentice_even_without_a_win(pattern):
    assert status(meet(pattern)).rank is Rank.APPRENTICE


# -- wins and streaks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "streaks"),
    [("W2W2W22222", 0), ("WW22222222", 1), ("WWW2222222", 2), ("WWWW222222", 3), ("WWW2WWW222", 4)],
)
def test_streaks_are_pairs_of_consecutive_wins(pattern, streaks):
    s = status(meet(pattern))
    assert s.streaks == streaks
    assert s.wins == pattern.count("W")


def test_a_run_continues_from_one_meeting_to_the_next():
    s = status(meet("W222222222"), meet("W222222222"))
    assert (s.streaks, s.run) == (0, 0)
    s = status(meet("222222222W"), meet("W222222222"))
    assert s.streaks == 1


def test_contest_games_neither_count_nor_break_a_run():
    s = status(meet("222222222W"), contest(False, "LLL"), meet("W222222222"))
    assert (s.wins, s.streaks) == (2, 1)
    assert status(meet(NONE), contest(False, "WWWW")).wins == 0


# -- ranks ----------------------------------------------------------------------------------------


def test_bishop_at_ten_wins_not_nine():
    assert status(meet(ALT), meet("W2W2W2W222")).rank is Rank.APPRENTICE  # 9
    assert status(meet(ALT), meet(ALT)).rank is Rank.BISHOP  # 10


def test_ranks_are_settled_at_the_end_of_a_meeting():
    # The 10th win comes mid-meeting; the streaks after it are still made as Apprentice.
    s = status(meet(ALT), meet("W2W2W2W2WW"))
    assert s.rank is Rank.BISHOP
    assert s.streaks_by_rank == {Rank.APPRENTICE: 1}


def test_wizard_needs_two_streaks_made_as_bishop():
    assert status(*to_wizard()).rank is Rank.WIZARD
    # Twenty wins, but the streaks were made as Apprentice: the wrong rank.
    early = [meet("WWW2W2W2W2"), meet("WWW2W2W2W2"), meet(ALT), meet(ALT)]
    s = status(*early)
    assert s.wins >= 20 and s.streaks_by_rank.get(Rank.APPRENTICE) == 4
    assert s.rank is Rank.BISHOP
    # Two streaks as Bishop but nineteen wins.
    s = status(*to_bishop(), meet("WWW2W2W222"), meet("W2W2W2W222"))
    assert (s.rank, s.wins, s.streaks_by_rank[Rank.BISHOP]) == (Rank.BISHOP, 19, 2)
    # One streak as Bishop and twenty wins.
    s = status(*to_bishop(), meet("WW2W2W2W22"), meet("W2W2W2W2W2"))
    assert (s.rank, s.wins, s.streaks_by_rank[Rank.BISHOP]) == (Rank.BISHOP, 20, 1)


def test_knight_needs_three_streaks_made_as_wizard():
    assert status(*to_knight()).rank is Rank.KNIGHT
    s = status(*to_wizard(), meet("WWW2W2W222"), meet("W2W2W2W2W2"))  # 2 streaks as Wizard
    assert (s.rank, s.wins, s.streaks_by_rank[Rank.WIZARD]) == (Rank.WIZARD, 30, 2)


def test_general_needs_five_streaks_made_as_knight():
    s = status(*to_general())
    assert (s.rank, s.wins) == (Rank.GENERAL, 50)
    s = status(*to_knight(), meet("WWWWW22222"), meet(ALT), meet(ALT), meet(ALT), meet("W2W2W22222"))
    assert s.streaks_by_rank[Rank.KNIGHT] == 4 and s.wins >= 50
    assert s.rank is Rank.KNIGHT


def test_king_needs_a_hundred_wins_and_a_peerage():
    base = to_general()  # 50 wins, with a peerage from its 4-runs
    assert status(*base).peerage >= 1
    assert status(*base, *[meet(ALT)] * 9, meet("W2W2W2W222")).rank is Rank.GENERAL  # 99
    assert status(*base, *[meet(ALT)] * 10).rank is Rank.KING  # 100
    assert status(*base, *[meet(ALT)] * 10, form="queen").title.startswith("Queen")


def test_a_hundred_wins_without_a_peerage_stays_general():
    # Reach General with runs never longer than 3, so no peerage.
    path = [
        *to_bishop(),
        meet("WWW2W2W222"),
        meet(ALT),  # Wizard, 20
        meet("WWW2WW2W22"),
        meet(ALT),  # 3 streaks as Wizard, 26 + 5 = 31: Knight
        meet("WWW2WWW2WW"),
        meet(ALT),
        meet(ALT),
    ]  # 5 streaks as Knight, 39 + 10 = 49
    assert status(*path).rank is Rank.KNIGHT
    path.append(meet("W222222222"))  # 50
    assert status(*path).rank is Rank.GENERAL
    path += [meet(ALT)] * 10
    s = status(*path)
    assert (s.wins, s.peerage, s.rank) == (100, 0, Rank.GENERAL)


def test_several_ranks_can_be_regained_at_once_with_kept_streaks():
    # A Wizard demoted to Bishop keeps its Bishop streaks: at 20 wins again it is Wizard at once.
    s = status(*to_wizard(), meet("CC22222222"), meet(ALT))
    assert (s.rank, s.wins) == (Rank.BISHOP, 15)
    assert status(*to_wizard(), meet("CC22222222"), meet(ALT), meet(ALT)).rank is Rank.WIZARD


# -- demotion -------------------------------------------------------------------------------------


def test_two_crashes_in_a_row_demote_one_rank_and_take_ten_wins():
    s = status(*to_wizard(), meet("W2CC222222"))  # 21 wins at the second crash
    assert (s.rank, s.wins, s.demotions) == (Rank.BISHOP, 11, 1)
    assert s.first_places == 21  # the record of 1st places is never reduced


def test_one_crash_or_two_apart_do_not_demote():
    assert status(*to_wizard(), meet("C2C2C22222")).rank is Rank.WIZARD


def test_wins_after_the_crash_still_count():
    s = status(*to_bishop(), meet("CCWW222222"))
    assert (s.rank, s.wins) == (Rank.APPRENTICE, 2)


def test_demoted_wins_never_go_below_zero():
    s = status(*to_bishop(), meet(NONE), meet("CC22222222"))
    assert s.wins == 0  # 10 - 10
    s = status(meet(ALT), meet("W2W2W2W2W2"), meet("CC" + "2" * 8))
    assert (s.rank, s.wins) == (Rank.APPRENTICE, 0)


def test_a_third_crash_in_a_row_is_the_same_event():
    s = status(*to_wizard(), meet("CCC2222222"))
    assert (s.rank, s.wins, s.demotions) == (Rank.BISHOP, 10, 1)


def test_two_demotion_events_in_one_meeting_demote_once():
    s = status(*to_knight(), meet("CC2CC2CC22"))
    assert (s.rank, s.wins, s.demotions) == (Rank.WIZARD, 20, 1)


def test_events_in_two_meetings_demote_twice():
    s = status(*to_knight(), meet("CC22222222"), meet("CC22222222"))
    assert (s.rank, s.wins, s.demotions) == (Rank.BISHOP, 10, 2)


def test_a_crash_run_spans_meetings():
    s = status(*to_wizard(), meet("222222222C"), meet("C222222222"))
    assert s.rank is Rank.BISHOP
    changes = replay([*to_wizard(), meet("222222222C"), last := meet("C222222222")]).changes_in(last.meeting_id)
    assert [c.kind for c in changes] == ["demoted"]


@pytest.mark.parametrize("path", [to_general, lambda: [*to_general(), *[meet(ALT)] * 10]])
def test_general_king_and_queen_are_never_demoted(path):
    before = status(*path())
    after = status(*path(), meet("CCCCCCCCCC"))
    assert after.rank is before.rank in (Rank.GENERAL, Rank.KING)
    assert after.wins == before.wins and after.demotions == 0


def test_an_apprentice_has_no_rank_to_lose():
    s = status(meet("W2W2W2W2W2"), meet("CC22222222"))
    assert (s.rank, s.wins, s.demotions) == (Rank.APPRENTICE, 5, 0)


def test_streak_records_stay_after_a_demotion():
    before = status(*to_wizard())
    after = status(*to_wizard(), meet("CC22222222"))
    assert after.streaks_by_rank == before.streaks_by_rank


def test_a_meeting_that_demotes_does_not_promote():
    # A Bishop with 30 wins: after the demotion 20 remain, enough for Bishop, but not at this meeting.
    path = [*to_bishop(), meet(ALT), meet(ALT), meet(ALT), meet(ALT)]
    s = status(*path, meet("CC22222222"))
    assert (s.rank, s.wins) == (Rank.APPRENTICE, 20)
    assert status(*path, meet("CC22222222"), meet(NONE)).rank is Rank.BISHOP


# -- peerage --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("patterns", "level", "king", "queen"),
    [
        (["WWW2222222"], 0, "", ""),
        (["WWWW222222"], 1, "Baron", "Baroness"),
        (["WWWWWWW222"], 1, "Baron", "Baroness"),
        (["WWWWWWWW22"], 2, "Viscount", "Viscountess"),
        (["WWWW2WWWW2"], 2, "Viscount", "Viscountess"),
        (["WWWWWWWWWW", "WW22222222"], 3, "Earl", "Countess"),
        (["WWWWWWWW22", "WWWWWWWW22"], 4, "Marquis", "Marchioness"),
        (["WWWWWWWWWW", "WWWWWWWWWW"], 5, "Duke", "Duchess"),
        (["WWWWWWWWWW", "WWWWWWWWWW", "WWWWWWWWWW"], 5, "Duke", "Duchess"),
    ],
)
def test_peerage_counts_each_four_wins_in_a_row(patterns, level, king, queen):
    meetings = [meet(p) for p in patterns]
    assert status(*meetings).peerage == level
    assert status(*meetings).peerage_title == king
    assert status(*meetings, form="queen").peerage_title == queen


def test_a_four_run_across_meetings_counts():
    assert status(meet("22222222WW"), meet("WW22222222")).peerage == 1


# -- contests -------------------------------------------------------------------------------------


def test_winning_a_contest_gives_the_next_peerage_and_one_rank():
    s = status(*to_bishop(), contest(True))
    assert (s.rank, s.peerage, s.wins, s.contests_won) == (Rank.WIZARD, 1, 10, 1)
    s = status(meet("WWWW222222"), contest(True))  # Baron already: Viscount
    assert (s.rank, s.peerage) == (Rank.BISHOP, 2)


def test_losing_a_contest_changes_nothing():
    path = to_bishop()
    assert status(*path, contest(False)) == status(*path)


def test_a_contest_peerage_adds_to_run_peerages():
    s = status(contest(True), meet("WWWW222222"))
    assert s.peerage == 2


def test_a_duke_gains_nothing_from_a_contest():
    dukedom = [meet("W" * 10), meet("W" * 10)]
    s = status(*dukedom, contest(True))
    assert (s.peerage, s.rank, s.contests_won) == (5, status(*dukedom).rank, 1)


def test_a_king_winning_a_contest_gains_a_peerage_only():
    s = status(*to_general(), *[meet(ALT)] * 10, contest(True))
    assert s.rank is Rank.KING and s.peerage == status(*to_general()).peerage + 1


def test_a_first_timer_who_wins_a_contest_is_registered():
    s = status(contest(True))
    assert (s.rank, s.peerage) == (Rank.APPRENTICE, 1)


# -- order, changes, invariants -------------------------------------------------------------------


def test_history_order_does_not_matter_only_when_held():
    path = [*to_knight(), meet("CC22222222"), contest(True)]
    shuffled = path[:]
    random.Random(7).shuffle(shuffled)
    assert status(*shuffled) == status(*path)


def test_changes_name_each_settlement():
    path = to_wizard()
    kinds = [(c.meeting_id, c.kind, c.after) for c in replay(path, name="P").changes]
    assert kinds == [
        (path[0].meeting_id, "registered", "Apprentice"),
        (path[1].meeting_id, "promoted", "Bishop"),
        (path[3].meeting_id, "promoted", "Wizard"),
    ]


def test_rank_since_is_the_meeting_that_reached_it():
    path = to_wizard()
    assert status(*path).rank_since_meeting == path[3].meeting_id
    assert status(*path, meet(NONE)).rank_since == path[3].order


@given(st.lists(st.text(alphabet="W2LC", min_size=1, max_size=10), max_size=30))
def test_invariants_hold_for_any_history(patterns):
    meetings = [meet(p) for p in patterns]
    s = status(*meetings)
    assert 0 <= s.wins <= s.first_places == "".join(patterns).count("W")
    assert 0 <= s.peerage <= 5
    runs = [len(r) for r in "".join(patterns).replace("2", " ").replace("L", " ").replace("C", " ").split()]
    assert s.streaks == sum(n - 1 for n in runs)
    assert s.peerage == min(5, sum(n // 4 for n in runs))
    assert s.crashes == "".join(patterns).count("C")
    assert (s.rank is Rank.UNREGISTERED) == (not meetings)
