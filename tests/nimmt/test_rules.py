"""One test (or a few) per section of the contract, spec/nimmt-rules.md; the seed's worked turns."""

from __future__ import annotations

import pytest
from nimmt_table import SEED_ROWS, SEED_TURNS, Table, filler, seed_table

from kikimimi.games.base import SPEAKER, Alert, GameOver, Referee, Say, Scan
from kikimimi.games.nimmt.engine import Nimmt, SetupError
from kikimimi.games.nimmt.pieces import BULLHEADS, CONTROLS, PIECES
from kikimimi.games.registry import SetupError as RegistrySetupError
from kikimimi.games.registry import get_info
from kikimimi.games.session import Session

# -- the table and the set-up ---------------------------------------------------------------------


def test_setup_players_first_target_and_malformed_lines():
    info = get_info("nimmt")
    assert info.seats == (2, 10) and info.seat_key == "players"
    assert info.parse_setup({}) == {"players": 4, "first": 1, "target": 0}
    assert info.parse_setup({"players": 10, "first": 7, "target": 66})["players"] == 10
    for bad in ({"players": 1}, {"players": 11}, {"players": 3, "first": 4}, {"first": 0}, {"colour": 1},
                {"target": -1}):
        with pytest.raises(RegistrySetupError):
            info.parse_setup(bad)
    with pytest.raises(SetupError):
        Nimmt().initial({"players": 3, "first": 5})
    assert info.readers({"players": 10})[-1] == "hand:10"


def test_first_changes_nothing():
    one, three = Table(first=1), Table(first=3)
    for table in (one, three):
        table.deal(filler({1: [], 2: [], 3: [], 4: []}, SEED_ROWS), SEED_ROWS)
    assert one.report["phase"] == three.report["phase"] == "choose"
    assert {k: v for k, v in one.report.items() if k != "first"} == \
        {k: v for k, v in three.report.items() if k != "first"}


# -- pieces ---------------------------------------------------------------------------------------


def test_pieces_and_bullheads():
    assert len(PIECES) == 104 and PIECES[0] == "card-1" and CONTROLS == ("row-1", "row-2", "row-3", "row-4")
    assert (BULLHEADS[55], BULLHEADS[11], BULLHEADS[77], BULLHEADS[10], BULLHEADS[100], BULLHEADS[15],
            BULLHEADS[1], BULLHEADS[104]) == (7, 5, 5, 3, 3, 2, 1, 1)
    assert sum(BULLHEADS) == 171


# -- what is spoken where -------------------------------------------------------------------------


def test_hand_reader_says_number_and_bullheads_to_that_seat_only(table):
    fx = table.hand(2, 55)
    assert table.sent(fx) == [("hand:2", "card.b7")]
    assert table.said("hand:2", effects=fx) == ["55, 7 bullheads."]
    assert table.said("hand:2", "ja", fx) == ["55、牛7頭。"]


def test_row_reading_says_count_last_card_and_bullheads():
    table = seed_table()
    table.play(SEED_TURNS[0])
    table.hand(1, 51)  # a row card on a hand reader: that seat hears the row
    assert table.said("hand:1") == ["Row 3: 3 cards, ends at 77,", "7 bullheads."]
    table.field("row-1")
    assert table.said() == ["Row 1: 2 cards, ends at 16,", "6 bullheads."]


# -- deal -----------------------------------------------------------------------------------------


def test_deal_any_order_and_rows_in_tap_order():
    table = Table(2)
    hands = filler({1: [], 2: []}, [90, 3, 50, 20])
    table.hand(1, hands[1][0])
    table.field(90)
    assert table.said() == ["Row 1: 90."]
    table.hand(2, hands[2][0])
    for card in (3, 50, 20):
        table.field(card)
    for seat in (1, 2):
        for card in hands[seat][1:]:
            assert table.report["phase"] == "deal"
            table.hand(seat, card)
    assert table.report["phase"] == "choose"
    assert table.report["rows"] == [[90], [3], [50], [20]]  # D5: tap order, whatever the values
    assert ("speaker", "deal.complete") in table.sent()


