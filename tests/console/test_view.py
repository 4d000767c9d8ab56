"""The panels as text: hands, private lines and pieces in alerts are hidden until revealed.

The game's own panel comes from the registry (`GameInfo.view_function()`); a game without one is shown
by the generic panel, which is given the public observation unless the Priest revealed the hands.
"""

from rich.text import Text

from kikimimi.console.feed import Spoken
from kikimimi.console.view import alerts_text, describe_alert, game_panel, generic_text, result_text, spoken_text
from kikimimi.games.base import Alert, Referee, Scan
from kikimimi.games.registry import games, get_info
from kikimimi.games.session import Session

HANDS = {1: ["heart-1", "spade-2"], 2: ["clover-3"], 3: []}


def session(events=()) -> Session:
    info = get_info("trident")
    played = Session(info.game, {"first": 1, "rules": "competition"})
    for seat, pieces in HANDS.items():
        for piece in pieces:
            played.feed(Scan(f"hand:{seat}", piece))
    for event in events:
        played.feed(event)
    return played


def panel(events=(), **options) -> str:
    played = session(events)
    view = get_info("trident").view_function()
    report = played.game.report(played.state)
    return game_panel(view, report, played.game.observe(played.state, None), seats=3, **options).plain


def test_the_games_own_panel_counts_hands_but_shows_them_only_when_revealed():
    hidden = panel()
    assert "Seat 1  2 pieces" in hidden and "Seat 2  1 piece" in hidden
    assert "heart-1" not in hidden and "clover-3" not in hidden
    assert "hands hidden" in hidden
    shown = panel(reveal=True)
    assert "heart-1 spade-2" in shown and "clover-3" in shown


def test_players_and_their_ranks_when_a_meeting_is_open():
    text = panel(players={1: "Aoi", 2: "Ben"}, titles={"Aoi": "Bishop"})
    assert "Seat 1  2 pieces  Aoi (Bishop)" in text
    assert "Seat 2  1 piece  Ben" in text


def test_the_games_ranking_after_the_end():
    text = panel([Referee("end")])
    assert "Phase game over" in text
    assert "1st seat 3 (0 pieces, 0 points)  2nd seat 1 (2 pieces, 4 points)  3rd seat 2 (1 piece, 5 points)" in text


def test_generic_panel_of_the_public_observation_names_no_hand_piece():
    """Any registered game, shown without its view: nothing of a hand until revealed."""
    for info in games():
        played = Session(info.game, info.setup_defaults)
        public = played.game.observe(played.state, None)
        report = played.game.report(played.state)
        text = game_panel(None, report, public, seats=info.seat_count(played.setup)).plain
        assert "Phase" in text and "Seat 1" in text and "hands hidden" in text
    played = session()
    hidden = game_panel(None, played.game.report(played.state), played.game.observe(played.state, None),
                        seats=3).plain
    assert "heart-1" not in hidden and "clover-3" not in hidden and "Seat 1  2 pieces" in hidden
    shown = game_panel(None, played.game.report(played.state), {}, seats=3, reveal=True).plain
    assert "heart-1 spade-2" in shown and "hands hidden" not in shown


def test_generic_panel_phase_turn_and_a_game_neutral_result():
    text = generic_text({"phase": "over", "turn": None,
                         "result": {"ranking": [2, 1], "winners": [2], "scores": {"1": 5, "2": 9},
                                    "reason": "out_of_cards"}}, seats=2).plain
    assert "Phase over" in text
    assert "Ranking 1st seat 2 (9)  2nd seat 1 (5)" in text and "Won seat 2" in text and "out of cards" in text
    assert "Phase bidding" in generic_text({"phase": "bidding", "turn": 2}, seats=2).plain
    assert "to move seat 2" in generic_text({"phase": "bidding", "turn": 2}, seats=2).plain
    assert "no winner" in result_text({"ranking": [], "winners": []}).plain


def test_a_failing_view_falls_back_to_the_generic_panel():
    def broken(report, *, reveal, players=None, titles=None) -> Text:
        raise RuntimeError("boom")

    text = game_panel(broken, {"phase": "play", "secret": 42}, {"phase": "play"}, seats=2).plain
    assert "panel failed" in text and "Phase play" in text and "42" not in text


def test_alert_names_the_piece_only_when_revealed():
    alert = Alert("piece.foreign_hand", {"reader": "hand:2", "seat": 2, "owner": 1, "piece": "heart-1"})
    assert describe_alert(alert) == "a piece of seat 1 was tapped on seat 2's hand reader"
    assert "heart-1" in describe_alert(alert, reveal=True)
    moved = Alert("referee.moved", {"piece": "heart-1", "to": "hand:3"})
    assert describe_alert(moved) == "moved a piece to hand:3"
    assert "heart-1" not in alerts_text([("21:00:00", moved)]).plain
    assert "21:00:00 moved heart-1 to hand:3" in alerts_text([("21:00:00", moved)], reveal=True).plain


def test_an_alert_the_console_does_not_know_hides_what_may_be_a_secret():
    alert = Alert("numeron.odd", {"seat": 2, "card": "card-17", "digits": "0312"})
    hidden = describe_alert(alert)
    assert "seat=2" in hidden and "card-17" not in hidden and "0312" not in hidden
    assert "card-17" in describe_alert(alert, reveal=True)


def test_spoken_lines_stay_in_their_own_output():
    lines = [Spoken(1, "hand:1", "Heart."), Spoken(2, "speaker", "Seat 1 plays"), Spoken(3, "hand:2", "Spade.")]
    hand1 = spoken_text(lines, "hand:1", reveal=True).plain
    assert "Heart." in hand1 and "Spade." not in hand1 and "Seat 1 plays" not in hand1
    assert "Heart." not in spoken_text(lines, "hand:1").plain
    assert "(private line)" in spoken_text(lines, "hand:1").plain
    assert "Seat 1 plays" in spoken_text(lines, "speaker").plain
