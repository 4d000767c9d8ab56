"""The Trident rules engine: `apply(state, event) -> (state, effects)`, pure.

Every rule here is a section of `docs/rules/trident.md`; tests are named after those sections. A
refusal is a spoken phrase, never an exception: `apply` never raises on any event.

Two layers share one set of rules. The tap layer (`apply`) works out what a tap means (a draw, a
play, a wrong play, a refusal) and says it; the moves below it (`draw`, `play`, `start_piece`,
`pass_turn`, `declare`, `choose_suit`) change the state and take `fx=None` when nobody listens:
the bots' look-ahead plays whole games through them in place, without taps or phrases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kikimimi.games.base import (
    FIELD,
    SPEAKER,
    Alert,
    Effect,
    Event,
    GameEngine,
    GameOver,
    Outcome,
    Referee,
    Say,
    SetupError,
    hand,
)
from kikimimi.games.ladder import AnyLadder
from kikimimi.games.trident import INFO
from kikimimi.games.trident import invariants as trident_invariants
from kikimimi.games.trident import ladder as trident_ladder
from kikimimi.games.trident.phrases import PASS_NEXT, PIECE_HIDDEN, PLAY_NEXT, piece_key
from kikimimi.games.trident.pieces import (
    ANSWERS_MASK,
    BIT,
    CONTROL_SET,
    CTL_PASS,
    CTL_SUIT,
    CTL_TRIDENT,
    KINDS,
    NON_BASIC_MASK,
    PIECES,
    STARTS_MASK,
    SUIT_MASK,
    SUITS,
    Piece,
    ids_of,
)
from kikimimi.games.trident.state import (
    CHOOSE_SUIT,
    DEAL,
    DRAWING,
    HAND_SIZE,
    IN_BASKET,
    ON_FIELD,
    OVER,
    RESUME_NEXT,
    RESUME_SAME,
    SEATS,
    START,
    TURN,
    TridentState,
    next_seat,
    previous_seat,
)

RULES = ("standard", "competition")
READERS = (FIELD, *(hand(seat) for seat in SEATS))
_OUTPUT_OF = {FIELD: SPEAKER, **{hand(seat): hand(seat) for seat in SEATS}}
_SEAT_OF = {hand(seat): seat for seat in SEATS}
_HAND_OUT: tuple[str, ...] = ("", *(hand(seat) for seat in SEATS))  # seat -> its earphone, formatted once
PENALTY_DRAWS = 2


_NAME_KEY = {kind: piece_key(kind) for kind in KINDS}


def name_key(piece: Piece, private: bool) -> str:
    """What a piece is called: an Unknown is only "Unknown" on a hand reader."""
    return PIECE_HIDDEN if private and piece.is_unknown else _NAME_KEY[piece.kind]


# The phrases said on almost every event, made once: effects are immutable values, so they can be shared,
# and the engine's speed target (thousands of games a second) counts every allocation.
_NAME_SAY = {(out, piece.id): Say(out, name_key(piece, out != SPEAKER)) for out in _OUTPUT_OF.values()
             for piece in PIECES.values()}
# A play whose piece names the required kind (a basic piece, a change, an Unknown change) and leaves no draw
# pending is said in one phrase with the seat to move: "heart, seat 2" (the players' own shorthand).
_PLAY_NEXT = {(piece.kind, seat): Say(SPEAKER, PLAY_NEXT, {"piece": piece.kind, "seat": seat})
              for piece in PIECES.values() if piece.suit is not None for seat in SEATS}
_PASS_NEXT = {(seat, suit): Say(SPEAKER, PASS_NEXT, {"seat": seat, "suit": suit}) for seat in SEATS
              for suit in SUITS}
_TURN_NEXT = {(seat, suit): Say(SPEAKER, "turn.next", {"seat": seat, "suit": suit}) for seat in SEATS
              for suit in SUITS}
_CHANGE_DRAW4 = "change-draw4"


class Trident(GameEngine[TridentState]):
    """The Trident for three seats (its own `apply` whole: the engine's speed is counted per event)."""

    entry = INFO  # tags and seats: the registration's pieces, controls and seats

    ladder: ClassVar[AnyLadder | None] = trident_ladder.LADDER
    privacy = staticmethod(trident_invariants.privacy_leaks)

    def invariants(self, before: TridentState, event: Event, effects: Sequence[Effect],
                   after: TridentState) -> list[str]:
        return trident_invariants.check(after, event, effects)  # its check reads the state after only

    def initial(self, setup: Mapping[str, Any] | None = None) -> TridentState:
        setup = setup or {}
        first = setup.get("first", 1)
        rules = setup.get("rules", "standard")
        if first not in SEATS:
            raise SetupError(f"first player must be 1, 2 or 3, not {first!r}")
        if rules not in RULES:
            raise SetupError(f"rules must be one of {', '.join(RULES)}, not {rules!r}")
        return TridentState(rules=rules, first=first)

    def apply(self, state: TridentState, event: Event) -> tuple[TridentState, list[Effect]]:
        s = state.copy()
        fx: list[Effect] = []
        if isinstance(event, Referee):
            _referee(s, event, fx)
        else:
            _scan(s, event.reader, event.piece, event.uid, fx)
        return s, fx

    def summary(self, state: TridentState) -> list[Effect]:
        return _summary(state)


# -- legality: the one place the rule lives, shared by the engine and the bots ------------------


def legal_mask(s: TridentState, seat: int) -> int:
    """The pieces `seat` may play now, as a mask (the caller knows it is `seat`'s turn).

    After a draw only the drawn piece; against a pending draw only attack and special pieces; otherwise
    a basic piece of the required kind or any non-basic piece; never a non-basic piece as the last one.
    """
    held = s.masks[seat]
    candidates = held & s.drew_bit if s.drew_bit else held
    last = held & (held - 1) == 0  # one piece (or none)
    if s.pending:
        return 0 if last else candidates & ANSWERS_MASK
    if last:
        return candidates & SUIT_MASK[s.required]
    return candidates & (SUIT_MASK[s.required] | NON_BASIC_MASK)


def legal_plays(s: TridentState, seat: int) -> list[str]:
    """The pieces `seat` may play on the field right now (its legal actions, as OpenSpiel says)."""
    if s.phase != TURN or s.turn != seat:
        return []
    return ids_of(legal_mask(s, seat))


# -- taps --------------------------------------------------------------------------------------


def _scan(s: TridentState, reader: str, tag_id: str | None, uid: str | None, fx: list[Effect]) -> None:
    out = _OUTPUT_OF.get(reader)
    if out is None:
        fx.append(Alert("reader.unknown", {"reader": reader, "tag": tag_id}))
        return
    if tag_id is None or (tag_id not in PIECES and tag_id not in CONTROL_SET):
        fx.append(Say(out, "tap.unknown_tag"))
        fx.append(Alert("tag.unknown", {"reader": reader, "uid": uid, "tag": tag_id}))
        return
    seat = _SEAT_OF.get(reader)
    if tag_id in CONTROL_SET:
        _control(s, seat, out, tag_id, fx)
        return
    piece = PIECES[tag_id]
    if s.phase == OVER:
        private_repeat = seat is not None and s.masks[seat] & BIT[tag_id]
        fx.append(_NAME_SAY[out, piece.id] if private_repeat else Say(out, "game.over"))
    elif seat is None:
        _field_tap(s, piece, fx)
    else:
        _hand_tap(s, seat, piece, fx)


def _hand_tap(s: TridentState, seat: int, piece: Piece, fx: list[Effect]) -> None:
    out = _HAND_OUT[seat]
    owner = s.where_bit(BIT[piece.id])
    if owner == seat:
        fx.append(_NAME_SAY[out, piece.id])
    elif owner == ON_FIELD:
        fx.append(Say(out, "tap.on_field"))
    elif owner != IN_BASKET:
        fx.append(Say(out, "tap.not_yours"))
        fx.append(Alert("piece.foreign_hand", {"reader": out, "seat": seat, "owner": owner, "piece": piece.id}))
    elif not draw(s, seat, piece, fx):
        fx.append(Say(out, "deal.full" if s.phase == DEAL else
                      "draw.second" if s.phase == TURN and seat == s.turn else "tap.put_back"))


def draw(s: TridentState, seat: int, piece: Piece, fx: list[Effect] | None = None) -> bool:
    """A basket piece onto `seat`'s hand reader: a deal, a draw, or (False, nothing changed) refused."""
    phase = s.phase
    if phase == TURN:
        if seat != s.turn:
            return False
        if s.pending:
            accept_attack(s, seat, fx, first_draw=piece)
        elif s.drew_bit:
            return False
        else:
            _take(s, seat, piece, fx)
            s.drew_bit = piece.bit
    elif phase == DRAWING:
        if seat != s.drawer:
            return False
        s.masks[seat] |= piece.bit  # _take, inline: the most frequent draw
        s.declared_mask &= ~(1 << (seat - 1))
        if fx is not None:
            fx.append(_NAME_SAY[_HAND_OUT[seat], piece.id])
        s.owed -= 1
        if not s.owed:
            _resume_after_drawing(s, fx)
    elif phase == DEAL:
        held = s.masks[seat]
        if held.bit_count() >= HAND_SIZE:
            return False
        held |= piece.bit  # _take, inline: fifteen of these start every game
        s.masks[seat] = held
        s.declared_mask &= ~(1 << (seat - 1))
        if fx is not None:
            fx.append(_NAME_SAY[_HAND_OUT[seat], piece.id])
        if held.bit_count() == HAND_SIZE and _dealt(s):
            s.phase = START
            s.turn = s.first
            if fx is not None:
                fx.append(Say(SPEAKER, "deal.complete", {"seat": s.first}))
    else:
        return False
    return True


def _dealt(s: TridentState) -> bool:
    _, h1, h2, h3 = s.masks
    return h1.bit_count() == h2.bit_count() == h3.bit_count() == HAND_SIZE


def _field_tap(s: TridentState, piece: Piece, fx: list[Effect]) -> None:
    owner = s.where_bit(BIT[piece.id])
    if owner == ON_FIELD:
        fx.append(Say(SPEAKER, "tap.on_field"))
    elif s.phase == DEAL:
        fx.append(Say(SPEAKER, "deal.not_complete"))
    elif s.phase == START:
        if owner != IN_BASKET:
            fx.append(Say(SPEAKER, "start.from_basket"))
        else:
            start_piece(s, piece, fx)
    elif s.phase == DRAWING:
        fx.append(Say(SPEAKER, "drawing.wait", {"seat": s.drawer, "count": s.owed}))
    elif s.phase == CHOOSE_SUIT:
        fx.append(Say(SPEAKER, "choose_suit.wait", {"seat": s.turn}))
    else:
        _turn_play(s, piece, owner, fx)


def start_piece(s: TridentState, piece: Piece, fx: list[Effect] | None = None) -> None:
    """The start (and the "everyone forgot" restart): basket pieces until a basic or change piece."""
    s.add_to_field(piece.id)
    bit = BIT[piece.id]
    if STARTS_MASK & bit:
        s.required = piece.suit
        s.phase = TURN
        if fx is not None:
            assert s.turn is not None  # the first player, or the seat whose turn stays after "everyone forgot"
            fx.append(_PLAY_NEXT[piece.kind, s.turn])
    elif fx is not None:
        fx.append(_NAME_SAY[SPEAKER, piece.id])
        fx.append(Say(SPEAKER, "start.redo", {"seat": s.turn}))


def _turn_play(s: TridentState, piece: Piece, owner: int | str, fx: list[Effect]) -> None:
    mover = s.turn
    assert mover is not None
    bit = BIT[piece.id]
    if owner == IN_BASKET:
        if s.pending or s.drew_bit:
            fx.append(Say(SPEAKER, "tap.from_basket"))
            return
        # A piece never seen in a hand, tapped in the mover's turn before a draw: the draw, played at once.
        s.masks[mover] |= bit
        s.set_declared(mover, False)
        s.drew_bit = bit
        owner = mover
    assert isinstance(owner, int)  # the field's pieces never reach here (_field_tap answers them)
    if owner != mover:
        _wrong_play(s, owner, fx)  # out of turn: the owner's wrong play
    elif not legal_mask(s, mover) & bit:
        _wrong_play(s, mover, fx)
    else:
        play(s, mover, piece, fx)


def play(s: TridentState, seat: int, piece: Piece, fx: list[Effect] | None = None) -> None:
    """A legal play of `piece` by `seat` (the caller checked it with `legal_mask`)."""
    bit = piece.bit
    held = s.masks[seat] & ~bit
    s.masks[seat] = held
    s.field_mask |= bit  # s.add_to_field, inline: the hot path of every look-ahead game
    s.field_order = (s.field_order, piece.id)
    s.drew_bit = 0
    if piece.is_basic and held:
        s.turn = seat % 3 + 1  # _next_turn, inline
        s.phase = TURN
        if fx is not None:
            fx.append(_PLAY_NEXT[piece.kind, s.turn])  # a legal basic piece is of the required kind
        return
    if not held:
        if s.declared_mask & (1 << (seat - 1)):
            _end(s, fx, winner=seat, reason="out", last=piece)  # "heart: seat 1 is out! 2nd ..., 3rd ..."
            return
        # The play stands; the seat owes 2 and the turn passes once they are drawn.
        s.penalties += ((seat, "no_declaration"),)
        if fx is not None:
            fx.append(_NAME_SAY[SPEAKER, piece.id])
            fx.append(Say(SPEAKER, "penalty.no_declaration", {"seat": seat}))
        _owe(s, seat, PENALTY_DRAWS, RESUME_NEXT, fx, said=True)
        return
    if piece.suit is not None:
        s.required = piece.suit
    if piece.turn:
        _turn_around(s, piece.turn)
    s.pending += piece.draw  # an answer to an attack passes the total on, plus its own draw
    if piece.kind == _CHANGE_DRAW4:
        s.phase = CHOOSE_SUIT
        if fx is not None:
            fx.append(Say(SPEAKER, "play.choose", {"seat": seat}))  # the piece, and "seat N, choose a suit"
        return
    _next_turn(s, None)
    if fx is not None:
        fx.append(_play_phrase(s, piece))


def _play_phrase(s: TridentState, piece: Piece) -> Say:
    """A non-basic play and its effect with the seat to move, in one phrase (the turn has passed)."""
    if piece.turn:  # an Unknown turn-around: what it does is said with its name
        if s.pending:
            return Say(SPEAKER, "play.turned_attacked", {"turn": piece.kind, "seat": s.turn, "count": s.pending})
        return Say(SPEAKER, "play.turned", {"turn": piece.kind, "seat": s.turn, "suit": s.required})
    if s.pending:  # Draw 2, Draw 4, or an Unknown change passing an attack on: the piece names its effect
        return Say(SPEAKER, "play.attacked", {"attack": piece.kind, "seat": s.turn, "count": s.pending})
    assert s.turn is not None
    return _PLAY_NEXT[piece.kind, s.turn]  # a change: its name says the new kind


def _turn_around(s: TridentState, direction: int) -> None:
    """Every seat hands its whole hand to its left (+1) or right (-1) neighbour, at once."""
    receiver = next_seat if direction > 0 else previous_seat
    old = s.masks
    new = [0, 0, 0, 0]
    for seat in SEATS:
        new[receiver(seat)] = old[seat]
    s.masks = new
    for seat in SEATS:
        if new[seat].bit_count() > old[seat].bit_count():
            s.set_declared(seat, False)


def _next_turn(s: TridentState, fx: list[Effect] | None) -> None:
    s.turn = s.turn % 3 + 1  # type: ignore[operator]  # a turn under way has its seat: no None test on this hot path
    s.drew_bit = 0
    s.phase = TURN
    if fx is not None:
        fx.append(_turn_phrase(s))


def _turn_phrase(s: TridentState) -> Say:
    if s.pending:
        return Say(SPEAKER, "turn.attacked", {"seat": s.turn, "count": s.pending})
    assert s.turn is not None and s.required is not None  # in a turn, after the start
    return _TURN_NEXT[s.turn, s.required]


# -- drawing, attacks, penalties ----------------------------------------------------------------


def _take(s: TridentState, seat: int, piece: Piece, fx: list[Effect] | None) -> None:
    """A basket piece into a hand; its name to that seat only; a declaration lapses."""
    s.masks[seat] |= piece.bit
    s.declared_mask &= ~(1 << (seat - 1))
    if fx is not None:
        fx.append(_NAME_SAY[_HAND_OUT[seat], piece.id])


def _owe(s: TridentState, seat: int, count: int, resume: str, fx: list[Effect] | None, said: bool = False) -> None:
    """The seat must draw `count`: drawing blocks the game, or a crash if the basket is short. `said`: the
    phrase before (a penalty's) already tells the seat to draw them, so "seat N draws 2" is not repeated."""
    if s.basket_count < count:
        _end(s, fx, crashed=seat, reason="crash")
        return
    s.phase = DRAWING
    s.drawer = seat
    s.owed = count
    s.resume = resume
    if fx is not None and not said:
        fx.append(Say(SPEAKER, "draw.owed", {"seat": seat, "count": count}))


def _resume_after_drawing(s: TridentState, fx: list[Effect] | None) -> None:
    s.drawer = None
    s.phase = TURN
    if s.resume == RESUME_NEXT:
        _next_turn(s, fx)
    elif fx is not None:
        fx.append(_turn_phrase(s))


def accept_attack(s: TridentState, seat: int, fx: list[Effect] | None, first_draw: Piece | None) -> None:
    """The seat takes the pending total: by its first draw or by a pass."""
    count = s.pending
    if s.basket_count < count:
        _end(s, fx, crashed=seat, reason="crash")
        return
    s.pending = 0
    if fx is not None:
        fx.append(Say(SPEAKER, "pending.accepted", {"seat": seat, "count": count}))
    s.phase = DRAWING
    s.drawer = seat
    s.owed = count
    s.resume = RESUME_NEXT
    if first_draw is not None:
        _take(s, seat, first_draw, fx)
        s.owed -= 1
        if s.owed == 0:
            _resume_after_drawing(s, fx)


def _wrong_play(s: TridentState, seat: int, fx: list[Effect]) -> None:
    """Penalty 1: the piece goes back to the hand (it never left) and the seat owes 2."""
    s.penalties += ((seat, "wrong_play"),)
    s.set_declared(seat, False)
    fx.append(Say(SPEAKER, "penalty.wrong_play", {"seat": seat}))
    _owe(s, seat, PENALTY_DRAWS, RESUME_SAME, fx, said=True)


# -- control tags --------------------------------------------------------------------------------


def _control(s: TridentState, seat: int | None, out: str, control: str, fx: list[Effect]) -> None:
    if s.phase == OVER:
        fx.append(Say(out, "game.over"))
        return
    if control in CTL_SUIT:
        if s.phase == CHOOSE_SUIT and seat in (None, s.turn):
            choose_suit(s, CTL_SUIT[control], fx)
        else:
            fx.append(Say(out, "control.not_now"))
        return
    if seat is None:
        fx.append(Say(SPEAKER, "control.on_hand_reader"))
    elif control == CTL_TRIDENT:
        if not declare(s, seat, fx):
            fx.append(Say(out, "control.not_now" if s.phase == DEAL else
                          "declare.already" if s.declared_mask & (1 << (seat - 1)) else "declare.refused"))
    elif control == CTL_PASS:
        _pass(s, seat, out, fx)


def choose_suit(s: TridentState, suit: str, fx: list[Effect] | None = None) -> None:
    """The Change Draw 4's player names the required kind; the turn passes."""
    s.required = suit
    _next_turn(s, None)
    if fx is not None:  # one phrase: the kind, and the next seat under attack
        fx.append(Say(SPEAKER, "choose_suit.done", {"suit": suit, "seat": s.turn, "count": s.pending}))


def declare(s: TridentState, seat: int, fx: list[Effect] | None = None) -> bool:
    """A Trident declaration; False (nothing changed) where it is refused."""
    # Valid from the start on, the restart after "everyone forgot" included (contract, Clarifications).
    bit = 1 << (seat - 1)
    if s.phase == DEAL or s.declared_mask & bit or s.masks[seat].bit_count() not in (1, 2):
        return False
    s.declared_mask |= bit
    if fx is not None:
        fx.append(Say(SPEAKER, "declare.trident", {"seat": seat}))
    return True


def _pass(s: TridentState, seat: int, out: str, fx: list[Effect]) -> None:
    if s.phase == DRAWING and seat == s.drawer:
        fx.append(Say(out, "draw.keep_drawing", {"count": s.owed}))
    elif s.phase != TURN:
        fx.append(Say(out, "control.not_now"))
    elif seat != s.turn:
        fx.append(Say(out, "pass.not_your_turn"))
    elif not pass_turn(s, seat, fx):
        fx.append(Say(out, "pass.draw_first"))


def pass_turn(s: TridentState, seat: int, fx: list[Effect] | None = None) -> bool:
    """`ctl-pass` by the seat to move in its turn; False (nothing changed) before its draw."""
    if s.pending:
        accept_attack(s, seat, fx, first_draw=None)
    elif s.drew_bit:
        _next_turn(s, None)
        if fx is not None:  # one phrase: "pass; seat 3, spade" (only the seat to move may pass)
            assert s.turn is not None and s.required is not None
            fx.append(_PASS_NEXT[s.turn, s.required])
    elif s.basket_count == 0:
        _end(s, fx, crashed=seat, reason="crash")  # cannot draw: a crash
    else:
        return False
    return True


# -- the end -------------------------------------------------------------------------------------


def ranking(s: TridentState, winner: int | None = None, crashed: int | None = None) -> tuple[int, ...]:
    """Winner first, crashed last; the rest by fewest pieces (points in competition), ties to the
    seat earlier in play order counted from the game's first player."""
    by_points = s.rules == "competition"
    first = s.first
    others = sorted((s.points(seat) if by_points else s.masks[seat].bit_count(), (seat - first) % 3, seat)
                     for seat in SEATS if seat != winner and seat != crashed)
    order = [seat for _, _, seat in others]
    if winner is not None:
        order.insert(0, winner)
    if crashed is not None:
        order.append(crashed)
    return tuple(order)


def _end(s: TridentState, fx: list[Effect] | None, winner: int | None = None, crashed: int | None = None,
         reason: str = "", last: Piece | None = None) -> None:
    """The game is over; `last`: the winner's last piece (a basic one), said with the ranking in one phrase."""
    order = ranking(s, winner, crashed)
    s.result = Outcome(
        ranking=order,
        winners=(winner,) if winner is not None else (),
        scores={seat: s.points(seat) for seat in SEATS},
        reason=reason,
        details={"crashed": crashed, "pieces": {seat: s.count(seat) for seat in SEATS}},
    )
    s.phase = OVER
    s.turn = None
    s.drawer = None
    s.owed = 0
    s.pending = 0
    if fx is None:
        return
    places = dict(zip(("first", "second", "third"), order, strict=True))
    if winner is not None and last is not None:  # the last piece, the winner and the ranking, in one phrase
        fx.append(Say(SPEAKER, "game.out", {"suit": last.suit, **places}))
    elif crashed is not None:  # the crash with the ranking, in one phrase (the crashed seat is last)
        fx.append(Say(SPEAKER, "game.crash", places))
    else:
        fx.append(Say(SPEAKER, "game.ended"))
        fx.append(Say(SPEAKER, "game.ranking", places))
    fx.append(GameOver(s.result))


# -- referee actions -------------------------------------------------------------------------------


def _referee(s: TridentState, event: Referee, fx: list[Effect]) -> None:
    action, params = event.action, dict(event.params or {})
    if action == "forgot":
        if s.phase != TURN:
            _refuse(action, f"only during a turn (the game is in {s.phase})", fx)
            return
        if not s.basket_mask & STARTS_MASK:
            _refuse(action, "the basket holds no basic or change piece to set the kind", fx)
            return
        # One piece from the basket to the field sets the kind as at the start; the turn stays.
        s.phase = START
        fx.append(Say(SPEAKER, "referee.forgot", {"seat": s.turn}))
    elif action == "penalty":
        seat = params.get("seat")
        if seat not in SEATS or s.phase != TURN:
            _refuse(action, "needs a seat 1-3, during a turn", fx)
            return
        reason = params.get("reason", "wrong_play")
        s.penalties += ((seat, str(reason)),)
        s.set_declared(seat, False)
        fx.append(Say(SPEAKER, "penalty.wrong_play", {"seat": seat}))
        _owe(s, seat, PENALTY_DRAWS, RESUME_SAME, fx, said=True)
    elif action == "move":
        _referee_move(s, params, fx)
    elif action == "end":
        if s.phase == OVER:
            _refuse(action, "the game is already over", fx)
            return
        _end(s, fx, reason="referee")
    else:
        _refuse(action, "unknown referee action", fx)


def _referee_move(s: TridentState, params: dict[str, Any], fx: list[Effect]) -> None:
    """Correct where a piece is when tracking went wrong: to a seat's hand or back to the basket."""
    piece_id, to = params.get("piece"), params.get("to")
    target_seat = _SEAT_OF.get(str(to))
    if piece_id not in PIECES or (target_seat is None and to != IN_BASKET) or s.phase == OVER:
        _refuse("move", "needs a piece id and to = hand:N or basket, before the game is over", fx)
        return
    bit = BIT[piece_id]
    if s.phase == DEAL and target_seat is not None and (s.masks[target_seat] & ~bit).bit_count() >= HAND_SIZE:
        _refuse("move", f"seat {target_seat} already holds {HAND_SIZE} pieces in the deal", fx)
        return
    before = s.masks
    s.masks = [m & ~bit for m in before]
    if s.field_mask & bit:
        s.set_field(tuple(p for p in s.field if p != piece_id))
    if target_seat is not None and not before[target_seat] & bit:
        s.masks[target_seat] |= bit
        s.set_declared(target_seat, False)  # its count went up
    fx.append(Alert("referee.moved", {"piece": piece_id, "to": to}))
    if s.phase == DEAL and _dealt(s):
        s.phase = START
        s.turn = s.first
        fx.append(Say(SPEAKER, "deal.complete", {"seat": s.first}))


def _refuse(action: str, why: str, fx: list[Effect]) -> None:
    fx.append(Say(SPEAKER, "referee.refused"))
    fx.append(Alert("referee.refused", {"action": action, "why": why}))


def _summary(s: TridentState) -> list[Effect]:
    if s.phase == DEAL:
        return []
    if s.phase == START:
        return [Say(SPEAKER, "start.ask", {"seat": s.turn})]
    if s.phase == DRAWING:
        return [Say(SPEAKER, "draw.owed", {"seat": s.drawer, "count": s.owed})]
    if s.phase == CHOOSE_SUIT:
        return [Say(SPEAKER, "choose_suit.ask", {"seat": s.turn})]
    if s.phase == OVER:
        return [Say(SPEAKER, "game.over")]
    return [_turn_phrase(s)]


__all__ = ["Trident", "SetupError", "ranking", "name_key", "legal_plays", "legal_mask", "SUITS", "READERS",
           "draw", "play", "start_piece", "pass_turn", "declare", "choose_suit", "accept_attack"]