def test_deal_refusals():
    table = Table(2)
    for card in range(1, 11):
        table.hand(1, card)
    before = table.report
    table.hand(1, 50)
    assert table.sent() == [("hand:1", "deal.hand_full")] and table.report == before
    for card in (60, 61, 62, 63):
        table.field(card)
    table.field(64)
    assert table.sent() == [("speaker", "deal.rows_full")]
    table.field(5)  # a card held in a hand, on the field
    assert table.sent() == [("speaker", "deal.held")]
    fx = table.hand(2, 5)  # on another seat's hand reader: refused and an alert
    assert table.sent(fx) == [("hand:2", "tap.not_yours")] and any(isinstance(e, Alert) for e in fx)
    table.hand(1, 5)
    assert table.sent() == [("hand:1", "card.b2")]  # own card heard again
    table.hand(2, 61)
    assert table.sent() == [("hand:2", "row.reading"), ("hand:2", "row.bullheads")]
    assert table.report["hands"]["2"] == [] and len(table.report["rows"]) == 4
    assert not table.problems


def test_row_tag_of_a_row_not_laid_is_refused(table):
    table.field(30)
    table.field("row-2")
    assert table.sent() == [("speaker", "row.not_laid")]
    table.hand(3, "row-1")
    assert table.said("hand:3") == ["Row 1: 1 card, ends at 30,", "3 bullheads."]


# -- choosing -------------------------------------------------------------------------------------


def test_choice_on_the_field_speaker_says_only_who():
    table = seed_table()
    fx = table.field(16)
    assert table.sent(fx) == [("speaker", "choose.chosen"), ("hand:1", "choose.you_chose")]
    assert table.said(effects=fx) == ["Seat 1 has chosen."]
    assert table.said("hand:1", effects=fx) == ["You chose 16."]
    assert table.report["chosen"]["1"] == 16 and 16 not in table.report["hands"]["1"]  # D8
    assert len(table.report["hands"]["1"]) == 9


def test_second_choice_is_refused_and_the_first_stands():
    table = seed_table()
    table.field(16)
    table.field(96)
    assert table.said() == ["Seat 1 has already chosen."]
    assert table.report["chosen"]["1"] == 16 and 96 in table.report["hands"]["1"]


def test_waiting_for_the_last_seat():
    table = seed_table()
    table.play(SEED_TURNS[0][:3])
    assert table.sent() == [("speaker", "choose.last"), ("hand:3", "choose.you_chose")]  # [N17]
    assert table.said() == ["Seat 3 has chosen; waiting for seat 4."]
    assert table.said("speaker", "ja") == ["3番、あと4番。"]


def test_after_the_deal_hand_readers_only_speak():
    table = seed_table()
    table.field(16)
    before = table.report
    table.hand(1, 16)  # own chosen card: confirmed again
    assert table.said("hand:1") == ["You chose 16."]
    table.hand(1, 96)  # own card
    assert table.said("hand:1") == ["96, 1 bullhead."]
    fx = table.hand(1, 51)  # another seat's card: refused, alert, no number
    assert table.sent(fx) == [("hand:1", "tap.not_yours")] and any(isinstance(e, Alert) for e in fx)
    table.hand(2, 16)  # another seat's chosen card
    assert table.sent() == [("hand:2", "tap.not_yours")]
    table.hand(1, 2)  # out of play
    assert table.sent() == [("hand:1", "tap.refused")]
    table.hand(1, "row-4")
    assert table.said("hand:1") == ["Row 4: 1 card, ends at 92,", "1 bullhead."]
    assert table.report == before


def test_field_non_choices():
    table = seed_table()
    table.field(16)
    table.field(16)  # the chosen card again
    assert table.said() == ["Seat 1 has already chosen."]
    table.field(2)  # out of play
    assert table.sent() == [("speaker", "tap.refused")]
    table.field(48)
    assert table.said() == ["Row 3: 1 card, ends at 48,", "1 bullhead."]


def test_own_taken_pile_says_bullheads_so_far():
    table = seed_table()
    for turn in SEED_TURNS[:2]:
        table.play(turn)
    table.field("row-2")
    table.hand(3, 26)
    assert table.said("hand:3") == ["Bullheads in your pile: 2."]
    table.hand(1, 26)  # another seat's pile
    assert table.sent() == [("hand:1", "tap.refused")]


