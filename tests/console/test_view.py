"""The panels as text: hands, private lines and pieces in alerts are hidden until revealed.

The game's own panel is its view model (`GameInfo.model_function()`) drawn by the console (`model_text`); a
game without one is drawn by the generic model, given the public observation unless the Priest revealed.
"""

import re

from kikimimi.console.feed import Spoken
from kikimimi.console.modeltext import model_text
from kikimimi.console.view import alerts_text, describe_alert, spoken_text
from kikimimi.console.words import words
from kikimimi.games.base import Alert, Referee, Scan
from kikimimi.games.registry import games, get_info
from kikimimi.games.session import Session
from kikimimi.games.tableview import table_model

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


def panel(events=(), *, reveal=False, players=None, titles=None, info=None, lang="en", setup=None) -> str:
    """The terminal's game panel: the game's view model drawn by the console (`model_text`)."""
    info = info or get_info("trident")
    played = session(events) if info.id == "trident" else Session(info.game, setup or info.setup_defaults)
    report, public = played.game.report(played.state), played.game.observe(played.state, None)
    model = table_model(info.model_function(), report, public, reveal=reveal, players=players,
                        seats=info.seat_count(played.setup))
    return model_text(model, words(lang), reveal=reveal, titles=titles).plain


def test_the_games_own_panel_counts_hands_but_shows_them_only_when_revealed():
    hidden = panel()
    assert "Seat 1  2 in hand" in hidden and "Seat 2  1 in hand" in hidden
    assert "heart-1" not in hidden and "clover-3" not in hidden
    assert "hands hidden" in hidden
    shown = panel(reveal=True)
    assert "heart-1 spade-2" in shown and "clover-3" in shown and "hands hidden" not in shown


def test_players_and_their_ranks_when_a_meeting_is_open():
    text = panel(players={1: "Aoi", 2: "Ben"}, titles={"Aoi": "Bishop"})
    assert "Seat 1  2 in hand  Aoi (Bishop)" in text
    assert "Seat 2  1 in hand  Ben" in text


def test_the_games_ranking_after_the_end():
    text = panel([Referee("end")])
    assert "Phase game over" in text
    assert "1. Seat 3: 0 pieces, 0 pts\n  2. Seat 1: 2 pieces, 4 pts\n  3. Seat 2: 1 pieces, 5 pts" in text
    assert "Ended by the Priest" in text
    japanese = panel([Referee("end")], lang="ja")
    assert re.findall(r"[A-Za-z]+", japanese.replace("(h", "")) == [], japanese


def test_every_games_panel_hides_hands_until_revealed_in_both_languages():
    """Each registered game's model drawn at its start, hidden then revealed, in Japanese and English."""
    for info in games():
        for lang in ("en", "ja"):
            text = panel(info=info, lang=lang)
            assert words(lang).say("page.seat_n", seat=1) in text, (info.id, text)
            assert words(lang).say("terminal.hands_hidden") in text
    played = session()
    model = table_model(None, played.game.report(played.state), played.game.observe(played.state, None),
                        reveal=False, seats=3)
    hidden = model_text(model, words("en"), reveal=False).plain
    assert "heart-1" not in hidden and "Seat 1" in hidden and "hands hidden" in hidden


def test_a_failing_model_falls_back_to_the_generic_one():
    def broken(data, *, reveal, players=None):
        raise RuntimeError("boom")

    model = table_model(broken, {"phase": "play", "secret": 42}, {"phase": "play"}, reveal=False, seats=2)
    text = model_text(model, words("en"), reveal=False).plain
    assert "view failed" in text and "Phase play" in text and "42" not in text and "Seat 2" in text


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
