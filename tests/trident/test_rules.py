"""One test (or a few) per section of the contract, spec/trident-rules.md, named after its section."""

from __future__ import annotations

from trident_table import Table, hands_with

from kikimimi.games.base import Alert, GameOver, Referee, Say
from kikimimi.games.session import Session
from kikimimi.games.trident.engine import Trident
from kikimimi.games.trident.pieces import CONTROLS, PIECES, PieceClass
from kikimimi.games.trident.state import IN_BASKET
from kikimimi.voice.catalog import catalog


def empty_basket_to(t: Table, left: int, seat: int = 3) -> None:
    """Referee corrections that move basket pieces into a seat's hand until `left` remain."""
    for piece in sorted(t.state.basket()):
        if t.state.basket_count <= left:
            break
        t.referee("move", piece=piece, to=f"hand:{seat}")
    assert t.state.basket_count == left


# -- Pieces (54) and canonical ids ---------------------------------------------------------------


def test_pieces_54_with_classes_and_competition_points():
    assert len(PIECES) == 54
    by_class: dict[PieceClass, int] = {}
    for piece in PIECES.values():
        by_class[piece.cls] = by_class.get(piece.cls, 0) + 1
    assert by_class == {PieceClass.BASIC: 32, PieceClass.CHANGE: 12, PieceClass.ATTACK: 5,
                        PieceClass.SPECIAL1: 1, PieceClass.SPECIAL2: 4}
    assert [PIECES[f"{s}-8"].points for s in ("heart", "diamond", "spade", "clover")] == [1, 2, 3, 5]
    assert PIECES["change-clover-3"].points == 10
    assert PIECES["draw2-2"].points == 30 and PIECES["draw4-3"].points == 50
    assert PIECES["change-draw4"].points == 100 and PIECES["unknown-turn-left"].points == 10
    assert "heart-9" not in PIECES and "draw2-3" not in PIECES and "draw4-4" not in PIECES


def test_control_tags_are_not_pieces():
    assert set(CONTROLS) == {"ctl-pass", "ctl-trident", "ctl-heart", "ctl-diamond", "ctl-spade", "ctl-clover"}
    assert not set(CONTROLS) & set(PIECES)


# -- What is spoken where ---------------------------------------------------------------------------


def test_spoken_where_hand_tap_is_private_and_unknown_stays_hidden(table):
    table.hand_tap(1, "heart-1")
    assert table.says() == [Say("hand:1", "piece.heart")]
    table.hand_tap(2, "unknown-turn-right")
    assert table.says() == [Say("hand:2", "piece.unknown")]


def test_spoken_where_field_play_reveals_unknown_on_the_speaker():
    t = Table()
    t.start(hands_with(s1=["unknown-change-spade", "heart-1", "heart-2", "spade-1", "clover-1"]))
    t.field_tap("unknown-change-spade")
    assert t.says()[:1] == [Say("speaker", "play.next", {"piece": "unknown-change-spade", "seat": 2})]
    assert t.state.required == "spade"


def test_the_privacy_check_catches_a_play_phrase_for_a_hand_tap():
    from kikimimi.games.base import Scan
    from kikimimi.games.trident.invariants import check_privacy

    hand_tap = Scan("hand:1", "heart-1")
    for say in (Say("speaker", "play.next", {"piece": "heart", "seat": 2}),
                Say("speaker", "play.attacked", {"attack": "draw2", "seat": 2, "count": 2}),
                Say("speaker", "play.turned", {"turn": "unknown-turn-right", "seat": 2, "suit": "heart"})):
        assert check_privacy(hand_tap, [say]), say  # a piece named on the speaker for a hand tap
        assert not check_privacy(Scan("field", "heart-1"), [say])


def test_spoken_where_unknown_tag_answers_on_that_readers_output(table):
    effects = table.hand_tap(2, None)  # type: ignore[arg-type]
    assert [e for e in effects if isinstance(e, Say)] == [Say("hand:2", "tap.unknown_tag")]
    assert any(isinstance(e, Alert) and e.key == "tag.unknown" for e in effects)


# -- Phases: deal ------------------------------------------------------------------------------------


def test_deal_sixth_piece_is_refused_privately(table):
    table.deal({1: ["heart-1", "heart-2", "heart-3", "heart-4", "heart-5"]})
    before = table.state
    table.hand_tap(1, "heart-6")
    assert table.says() == [Say("hand:1", "deal.full")]
    assert table.state.hands == before.hands