# -- reveal and placement; the seed's three worked turns -------------------------------------------


def test_seed_turn_1_reveal_ascending_and_placement():
    table = seed_table()
    fx = table.play(SEED_TURNS[0])
    assert table.report["rows"] == [[11, 16], [26, 27], [48, 51, 77], [92]]
    said = table.said(effects=fx)
    reveal = said[said.index("All have chosen:"):]  # [N17] the last choice is said by the reveal
    assert reveal == ["All have chosen:", "16 seat 1, row 1.", "27 seat 3, row 2.", "51 seat 2, row 3.",
                      "77 seat 4, row 3."]  # [N18] each card with its seat and its row, one phrase [N20]
    speaker = [e for e in fx[-3:] if isinstance(e, Say) and e.to == SPEAKER]  # the last tap: opener, reveal
    assert [e.key for e in speaker] == ["reveal.open", "announce"]
    assert table.report["chosen"] == {"1": None, "2": None, "3": None, "4": None}
    assert all(len(h) == 9 for h in table.report["hands"].values())


def test_seed_turn_2_lowest_card_chooses_any_row():
    table = seed_table()
    table.play(SEED_TURNS[0])
    fx = table.play(SEED_TURNS[1])
    report = table.report
    assert report["phase"] == "take_row" and report["taker"] == 3
    assert report["chosen"] == {"1": 96, "2": 34, "3": 15, "4": 100}  # kept until placed (D8)
    said = table.said(effects=fx)
    assert "15 seat 3: lower than every row, choose one." in said
    assert said[-8:] == ["Row 1: 2 cards, ends at 16,", "6 bullheads.", "Row 2: 2 cards, ends at 27,", "2 bullheads.",
                         "Row 3: 3 cards, ends at 77,", "7 bullheads.", "Row 4: 1 card, ends at 92,", "1 bullhead."]
    table.field(34)  # not a row card: refused
    assert table.said() == ["Seat 3 chooses a row first."]
    table.field(27)  # a card of row 2: not the cheapest row (row 4 costs 1) - the free choice (D12)
    assert table.report["rows"] == [[11, 16, 34], [15], [48, 51, 77], [92, 96, 100]]
    assert table.report["taken"]["3"] == [26, 27] and table.report["bullheads"]["3"] == 2
    assert table.said()[:3] == ["Taken:", "Seat 3 takes row 2,", "2 bullheads."]
    assert table.report["phase"] == "choose" and table.report["taker"] is None


def test_seed_turn_3_sixth_card_takes_the_row():
    table = seed_table()
    table.play(SEED_TURNS[0])
    table.play(SEED_TURNS[1])
    table.field("row-2")
    table.play(SEED_TURNS[2])
    report = table.report
    assert report["rows"] == [[45, 47], [15], [48, 51, 77], [92, 96, 100]]
    assert report["taken"]["1"] == [11, 16, 34, 35, 39]
    assert report["bullheads"] == {"1": 10, "2": 0, "3": 2, "4": 0}
    assert all(len(h) == 7 for h in report["hands"].values())
    said = table.said()
    assert said[said.index("45 seat 1,"):][:3] == ["45 seat 1,", "sixth card: takes row 1,", "10 bullheads."]
    assert not table.problems


def test_row_choice_by_tag_and_then_a_sixth_card_in_the_same_event():
    table = Table(2)
    rows = [10, 30, 40, 50]
    table.deal(filler({1: [11, 13, 1], 2: [12, 14, 15]}, rows), rows)
    table.play([11, 12])
    table.play([13, 14])  # row 1: 10 11 12 13 14
    table.play([1, 15])  # 1 is lowest: seat 1 chooses; 15 waits
    assert table.report["phase"] == "take_row" and table.report["chosen"] == {"1": 1, "2": 15}
    fx = table.field("row-4")
    assert table.report["rows"] == [[15], [30], [40], [1]]
    assert table.report["taken"] == {"1": [50], "2": [10, 11, 12, 13, 14]}
    assert table.said(effects=fx) == ["Taken:", "Seat 1 takes row 4,", "3 bullheads.", "Seat 2 takes row 1,",
                                      "11 bullheads."]


