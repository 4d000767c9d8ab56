"""What the console tells the Priest: the replay's real state reports fed to `guide`."""

from kikimimi.console.words import words
from kikimimi.games.base import Referee, Scan
from kikimimi.games.session import Session
from kikimimi.games.trident import guide as steps
from kikimimi.games.trident.engine import Trident

ENGLISH = words("en")


def guide(report: dict, drew: str | None = None) -> list[str]:
    """The guide's lines as the console says them on an English table."""
    return [ENGLISH.render(line) for line in steps.guide(report, drew)]


def pieces(count: int) -> str:
    return ENGLISH.value({"pieces": count})

DEAL = {
    1: ["heart-1", "heart-2", "spade-3", "draw2-1", "clover-4"],
    2: ["diamond-1", "diamond-2", "heart-5", "change-spade-1", "spade-1"],
    3: ["clover-1", "clover-2", "unknown-turn-left", "heart-8", "diamond-8"],
}


def play(rules: str, events: list) -> Session:
    session = Session(Trident(), {"first": 1, "rules": rules})
    for event in events:
        session.feed(event)
    return session


def dealt() -> list:
    return [Scan(f"hand:{seat}", p) for seat, ps in DEAL.items() for p in ps]


def report(session: Session) -> dict:
    return session.game.report(session.state)


def test_counts_in_words():
    assert pieces(1) == "one piece"
    assert pieces(2) == "two pieces"
    assert pieces(14) == "14 pieces"


def test_competition_deal_says_who_still_needs_pieces():
    session = play("competition", [Scan("hand:1", "heart-1"), Scan("hand:1", "heart-2"), Scan("hand:3", "spade-1")])
    text = guide(report(session))[0]
    assert text.startswith("Give seat 1 three pieces, seat 2 five pieces and seat 3 four pieces from the basket")


def test_competition_start_and_turn_draw():
    session = play("competition", dealt())
    assert "Give seat 1 one piece from the basket to tap on the field reader" in guide(report(session))[0]
    session.feed(Scan("field", "heart-3"))
    lines = guide(report(session))
    assert lines[0].startswith("Seat 1 to move: plays a heart")
    assert lines[1] == "If seat 1 draws, give them one piece from the basket."


def test_competition_penalty_gives_two_from_the_basket():
    session = play("competition", [*dealt(), Scan("field", "heart-3"), Referee("penalty", {"seat": 2})])
    lines = guide(report(session))
    assert lines[0] == "Give seat 2 two pieces from the basket, one at a time, to tap on their hand reader."


def test_pending_draw_after_an_attack():
    session = play("competition", [*dealt(), Scan("field", "heart-3"), Scan("field", "draw2-1")])
    lines = guide(report(session))
    assert lines[0].startswith("Seat 2 faces a draw of 2")
    assert lines[1] == "If seat 2 accepts, give them two pieces from the basket."


def test_standard_rules_do_not_ask_the_priest_to_hand_out():
    session = play("standard", [*dealt(), Scan("field", "heart-3"), Referee("penalty", {"seat": 2})])
    lines = guide(report(session))
    assert lines[0] == "Seat 2 draws two pieces from the basket."
    assert not any(line.startswith("Give") for line in lines)


def test_after_a_draw_and_at_the_end():
    session = play("standard", [*dealt(), Scan("field", "heart-3"), Scan("hand:1", "spade-8")])
    assert guide(report(session), session.state.drew)[0] == "Seat 1 has drawn: plays that piece or passes."
    session.feed(Referee("end"))
    assert guide(report(session))[0].startswith("The game is over")