def test_deal_field_tap_before_the_deal_is_complete_is_refused(table):
    table.hand_tap(1, "heart-1")
    table.field_tap("heart-8")
    assert table.said() == ["deal.not_complete"]
    assert table.state.field == () and table.state.phase == "deal"


def test_deal_complete_moves_to_start_with_the_first_player():
    t = Table(first=2)
    t.deal()
    assert t.state.phase == "start" and t.state.turn == 2
    assert Say("speaker", "deal.complete", {"seat": 2}) in t.says()


# -- Phases: start --------------------------------------------------------------------------------------


def test_start_basic_piece_sets_the_required_kind(table):
    table.start(piece="spade-8")
    assert table.state.phase == "turn" and table.state.required == "spade" and table.state.turn == 1
    assert table.state.field == ("spade-8",)


def test_start_change_piece_sets_its_suit(table):
    table.start(piece="change-diamond-1")
    assert table.state.required == "diamond"


def test_start_attack_or_special_piece_is_redone(table):
    table.deal()
    for piece in ("draw2-1", "change-draw4", "unknown-change-clover", "draw4-2"):
        table.field_tap(piece)
        assert table.state.phase == "start" and table.state.required is None
        assert "start.redo" in table.said()
    table.field_tap("clover-8")
    assert table.state.field == ("draw2-1", "change-draw4", "unknown-change-clover", "draw4-2", "clover-8")
    assert table.state.required == "clover" and table.state.pending == 0


def test_start_piece_from_a_hand_is_refused_without_penalty(table):
    table.deal()
    table.field_tap("heart-1")
    assert table.said() == ["start.from_basket"]
    assert table.state.phase == "start" and not table.state.penalties and "heart-1" in table.state.hand(1)


# -- A turn ------------------------------------------------------------------------------------------------


def test_turn_basic_of_the_required_kind_is_legal_and_the_turn_passes(table):
    table.start()  # heart
    table.field_tap("heart-1")
    assert table.state.turn == 2 and "heart-1" in table.state.field and "heart-1" not in table.state.hand(1)
    assert table.says() == [Say("speaker", "play.next", {"piece": "heart", "seat": 2})]  # one phrase a play


def test_turn_basic_of_another_kind_is_a_wrong_play(table):
    table.start()  # heart
    table.field_tap("spade-1")
    assert table.state.penalties == ((1, "wrong_play"),)
    assert table.state.phase == "drawing" and table.state.owed == 2 and table.state.drawer == 1
    assert "spade-1" in table.state.hand(1)


def test_turn_any_non_basic_piece_is_legal_whatever_the_kind():
    t = Table()
    t.start(hands_with(s1=["change-clover-1", "draw2-1", "spade-1", "diamond-1", "clover-1"]))
    t.field_tap("change-clover-1")
    assert t.state.required == "clover" and t.state.turn == 2 and not t.state.penalties


def test_turn_out_of_turn_play_is_that_seats_wrong_play(table):
    table.start()
    table.field_tap("heart-3")  # seat 2's piece in seat 1's turn
    assert table.state.penalties == ((2, "wrong_play"),)
    assert table.state.drawer == 2
    table.hand_tap(2, "heart-7")
    table.hand_tap(2, "spade-8")
    assert table.state.phase == "turn" and table.state.turn == 1  # seat 1's turn as before


def test_turn_around_right_hands_go_to_the_left_neighbour():
    t = Table()
    t.start(hands_with(s1=["unknown-turn-right", "heart-1", "heart-2", "spade-1", "clover-1"]))
    before = {s: t.state.hand(s) for s in (1, 2, 3)}
    t.field_tap("unknown-turn-right")
    assert t.state.hand(2) == before[1] - {"unknown-turn-right"}
    assert t.state.hand(3) == before[2] and t.state.hand(1) == before[3]
    assert t.state.required == "heart" and t.state.turn == 2
    assert t.says() == [Say("speaker", "play.turned", {"turn": "unknown-turn-right", "seat": 2, "suit": "heart"})]
    assert "left" in catalog("en", "trident").render("play.turned", t.says()[0].params).text  # what it does


