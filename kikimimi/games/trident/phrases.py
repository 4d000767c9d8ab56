"""Every phrase key the Trident engine can emit, with its parameters.

The catalogs (`voices/catalog/trident.{ja,en}.toml`) must define each of these with exactly these
parameters; a test fails when one is missing in either language.
"""

from __future__ import annotations

from typing import Any

from kikimimi.games.trident.pieces import KINDS


def piece_key(kind: str) -> str:
    return f"piece.{kind}"


PIECE_HIDDEN = "piece.unknown"  # an Unknown piece on a hand reader: its effect stays hidden
# One phrase per ordinary play, so the speaker keeps up with a tap every second or two: the piece (its name
# says the required kind: a basic piece, a change, an Unknown change) and the seat to move; a pass and the
# seat to move with the kind.
PLAY_NEXT = "play.next"
PASS_NEXT = "pass.next"

PHRASES: dict[str, tuple[str, ...]] = {
    **{piece_key(kind): () for kind in KINDS},
    PIECE_HIDDEN: (),
    # deal and start
    "deal.full": (),
    "deal.not_complete": (),
    "deal.complete": ("seat",),
    "start.from_basket": (),
    "start.redo": ("seat",),
    "start.ask": ("seat",),
    # taps that change nothing
    "tap.unknown_tag": (),
    "tap.on_field": (),
    "tap.put_back": (),
    "tap.not_yours": (),
    "tap.from_basket": (),
    "control.not_now": (),
    "control.on_hand_reader": (),
    # play
    PLAY_NEXT: ("piece", "seat"),
    "play.attacked": ("attack", "seat", "count"),  # Draw 2/4 or an Unknown change passing an attack on
    "play.choose": ("seat",),  # the Change Draw 4, and its player is asked for the suit
    "play.turned": ("turn", "seat", "suit"),  # an Unknown turn-around: the piece, what it does, the turn
    "play.turned_attacked": ("turn", "seat", "count"),  # ... passing an attack on
    "effect.required": ("suit",),  # no longer said after a play (its piece names the kind); kept for the console
    "turn.next": ("seat", "suit"),
    "turn.attacked": ("seat", "count"),
    "choose_suit.ask": ("seat",),
    "choose_suit.done": ("suit", "seat", "count"),  # the kind chosen, and the next seat under attack
    "choose_suit.wait": ("seat",),
    PASS_NEXT: ("seat", "suit"),
    "pass.draw_first": (),
    "pass.not_your_turn": (),
    "draw.second": (),
    "draw.owed": ("seat", "count"),
    "draw.keep_drawing": ("count",),
    "drawing.wait": ("seat", "count"),
    "pending.accepted": ("seat", "count"),
    "declare.trident": ("seat",),
    "declare.refused": (),
    "declare.already": (),
    # penalties and the end
    "penalty.wrong_play": ("seat",),
    "penalty.no_declaration": ("seat",),
    "game.out": ("suit", "first", "second", "third"),  # the last piece (basic) and the ranking
    "game.crash": ("first", "second", "third"),  # the crash of the last seat, with the ranking
    "game.ended": (),
    "game.ranking": ("first", "second", "third"),
    "game.over": (),
    # referee
    "referee.forgot": ("seat",),
    "referee.refused": (),
    "referee.undone": (),
    "referee.nothing_to_undo": (),
}


def tag_phrase(tag_id: str, role: str) -> tuple[str, dict[str, Any]]:
    """How bring-up names one of the Trident's tags on a reader (an Unknown is only "Unknown" on a hand
    reader: its effect is a secret until played)."""
    from kikimimi.games.base import seat_of
    from kikimimi.games.trident.pieces import CTL_PASS, CTL_SUIT, CTL_TRIDENT, PIECES

    piece = PIECES.get(tag_id)
    if piece is not None:
        if piece.is_unknown and seat_of(role) is not None:
            return PIECE_HIDDEN, {}
        return piece_key(piece.kind), {}
    if tag_id == CTL_PASS:
        return "bringup.control_pass", {}
    if tag_id == CTL_TRIDENT:
        return "bringup.control_trident", {}
    if tag_id in CTL_SUIT:
        return "bringup.control_suit", {"suit": CTL_SUIT[tag_id]}
    return "bringup.unknown_tag", {}
