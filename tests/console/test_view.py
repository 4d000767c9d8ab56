"""The panels as text: hands, private lines and pieces in alerts are hidden until revealed."""

from kikimimi.console.feed import Spoken
from kikimimi.console.view import alerts_text, describe_alert, spoken_text, state_text
from kikimimi.games.base import Alert, Referee, Scan
from kikimimi.games.session import Session
from kikimimi.games.trident import Trident

HANDS = {1: ["heart-1", "spade-2"], 2: ["clover-3"], 3: []}


def report(events=()) -> dict:
    session = Session(Trident(), {"first": 1, "rules": "competition"})
    for seat, pieces in HANDS.items():
        for piece in pieces:
            session.feed(Scan(f"hand:{seat}", piece))
    for event in events:
        session.feed(event)
    return session.game.report(session.state)


def test_hands_are_counted_but_not_shown_until_revealed():
    hidden = state_text(report()).plain
    assert "Seat 1  2 pieces" in hidden and "Seat 2  1 piece" in hidden
    assert "heart-1" not in hidden and "clover-3" not in hidden
    assert "hands hidden" in hidden
    shown = state_text(report(), reveal=True).plain
    assert "heart-1 spade-2" in shown and "clover-3" in shown


def test_players_and_their_ranks_when_a_meeting_is_open():
    text = state_text(report(), players={1: "Aoi", 2: "Ben"}, titles={"Aoi": "Bishop"}).plain
    assert "Seat 1  2 pieces  Aoi (Bishop)" in text
    assert "Seat 2  1 piece  Ben" in text


def test_ranking_after_the_end_by_points_in_competition():
    text = state_text(report([Referee("end")])).plain
    assert "Phase game over" in text
    # seat 3 holds nothing, seat 1 holds 1 + 3 points, seat 2 holds 5 points
    assert "1st seat 3 (0 pieces, 0 points)  2nd seat 1 (2 pieces, 4 points)  3rd seat 2 (1 piece, 5 points)" in text
    assert "by points in hand, ended by the Priest" in text


def test_alert_names_the_piece_only_when_revealed():
    alert = Alert("piece.foreign_hand", {"reader": "hand:2", "seat": 2, "owner": 1, "piece": "heart-1"})
    assert describe_alert(alert) == "a piece of seat 1 was tapped on seat 2's hand reader"
    assert "heart-1" in describe_alert(alert, reveal=True)
    moved = Alert("referee.moved", {"piece": "heart-1", "to": "hand:3"})
    assert describe_alert(moved) == "moved a piece to hand:3"
    assert "heart-1" not in alerts_text([("21:00:00", moved)]).plain
    assert "21:00:00 moved heart-1 to hand:3" in alerts_text([("21:00:00", moved)], reveal=True).plain


def test_spoken_lines_stay_in_their_own_output():
    lines = [Spoken(1, "hand:1", "Heart."), Spoken(2, "speaker", "Seat 1 plays"), Spoken(3, "hand:2", "Spade.")]
    hand1 = spoken_text(lines, "hand:1", reveal=True).plain
    assert "Heart." in hand1 and "Spade." not in hand1 and "Seat 1 plays" not in hand1
    assert "Heart." not in spoken_text(lines, "hand:1").plain
    assert "(private line)" in spoken_text(lines, "hand:1").plain
    assert "Seat 1 plays" in spoken_text(lines, "speaker").plain