def test_turn_around_left_hands_go_to_the_right_neighbour():
    t = Table()
    t.start(hands_with(s2=["unknown-turn-left", "heart-3", "heart-4", "spade-2", "clover-2"]))
    t.field_tap("heart-1")
    before = {s: t.state.hand(s) for s in (1, 2, 3)}
    t.field_tap("unknown-turn-left")
    assert t.state.hand(1) == before[2] - {"unknown-turn-left"}
    assert t.state.hand(3) == before[1] and t.state.hand(2) == before[3]
    assert t.state.turn == 3


def test_turn_draw_then_play_the_drawn_piece(table):
    table.start()
    table.hand_tap(1, "heart-7")  # a draw, although heart-1 is legal: allowed
    assert table.state.drew == "heart-7" and table.says() == [Say("hand:1", "piece.heart")]
    table.field_tap("heart-7")
    assert table.state.turn == 2 and "heart-7" in table.state.field


def test_turn_after_a_draw_only_the_drawn_piece_may_be_played(table):
    table.start()
    table.hand_tap(1, "heart-7")
    table.field_tap("heart-1")
    assert table.state.penalties == ((1, "wrong_play"),)


def test_turn_draw_then_pass(table):
    table.start()
    table.hand_tap(1, "spade-7")
    table.hand_tap(1, "ctl-pass")
    assert table.state.turn == 2 and "spade-7" in table.state.hand(1)
    assert table.says() == [Say("speaker", "pass.next", {"seat": 2, "suit": "heart"})]


def test_turn_pass_without_a_draw_is_refused_privately(table):
    table.start()
    before = table.state
    table.hand_tap(1, "ctl-pass")
    assert table.says() == [Say("hand:1", "pass.draw_first")]
    assert table.state == before


def test_turn_second_draw_is_refused(table):
    table.start()
    table.hand_tap(1, "spade-7")
    table.hand_tap(1, "spade-8")
    assert table.says() == [Say("hand:1", "draw.second")]
    assert "spade-8" not in table.state.hand(1)


def test_turn_basket_piece_on_the_field_is_a_draw_played_at_once(table):
    table.start()
    table.field_tap("heart-7")  # never seen in a hand: drawn and played
    assert table.state.turn == 2 and "heart-7" in table.state.field and not table.state.penalties
    table.field_tap("diamond-7")  # seat 2 draws it and plays it: wrong kind
    assert table.state.penalties == ((2, "wrong_play"),) and "diamond-7" in table.state.hand(2)


def test_turn_basket_piece_on_the_field_after_a_draw_is_refused(table):
    table.start()
    table.hand_tap(1, "spade-7")
    table.field_tap("heart-7")
    assert table.said() == ["tap.from_basket"] and "heart-7" not in table.state.field


# -- Hand-reader taps outside a draw ------------------------------------------------------------------------


def test_hand_taps_own_piece_is_spoken_again(table):
    table.start()
    before = table.state
    table.hand_tap(2, "heart-3")
    assert table.says() == [Say("hand:2", "piece.heart")] and table.state == before


def test_hand_taps_basket_piece_when_not_drawing_is_put_back(table):
    table.start()
    table.hand_tap(2, "heart-7")
    assert table.says() == [Say("hand:2", "tap.put_back")] and "heart-7" not in table.state.hand(2)


def test_hand_taps_another_seats_piece_alerts_the_referee(table):
    table.start()
    before = table.state
    table.hand_tap(2, "heart-1")
    assert table.says() == [Say("hand:2", "tap.not_yours")]
    alerts = [e for e in table.effects if isinstance(e, Alert)]
    assert alerts and alerts[0].key == "piece.foreign_hand" and alerts[0].params["owner"] == 1
    assert table.state == before


# -- Attacks (rule 7) --------------------------------------------------------------------------------------------


def attack_hands() -> dict[int, list[str]]:
    return hands_with(
        s1=["draw2-1", "heart-1", "heart-2", "change-draw4", "clover-1"],
        s2=["draw4-1", "heart-3", "heart-4", "unknown-change-spade", "clover-2"],
        s3=["draw4-2", "heart-5", "heart-6", "spade-3", "clover-3"],
    )


def test_attacks_draw2_makes_a_pending_draw_for_the_next_seat():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    assert t.state.turn == 2 and t.state.pending == 2
    assert Say("speaker", "play.attacked", {"attack": "draw2", "seat": 2, "count": 2}) in t.says()  # one phrase


def test_attacks_stack_and_pass_the_total_on():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    t.field_tap("draw4-1")
    assert t.state.turn == 3 and t.state.pending == 6
    t.field_tap("draw4-2")
    assert t.state.turn == 1 and t.state.pending == 10