def test_only_the_lowest_card_can_need_a_row():
    table = Table(3)
    table.deal(filler({1: [2], 2: [3], 3: [4]}, [50, 60, 70, 80]), [50, 60, 70, 80])
    table.play([2, 3, 4])
    assert table.report["taker"] == 1
    table.field("row-1")
    assert table.report["rows"] == [[2, 3, 4], [60], [70], [80]]  # D11: the later cards fit


# -- end of a round and of the game ---------------------------------------------------------------


def _play_round(table: Table, low_row: str = "row-1") -> None:
    """Every seat plays its lowest card each turn; a row choice takes `low_row`."""
    while table.report["phase"] in ("choose", "take_row"):
        if table.report["phase"] == "take_row":
            table.field(low_row)
            continue
        cards = [min(table.report["hands"][str(seat)]) for seat in range(1, table.state.players + 1)]
        if not any(cards):
            break
        round_before = table.report["round"]
        table.play(cards)
        if table.report["round"] != round_before:
            return


def test_one_round_ends_the_game_shared_win():
    table = Table(2)
    # Both seats hold cards that only ever extend the rows: nobody takes anything -> a shared win.
    hands = {1: [5, 7, 9, 11, 13, 15, 17, 19, 21, 23], 2: [6, 8, 10, 12, 14, 16, 18, 20, 22, 24]}
    table.deal(hands, [1, 100, 101, 102])
    fx = []
    for turn in range(10):
        fx = table.play([hands[1][turn], hands[2][turn]])
        if table.report["phase"] == "take_row":
            fx = table.field("row-1")
    report = table.report
    assert report["phase"] == "over"
    assert report["result"]["winners"] == sorted(report["result"]["winners"])
    totals = report["totals"]
    fewest = min(totals.values())
    assert report["result"]["winners"] == [int(s) for s, t in totals.items() if t == fewest]
    assert any(isinstance(e, GameOver) for e in fx)
    table.field(50)
    assert table.sent() == [("speaker", "game.over")]
    table.hand(1, 50)
    assert table.sent() == [("hand:1", "game.over")]


def test_shared_win_when_nobody_takes():
    table = Table(2)
    hands = {1: [2, 4, 6, 8, 12, 14, 16, 18, 20, 22], 2: [3, 5, 7, 9, 13, 15, 17, 19, 21, 23]}
    table.deal(hands, [1, 101, 102, 103])
    # Each turn the two cards go on row 1; the row fills to 5 and the 6th card takes it.
    for turn in range(10):
        table.play([hands[1][turn], hands[2][turn]])
    report = table.report
    assert report["phase"] == "over"
    assert sum(report["bullheads"].values()) > 0
    cards_left = sum(len(r) for r in report["rows"])
    taken = sum(len(t) for t in report["taken"].values())
    assert cards_left + taken == 24  # D13: cards in the rows score for nobody


def test_rounds_to_a_target_carry_totals():
    table = Table(2, target=5)
    hands = {1: [2, 4, 6, 8, 12, 14, 16, 18, 20, 22], 2: [3, 5, 7, 9, 13, 15, 17, 19, 21, 23]}
    table.deal(hands, [1, 101, 102, 103])
    for turn in range(10):
        table.play([hands[1][turn], hands[2][turn]])
    report = table.report
    totals = report["totals"]
    if max(totals.values()) >= 5:
        assert report["phase"] == "over"
    else:
        assert report["phase"] == "deal" and report["round"] == 2
        assert report["rows"] == [] and report["taken"] == {"1": [], "2": []}
        assert report["bullheads"] == {"1": 0, "2": 0} and report["totals"] == totals


