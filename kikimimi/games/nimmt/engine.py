"""The 6 nimmt! rules engine: `apply(state, event) -> (state, effects)`, pure.

Each section of the rules page (`docs/rules/nimmt.md`) is one group of functions
below, and the tests are named after those sections. A refusal is a spoken phrase, never an exception,
and never names a card (D16): `apply` never raises on any event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import (
    SPEAKER,
    Alert,
    Effect,
    GameEngine,
    GameOver,
    Outcome,
    Say,
    SetupError,
    hand,
    seat_of,
)
from kikimimi.games.nimmt import INFO
from kikimimi.games.nimmt.invariants import check, privacy_leaks
from kikimimi.games.nimmt.phrases import CARD_KEYS, ON_THEIR_OWN, READINGS
from kikimimi.games.nimmt.pieces import BULLHEADS, CARD_OF, ROW_OF
from kikimimi.games.nimmt.state import (
    CHOOSE,
    CHOSEN,
    DEAL,
    HAND_SIZE,
    IN_ROW,
    OUT,
    OVER,
    ROW_LIMIT,
    ROWS,
    TAKE_ROW,
    TAKEN,
    NimmtState,
    row_bullheads,
    row_for,
)
from kikimimi.games.phrasebook import joined, one_utterance_each

MIN_PLAYERS, MAX_PLAYERS = 2, 10


def setup_problem(setup: Mapping[str, Any]) -> str | None:
    """The rule across keys: `first` is one of the seats (the contract's malformed line)."""
    players, first = setup.get("players", 4), setup.get("first", 1)
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
    if not isinstance(first, int) or not 1 <= first <= players:
        return f"first must be a seat 1 to {players}, not {first!r}"
    target = setup.get("target", 0)
    if not isinstance(target, int) or target < 0:
        return f"target must be 0 or more, not {target!r}"
    return None


def card_say(to: str, card: int) -> Say:
    """A card's number and bullheads (on its own seat's earphone)."""
    return Say(to, CARD_KEYS[BULLHEADS[card]], {"card": card})


class Nimmt(GameEngine[NimmtState]):
    """6 nimmt! for 2 to 10 seats."""

    entry = INFO  # tags and seats: the registration's pieces, controls and seats
    no_such_action = "unknown referee action (6 nimmt! has none of its own; undo is the table's)"
    invariants = staticmethod(check)
    privacy = staticmethod(privacy_leaks)

    def initial(self, setup: Mapping[str, Any] | None = None) -> NimmtState:
        setup = dict(setup or {})
        problem = setup_problem(setup)
        if problem:
            raise SetupError(problem)
        return NimmtState.new(setup.get("players", 4), setup.get("first", 1), setup.get("target", 0))

    def draft(self, state: NimmtState) -> NimmtState:
        return state.copy()

    def merge_speech(self, fx: list[Effect]) -> list[Effect]:
        """What an event says on one output is one utterance (a whole reveal and its placements), except
        the choosing phrases, which a newer one supersedes while they wait (see phrases.ON_THEIR_OWN)."""
        return one_utterance_each(fx, keep=ON_THEIR_OWN)

    def seat_count(self, state: NimmtState) -> int:
        return state.players

    def unknown_reader(self, state: NimmtState, reader: str, tag: str | None, fx: list[Effect]) -> None:
        # D18: a reader the game does not use changes nothing; a spare seat's earphone hears why.
        super().unknown_reader(state, reader, tag, fx)
        seat = seat_of(reader)
        if seat is not None and 1 <= seat <= MAX_PLAYERS:
            fx.append(Say(hand(seat), "tap.no_seat"))

    def tap(self, state: NimmtState, reader: str, out: str, seat: int | None, tag: str, uid: str | None,
            fx: list[Effect]) -> NimmtState:
        if state.phase == OVER:
            fx.append(Say(out, "game.over"))
        elif tag in ROW_OF:
            _row_tag(state, seat, out, ROW_OF[tag], fx)
        elif seat is None:
            _field_card(state, CARD_OF[tag], fx)
        else:
            _hand_card(state, seat, CARD_OF[tag], fx)
        return state

    def end(self, state: NimmtState, fx: list[Effect]) -> NimmtState:
        fx.append(Say(SPEAKER, "game.ended"))
        for seat in state.seats:
            fx.append(Say(SPEAKER, "score.total", {"seat": seat, "bullheads": state.total(seat)}))
        _end(state, "referee", fx)
        return state

    def summary(self, state: NimmtState) -> list[Effect]:
        return _summary(state)


# -- taps ------------------------------------------------------------------------------------------


def _reading(s: NimmtState, row: int, out: str, fx: list[Effect]) -> None:
    """A row reading: its count, last card and bullheads (D17)."""
    cards = s.rows[row - 1]
    fx.append(Say(out, "row.reading", {"row": row, "size": len(cards), "card": cards[-1]}))
    fx.append(Say(out, "row.bullheads", {"heads": row_bullheads(cards)}))


def _row_tag(s: NimmtState, seat: int | None, out: str, row: int, fx: list[Effect]) -> None:
    if row > len(s.rows):
        fx.append(Say(out, "row.not_laid"))
    elif seat is None and s.phase == TAKE_ROW:
        _take_row(s, row, fx)
    else:
        _reading(s, row, out, fx)


def _hand_card(s: NimmtState, seat: int, card: int, fx: list[Effect]) -> None:
    """A hand reader: the deal, else it only speaks (D6)."""
    out = hand(seat)
    where, which = s.where(card)
    if where == seat:
        fx.append(card_say(out, card))
    elif where == IN_ROW:
        assert which is not None  # a card in a row comes with its row's number
        _reading(s, which, out, fx)
    elif where == CHOSEN and which == seat:
        fx.append(Say(out, "choose.you_chose", {"card": card}))
    elif isinstance(where, int) or where == CHOSEN:
        owner = where if isinstance(where, int) else which
        fx.append(Say(out, "tap.not_yours"))
        fx.append(Alert("card.foreign_hand", {"reader": out, "seat": seat, "owner": owner, "card": card}))
    elif where == TAKEN and which == seat:
        fx.append(Say(out, "taken.so_far", {"bullheads": s.bullheads(seat)}))
    elif where == OUT and s.phase == DEAL:
        if len(s.hand(seat)) >= HAND_SIZE:
            fx.append(Say(out, "deal.hand_full"))
            return
        s.set_hand(seat, s.hand(seat) | {card})
        fx.append(card_say(out, card))
        _check_dealt(s, fx)
    else:
        fx.append(Say(out, "tap.refused"))  # another seat's pile, or out of play: no number said


def _field_card(s: NimmtState, card: int, fx: list[Effect]) -> None:
    where, which = s.where(card)
    if where == IN_ROW:
        assert which is not None  # a card in a row comes with its row's number
        if s.phase == TAKE_ROW:
            _take_row(s, which, fx)
        else:
            _reading(s, which, SPEAKER, fx)
    elif s.phase == DEAL:
        if where != OUT:
            fx.append(Say(SPEAKER, "deal.held"))
        elif len(s.rows) >= ROWS:
            fx.append(Say(SPEAKER, "deal.rows_full"))
        else:
            s.rows += ((card,),)
            fx.append(Say(SPEAKER, "row.start", {"row": len(s.rows), "card": card}))
            _check_dealt(s, fx)
    elif s.phase == TAKE_ROW:
        fx.append(Say(SPEAKER, "take_row.first", {"seat": s.taker}))
    elif isinstance(where, int):
        _choose(s, where, card, fx)
    elif where == CHOSEN:
        fx.append(Say(SPEAKER, "choose.already", {"seat": which}))
    else:
        fx.append(Say(SPEAKER, "tap.refused"))


# -- deal ------------------------------------------------------------------------------------------


def _check_dealt(s: NimmtState, fx: list[Effect]) -> None:
    if len(s.rows) == ROWS and all(len(held) == HAND_SIZE for held in s.hands):
        s.phase = CHOOSE
        fx.append(Say(SPEAKER, "deal.complete"))


# -- choosing --------------------------------------------------------------------------------------


def _choose(s: NimmtState, seat: int, card: int, fx: list[Effect]) -> None:
    if s.chosen[seat - 1] is not None:
        fx.append(Say(SPEAKER, "choose.already", {"seat": seat}))  # the first choice stands (D7)
        return
    s.set_hand(seat, s.hand(seat) - {card})  # out of the hand at once (D8)
    s.set_chosen(seat, card)
    waiting = [x for x in s.seats if s.chosen[x - 1] is None]
    # [N17] The last choice is said by the reveal that follows at once; the one before it names who is left.
    if len(waiting) == 1:
        fx.append(Say(SPEAKER, "choose.last", {"seat": seat, "waiting": waiting[0]}))
    elif waiting:
        fx.append(Say(SPEAKER, "choose.chosen", {"seat": seat}))
    fx.append(Say(hand(seat), "choose.you_chose", {"card": card}))
    if not waiting:
        _reveal(s, fx)


# -- reveal and placement --------------------------------------------------------------------------


def _reveal(s: NimmtState, fx: list[Effect]) -> None:
    order = tuple(sorted((card, seat) for seat, card in enumerate(s.chosen, 1) if card is not None))
    s.revealed = order
    s.last_reveal = order
    s.queue = order
    fx.append(Say(SPEAKER, "reveal.open"))  # all have chosen: supersedes the choosing phrases still waiting
    _place(s, fx, revealing=True)


def _take(s: NimmtState, seat: int, row: int, card: int, fx: list[Effect], revealed: bool = False) -> None:
    """The seat takes the row's cards; its card starts the row, which keeps its number (D5). `revealed`:
    the card was just named with its seat, so the take says only the row."""
    cards = s.rows[row - 1]
    s.add_taken(seat, cards)
    s.set_row(row, (card,))
    if revealed:
        fx.append(Say(SPEAKER, "take.to", {"row": row}))
    else:
        fx.append(Say(SPEAKER, "take.row", {"seat": seat, "row": row}))
    fx.append(Say(SPEAKER, "take.bullheads", {"heads": row_bullheads(cards)}))


def _place(s: NimmtState, fx: list[Effect], revealing: bool = False) -> None:
    """The queued cards, lowest first, until all are placed or a card is lower than every row. In the
    reveal each card is said with its seat and where it goes ("16, seat 1: row 1.") [N18]."""
    while s.queue:
        card, seat = s.queue[0]
        row = row_for(s.rows, card)
        if row is None:
            s.phase = TAKE_ROW
            s.taker = seat
            fx.append(Say(SPEAKER, "take_row.ask", {"card": card, "seat": seat}))
            if revealing:  # the other cards are revealed now, placed once the row is taken (D9)
                fx.extend(Say(SPEAKER, "reveal.card", {"card": c, "seat": x}) for c, x in s.queue[1:])
            # [N19] For the taker, after the prompt, a row an utterance: the take drops the rows not yet begun,
            # so a taker who chooses while they are read waits for one row at most [N21].
            for index in range(1, len(s.rows) + 1):
                reading: list[Effect] = []
                _reading(s, index, SPEAKER, reading)
                fx.append(joined(SPEAKER, READINGS, [e for e in reading if isinstance(e, Say)]))
            return
        s.queue = s.queue[1:]
        if len(s.rows[row - 1]) >= ROW_LIMIT:
            if revealing:
                fx.append(Say(SPEAKER, "reveal.card", {"card": card, "seat": seat}))
            _take(s, seat, row, card, fx, revealed=revealing)
        else:
            s.set_row(row, (*s.rows[row - 1], card))
            # In the reveal, the card, its seat and its row are one phrase: no join inside a card [N20].
            fx.append(Say(SPEAKER, "reveal.place", {"card": card, "seat": seat, "row": row}) if revealing
                      else Say(SPEAKER, "place.row", {"seat": seat, "row": row}))
    _turn_end(s, fx)


def _take_row(s: NimmtState, row: int, fx: list[Effect]) -> None:
    """The taker's free choice of a row (D12): any row, by a card of it or its tag."""
    card, seat = s.queue[0]
    s.queue = s.queue[1:]
    s.taker = None
    s.phase = CHOOSE
    fx.append(Say(SPEAKER, "take.open"))  # supersedes the row readings still waiting: they were for the taker
    _take(s, seat, row, card, fx)
    _place(s, fx)


def _turn_end(s: NimmtState, fx: list[Effect]) -> None:
    s.chosen = (None,) * s.players
    s.revealed = ()
    s.taker = None
    s.phase = CHOOSE
    if not any(s.hands):
        _round_end(s, fx)


# -- end of a round and of the game ----------------------------------------------------------------


def _round_end(s: NimmtState, fx: list[Effect]) -> None:
    fx.append(Say(SPEAKER, "round.over", {"round": s.round}))
    if s.target == 0:
        for seat in s.seats:
            fx.append(Say(SPEAKER, "score.seat", {"seat": seat, "bullheads": s.bullheads(seat)}))
        _end(s, "round", fx)
        return
    totals = [s.total(seat) for seat in s.seats]
    for seat in s.seats:
        fx.append(Say(SPEAKER, "score.total", {"seat": seat, "bullheads": totals[seat - 1]}))
    if max(totals) >= s.target:
        _end(s, "target", fx)
        return
    # A new round at once (D3, D4): every card is dealt again.
    s.past = tuple(totals)
    s.round += 1
    s.phase = DEAL
    s.rows = ()
    s.hands = tuple(frozenset() for _ in s.seats)
    s.taken = ((),) * s.players
    fx.append(Say(SPEAKER, "round.next", {"round": s.round}))


def ranking(s: NimmtState) -> tuple[int, ...]:
    """Fewest bullheads in all rounds first; ties by seat number (they share the win, D14)."""
    return tuple(sorted(s.seats, key=lambda seat: (s.total(seat), seat)))


def _end(s: NimmtState, reason: str, fx: list[Effect]) -> None:
    totals = {seat: s.total(seat) for seat in s.seats}
    fewest = min(totals.values())
    # The Priest's end has no winner: a game stopped half-way proves nothing (as the Trident's).
    winners = () if reason == "referee" else tuple(seat for seat in s.seats if totals[seat] == fewest)
    s.result = Outcome(ranking=ranking(s), winners=winners, scores=totals, reason=reason,
                       details={"rounds": s.round, "target": s.target})
    s.phase = OVER
    s.taker = None
    for seat in winners:
        fx.append(Say(SPEAKER, "game.winner", {"seat": seat}))
    fx.append(GameOver(s.result))


# -- referee ---------------------------------------------------------------------------------------


def _summary(s: NimmtState) -> list[Effect]:
    if s.phase == DEAL:
        return [Say(SPEAKER, "summary.deal", {"round": s.round})]
    if s.phase == OVER:
        return [Say(SPEAKER, "game.over")]
    if s.phase == TAKE_ROW:
        card, seat = s.queue[0]
        fx: list[Effect] = [Say(SPEAKER, "take_row.ask", {"card": card, "seat": seat})]
        for index in range(1, len(s.rows) + 1):
            _reading(s, index, SPEAKER, fx)
        return fx
    waiting = [x for x in s.seats if s.chosen[x - 1] is None]
    out: list[Effect] = [Say(SPEAKER, "choose.still", {"count": len(waiting)})]
    if len(waiting) == 1:
        out.append(Say(SPEAKER, "choose.waiting", {"seat": waiting[0]}))
    return out


__all__ = ["Nimmt", "setup_problem", "ranking", "card_say"]