def test_attacks_unknown_answers_with_zero_and_keeps_its_effect():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    t.field_tap("unknown-change-spade")
    assert t.state.turn == 3 and t.state.pending == 2 and t.state.required == "spade"


def test_attacks_basic_or_change_against_a_pending_draw_is_a_wrong_play():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    t.field_tap("heart-3")
    assert t.state.penalties == ((2, "wrong_play"),)
    t.hand_tap(2, "heart-7")
    t.hand_tap(2, "spade-8")
    assert t.state.phase == "turn" and t.state.turn == 2 and t.state.pending == 2  # as before


def test_attacks_accepted_by_the_first_draw():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    t.hand_tap(2, "spade-7")
    assert t.state.phase == "drawing" and t.state.owed == 1 and t.state.pending == 0
    assert "pending.accepted" in t.said()
    t.hand_tap(2, "spade-8")
    assert t.state.phase == "turn" and t.state.turn == 3 and len(t.state.hand(2)) == 7


def test_attacks_accepted_by_a_pass():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    t.hand_tap(2, "ctl-pass")
    assert t.state.phase == "drawing" and t.state.drawer == 2 and t.state.owed == 2
    t.hand_tap(2, "spade-7")
    t.hand_tap(2, "spade-8")
    assert t.state.turn == 3


def test_attacks_change_draw4_waits_for_its_players_suit():
    t = Table()
    t.start(attack_hands())
    t.field_tap("change-draw4")
    assert t.state.phase == "choose_suit" and t.state.turn == 1 and t.state.pending == 4
    t.field_tap("heart-3")
    assert t.said() == ["choose_suit.wait"] and not t.state.penalties
    t.hand_tap(2, "ctl-diamond")
    assert t.says() == [Say("hand:2", "control.not_now")] and t.state.phase == "choose_suit"
    t.hand_tap(1, "ctl-diamond")
    assert t.state.required == "diamond" and t.state.turn == 2 and t.state.pending == 4


def test_attacks_change_draw4_suit_tag_on_the_field_reader():
    t = Table()
    t.start(attack_hands())
    t.field_tap("change-draw4")
    t.field_tap("ctl-clover")
    assert t.state.required == "clover" and t.state.phase == "turn" and t.state.turn == 2


# -- Drawing is blocking ------------------------------------------------------------------------------------------


def test_drawing_blocks_field_taps_and_other_seats():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    t.hand_tap(2, "ctl-pass")
    before = t.state
    t.field_tap("heart-5")
    assert t.says() == [Say("speaker", "drawing.wait", {"seat": 2, "count": 2})] and t.state == before
    t.hand_tap(3, "spade-7")
    assert t.says() == [Say("hand:3", "tap.put_back")] and t.state == before
    t.hand_tap(2, "ctl-pass")
    assert t.says() == [Say("hand:2", "draw.keep_drawing", {"count": 2})]


# -- Penalties ------------------------------------------------------------------------------------------------------


def test_penalty_wrong_play_returns_the_turn_as_it_was(table):
    table.start()
    table.hand_tap(1, "spade-7")  # drew
    table.field_tap("spade-7")  # wrong kind
    table.hand_tap(1, "diamond-7")
    table.hand_tap(1, "diamond-8")
    s = table.state
    assert s.phase == "turn" and s.turn == 1 and s.drew == "spade-7" and len(s.hand(1)) == 8
    table.hand_tap(1, "ctl-pass")  # the draw still counts: the pass is allowed
    assert table.state.turn == 2


def declared_hands() -> dict[int, list[str]]:
    return hands_with(s1=["heart-1", "heart-2", "draw2-1", "spade-1", "clover-1"])


def test_penalty_declaration_only_with_one_or_two_pieces(table):
    table.start()
    table.hand_tap(1, "ctl-trident")
    assert table.says() == [Say("hand:1", "declare.refused")] and not table.state.declared[0]


def go_down_to(t: Table, seat: int, keep: list[str]) -> None:
    """Referee corrections that put a seat's other pieces back in the basket."""
    for piece in sorted(t.state.hand(seat) - set(keep)):
        t.referee("move", piece=piece, to="basket")


def test_penalty_declared_seat_goes_out_and_wins(table):
    table.start()
    go_down_to(table, 1, ["heart-1"])
    table.hand_tap(1, "ctl-trident")
    assert table.said() == ["declare.trident"] and table.state.declared[0]
    table.field_tap("heart-1")
    assert table.state.phase == "over"
    result = table.state.result
    assert result.winner == 1 and result.ranking[0] == 1
    assert any(isinstance(e, GameOver) for e in table.effects)