def test_target_is_checked_only_at_round_end_and_new_round_resets():
    table = Table(2, target=3)
    rows = [10, 97, 98, 99]
    table.deal(filler({1: [11, 13, 15], 2: [12, 14, 16]}, rows), rows)
    for pair in ([11, 12], [13, 14], [15, 16]):
        table.play(pair)
    assert table.report["bullheads"] == {"1": 11, "2": 0}  # 15 was row 1's 6th card
    assert table.report["phase"] == "choose"  # D3: a total past the target mid-round does not end it
    while table.report["phase"] in ("choose", "take_row"):
        if table.report["phase"] == "take_row":
            table.field("row-1")
            continue
        table.play([max(table.report["hands"]["1"]), max(table.report["hands"]["2"])])
    assert table.report["phase"] == "over" and table.state.result.reason == "target"
    assert table.report["result"]["bullheads"] == table.report["totals"]
    totals = table.report["totals"]
    assert table.report["result"]["winners"] == [int(k) for k, v in totals.items() if v == min(totals.values())]


def test_new_round_deals_every_card_again():
    table = Table(2, target=100)
    hands = {1: [2, 4, 6, 8, 12, 14, 16, 18, 20, 22], 2: [3, 5, 7, 9, 13, 15, 17, 19, 21, 23]}
    table.deal(hands, [1, 101, 102, 103])
    for turn in range(10):
        table.play([hands[1][turn], hands[2][turn]])
    assert table.report["round"] == 2 and table.report["phase"] == "deal"
    past = dict(table.report["totals"])
    table.deal(hands, [1, 101, 102, 103])  # D4: the same ids again
    assert table.report["phase"] == "choose" and table.report["totals"] == past
    assert not table.problems


# -- referee --------------------------------------------------------------------------------------


def test_referee_end_and_unknown_actions():
    table = seed_table()
    table.play(SEED_TURNS[0])
    fx = table.feed(Referee("frobnicate"))
    assert table.sent(fx) == [("speaker", "referee.refused")] and any(isinstance(e, Alert) for e in fx)
    fx = table.feed(Referee("end"))
    assert table.report["phase"] == "over" and table.state.result.reason == "referee"
    assert table.report["result"]["winners"] == []
    assert any(isinstance(e, GameOver) for e in fx)
    table.feed(Referee("end"))
    assert table.sent() == [("speaker", "referee.refused")]


def test_undo_takes_back_a_mistaken_choice():
    table = seed_table()
    table.field(16)
    table.field(96)  # refused: the undo passes over it to the choice
    table.feed(Referee("undo"))
    assert table.report["chosen"]["1"] is None and 16 in table.report["hands"]["1"]
    assert ("speaker", "referee.undone") in table.sent()
    table.field(96)
    assert table.report["chosen"]["1"] == 96


def test_undo_of_the_last_choice_takes_back_the_reveal():
    table = seed_table()
    before = table.report
    table.play(SEED_TURNS[0][:3])
    mid = table.report
    table.field(77)
    table.feed(Referee("undo"))
    assert table.report == mid and table.report != before
    assert table.said()[-1] == "Waiting for seat 4."


def test_unused_reader_and_unknown_tag_change_nothing():
    table = seed_table()
    before = table.report
    fx = table.feed(Scan("hand:7", "card-5"))
    assert table.sent(fx) == [("hand:7", "tap.no_seat")] and any(isinstance(e, Alert) for e in fx)
    fx = table.feed(Scan("table", "card-5"))
    assert table.sent(fx) == [] and any(isinstance(e, Alert) for e in fx)
    fx = table.feed(Scan("field", None, "04aa"))
    assert table.sent(fx) == [("speaker", "tap.unknown_tag")]
    fx = table.feed(Scan("hand:2", "ctl-pass"))
    assert table.sent(fx) == [("hand:2", "tap.unknown_tag")]
    assert table.report == before and not table.problems


def test_summary_says_where_the_game_stands():
    game = Nimmt()
    table = seed_table()
    table.play(SEED_TURNS[0])
    table.play(SEED_TURNS[1])
    keys = [e.key for e in game.summary(table.state)]
    assert keys[0] == "take_row.ask" and keys.count("row.reading") == 4
    table.field("row-2")
    table.field(45)
    assert [(e.key, dict(e.params)) for e in game.summary(table.state)] == [("choose.still", {"count": 3})]
    assert all(e.to == SPEAKER for e in game.summary(Session(game).state))