def test_penalty_no_declaration_the_play_stands_and_the_seat_owes_two(table):
    table.start()
    go_down_to(table, 1, ["heart-1"])
    table.field_tap("heart-1")
    s = table.state
    assert s.phase == "drawing" and s.drawer == 1 and s.owed == 2 and "heart-1" in s.field
    assert s.penalties == ((1, "no_declaration"),)
    table.hand_tap(1, "spade-7")
    table.hand_tap(1, "spade-8")
    assert table.state.phase == "turn" and table.state.turn == 2  # as after any play


def test_penalty_declaration_lapses_when_the_count_goes_up(table):
    table.start()
    go_down_to(table, 1, ["heart-1", "heart-2"])
    table.hand_tap(1, "ctl-trident")
    assert table.state.declared[0]
    table.hand_tap(1, "spade-7")  # a draw
    assert not table.state.declared[0]


def test_penalty_declaration_lapses_on_a_returned_wrong_play(table):
    table.start()
    go_down_to(table, 1, ["heart-1", "spade-1"])
    table.hand_tap(1, "ctl-trident")
    table.field_tap("spade-1")
    assert not table.state.declared[0]


def test_penalty_declaration_lapses_when_a_turn_around_brings_more():
    t = Table()
    t.start(hands_with(s3=["unknown-turn-left", "heart-5", "heart-6", "spade-3", "clover-3"]))
    go_down_to(t, 2, ["heart-3"])
    t.hand_tap(2, "ctl-trident")
    t.field_tap("heart-1")  # seat 1 -> seat 2
    t.hand_tap(2, "spade-7")  # seat 2 draws (2 pieces now)
    t.hand_tap(2, "ctl-trident")
    t.hand_tap(2, "ctl-pass")
    assert t.state.declared[1] and t.state.turn == 3
    t.field_tap("unknown-turn-left")  # seat 3's 4 pieces go to seat 2
    assert len(t.state.hand(2)) == 4 and not t.state.declared[1]


def test_penalty_last_piece_must_be_basic(table):
    table.start()
    table.referee("move", piece="draw2-1", to="hand:1")
    go_down_to(table, 1, ["draw2-1"])
    table.hand_tap(1, "ctl-trident")
    table.field_tap("draw2-1")
    assert table.state.penalties == ((1, "wrong_play"),) and "draw2-1" in table.state.hand(1)


# -- End of the game -------------------------------------------------------------------------------------------------


def test_end_crash_when_accepting_a_pending_draw_the_basket_cannot_cover():
    t = Table()
    t.start(attack_hands())
    t.field_tap("draw2-1")
    empty_basket_to(t, 1)
    t.hand_tap(2, "ctl-pass")
    r = t.state.result
    assert t.state.phase == "over" and r.details["crashed"] == 2 and r.ranking[-1] == 2 and r.winner is None
    assert t.state.basket_count == 1  # nothing was drawn


def test_end_crash_when_a_penalty_is_given_and_the_basket_is_short(table):
    table.start()
    empty_basket_to(table, 1)
    table.field_tap("spade-1")
    assert table.state.result.details["crashed"] == 1


def test_end_crash_on_a_pass_with_no_draw_and_an_empty_basket(table):
    table.start()
    empty_basket_to(table, 0)
    table.hand_tap(1, "ctl-pass")
    assert table.state.result.details["crashed"] == 1 and table.said()[0] == "game.crash"


def test_end_ranking_standard_ties_go_to_the_earlier_seat_from_the_first_player():
    t = Table(first=2)
    t.start()
    t.referee("end")
    assert t.state.result.ranking == (2, 3, 1)  # all hold 5: play order counted from seat 2


def test_end_ranking_crash_is_last_and_the_tie_rule_holds():
    t = Table(first=2)
    t.start()
    for index, piece in enumerate(sorted(t.state.basket())):  # share the basket out evenly
        t.referee("move", piece=piece, to="hand:1" if index % 2 else "hand:3")
    assert len(t.state.hand(1)) == len(t.state.hand(3)) and t.state.basket_count == 0
    t.hand_tap(2, "ctl-pass")
    assert t.state.result.ranking == (3, 1, 2)


def ranking_after_seat_1_goes_out(rules: str) -> tuple[int, ...]:
    t = Table(rules=rules)
    t.start(hands_with(
        s2=["heart-3", "heart-4", "draw4-1", "diamond-2", "clover-2"],  # 5 pieces, 59 points
        s3=["heart-5", "heart-6", "spade-3", "diamond-3", "clover-3"],  # 12 points
    ))
    t.referee("move", piece="heart-7", to="hand:3")
    t.referee("move", piece="diamond-8", to="hand:3")  # seat 3: 7 pieces, 15 points
    go_down_to(t, 1, ["heart-1"])
    t.hand_tap(1, "ctl-trident")
    t.field_tap("heart-1")
    assert t.state.result.scores == {1: 0, 2: 59, 3: 15} and t.state.result.details["pieces"] == {1: 0, 2: 5, 3: 7}
    return t.state.result.ranking


def test_end_ranking_standard_by_fewest_pieces():
    assert ranking_after_seat_1_goes_out("standard") == (1, 2, 3)


def test_competition_rules_rank_by_fewest_points():
    assert ranking_after_seat_1_goes_out("competition") == (1, 3, 2)


def test_end_after_the_game_taps_change_nothing(table):
    table.start()
    table.referee("end")
    before = table.state
    table.field_tap("heart-2")
    assert table.said() == ["game.over"] and table.state == before


# -- The "everyone forgot" procedure ----------------------------------------------------------------------------------


def test_forgot_a_basket_piece_sets_the_kind_and_the_turn_stays(table):
    table.start()
    table.field_tap("heart-1")  # seat 2 to move
    table.referee("forgot")
    assert table.state.phase == "start" and table.state.turn == 2
    table.field_tap("draw4-3")  # attack: redo, no pending
    assert table.state.phase == "start" and table.state.pending == 0
    table.field_tap("clover-8")
    assert table.state.phase == "turn" and table.state.turn == 2 and table.state.required == "clover"


def test_declaration_is_valid_during_the_restart_after_everyone_forgot(table):
    # Contract, Clarifications: from the start on, the restart after "everyone forgot" included.
    table.start()
    go_down_to(table, 2, ["diamond-1", "diamond-2"])
    table.field_tap("heart-1")  # seat 2 to move
    table.referee("forgot")
    assert table.state.phase == "start"
    table.hand_tap(2, "ctl-trident")
    assert table.said() == ["declare.trident"] and table.state.declared[1]


def test_declaration_is_refused_privately_during_the_deal(table):
    table.hand_tap(1, "heart-1")
    table.hand_tap(1, "ctl-trident")
    assert table.says() == [Say("hand:1", "control.not_now")] and not table.state.declared[0]


def test_forgot_is_refused_outside_a_turn(table):
    table.deal()
    table.referee("forgot")
    assert table.said() == ["referee.refused"] and table.state.phase == "start"


# -- Undo (a referee action) --------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_input_event():
    session = Session(Trident())
    for piece in ["heart-1", "heart-2"]:
        session.feed(Referee("move", {"piece": piece, "to": "hand:1"}))
    before = session.state
    session.feed(Referee("move", {"piece": "spade-1", "to": "hand:1"}))
    effects = session.feed(Referee("undo"))
    assert session.state == before and len(session.events) == 2
    assert Say("speaker", "referee.undone") in effects
    session.feed(Referee("undo"))
    session.feed(Referee("undo"))
    assert session.feed(Referee("undo"))[0] == Say("speaker", "referee.nothing_to_undo")
    assert session.state.where("heart-1") == IN_BASKET


def test_referee_penalty_and_unknown_action():
    t = Table()
    t.start()
    t.referee("penalty", seat=3)
    assert t.state.penalties == ((3, "wrong_play"),) and t.state.drawer == 3
    t.hand_tap(3, "spade-7")
    t.hand_tap(3, "spade-8")
    t.referee("shuffle")
    assert t.said() == ["referee.refused"]


def test_the_registry_plays_the_engine_class_itself_with_its_capabilities():
    """The Trident's hooks are declared on its engine class, as every other game's: its loader makes no subclass."""
    from kikimimi.games.registry import get_info
    from kikimimi.games.trident import invariants, ladder

    info = get_info("trident")
    assert type(info.game) is Trident
    assert Trident.ladder is ladder.LADDER and Trident.privacy is invariants.privacy_leaks
    assert info.invariant_check() is not None and info.privacy_check() is not None and "bot" in info.roster()
