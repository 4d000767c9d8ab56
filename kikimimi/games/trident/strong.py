"""A Trident bot that plays to win: information-set Monte-Carlo tree search over the rules' moves.

It decides from what its seat has heard: its own hand (an Unknown only as "Unknown"), the field, the other
seats' counts and declarations, the pending draw, the required kind (`SeatView`), and what the others did
step by step (`inference.HandNotes`: a seat that drew had nothing it would play, and so on).

Each iteration of the search deals the pieces the seat has not seen into hands of the counts it knows and
a basket (a "world": the opponents' hands weighted by what players keep, HOLD_WEIGHT, and by the notes),
goes down a tree of the seat's own choices (a kind of piece to play, a draw even when a play is open, a
pass) by UCB among the choices open in that world, the others playing at random among legal plays, and
plays the rest out; the choice tried most at the root is played (`TreeSearch`). `MonteCarlo`, the flat
search it grew from (every choice played out once on each world), is kept as the bench's comparison.
"""

from __future__ import annotations

import math
import random as _random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kikimimi.games.trident.engine import draw, legal_mask, pass_turn, play
from kikimimi.games.trident.inference import SOFT_FACTOR, HandNotes
from kikimimi.games.trident.pieces import BASIC_MASK, FULL_MASK, PIECE_OF, SUIT_MASK, SUITS, UNKNOWN_MASK, mask_of
from kikimimi.games.trident.playout import (
    CHANGE_DRAW4,
    DRAW,
    DRAW_ATTACKS,
    PASS,
    Policy,
    basket_bit,
    playout,
    random_bit,
    random_policy,
    rule_policy,
)
from kikimimi.games.trident.state import TURN, TridentState

# The kinds of play a seat can tell apart by ear: pieces of one kind are interchangeable, and the four
# Unknowns are one kind to their holder.
KIND_MASKS: tuple[int, ...] = (
    *{p.kind: mask_of(q.id for q in PIECE_OF if q.kind == p.kind) for p in PIECE_OF if not p.is_unknown}.values(),
    UNKNOWN_MASK,
)

# What a place is worth to the look-ahead: the goal is first place; second beats last.
PLACE_VALUE = (1.0, 0.2, 0.0)
# Deals per decision: 128 won 0.423 (0.402-0.445) of first places against random-legal players where 64 won
# 0.391 (0.370-0.413), 2,000 games each, at a p99 of 70 ms CPU a decision (the 0.12 s budget caps slower CPUs).
WORLDS = 128
# The bot's search iterations per decision (fewer when its `budget` of CPU seconds runs out): about what the flat
# search's 128 deals cost with three choices each.
ITERATIONS = 3 * WORLDS
# The look-ahead's players: the seat itself at random among legal plays (its next choice is the tree's), the
# others as careful players (the rule-based player) until they play an attack a careful player keeps, then at
# random (look_ahead_players). Without notes, everyone at random.
ROLLOUT: tuple[Policy | None, ...] = (None, random_policy, random_policy, random_policy)


def look_ahead_players(seat: int, notes: HandNotes | None) -> tuple[Policy | None, ...]:
    """How the look-ahead plays each seat, from what `seat` has seen of the others (`notes`)."""
    if notes is None:
        return ROLLOUT
    return tuple(None if x == 0 else random_policy if x == seat or notes.careless(x) else rule_policy
                 for x in range(4))


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat knows in its turn: nothing here comes from another seat's hand but its count."""

    seat: int
    own_known: int  # its pieces other than Unknowns (heard on its hand reader)
    own_unknowns: int  # how many Unknowns it holds
    drew_unknown: bool  # the piece drawn this turn was an Unknown
    drew_bit: int  # the piece drawn this turn, when not an Unknown
    field_mask: int
    counts: tuple[int, int, int, int]  # [unused, seat 1, 2, 3]
    declared_mask: int
    pending: int
    required: str | None
    first: int
    rules: str


def seat_view(s: TridentState, seat: int) -> SeatView:
    """The one place a seat's knowledge is taken from the state."""
    own = s.masks[seat]
    drew_unknown = bool(s.drew_bit & UNKNOWN_MASK)
    return SeatView(seat, own & ~UNKNOWN_MASK, (own & UNKNOWN_MASK).bit_count(), drew_unknown,
                    0 if drew_unknown else s.drew_bit, s.field_mask,
                    (0, s.masks[1].bit_count(), s.masks[2].bit_count(), s.masks[3].bit_count()),
                    s.declared_mask, s.pending, s.required, s.first, s.rules)


# How much likelier a piece is to sit in an opponent's hand than a uniform deal of the unseen pieces says.
# Players shed what they can play, so the pieces left in a hand are more often basic pieces of the other
# suits and less often change, attack and Unknown pieces (always playable). The factors are the measured
# ratio (the share of each class in the opponents' hands at the bot's turns over its share in the unseen
# pieces: `kikimimi bench trident --hand-bias`), between the random-legal and the rule-based players' values.
HOLD_WEIGHT = {"required": 1.05, "other suits": 1.25, "change": 0.62, "attack": 0.6, "change-draw4": 0.65,
               "unknown": 0.55}


def class_of(bit: int, required: str | None) -> str:
    """A piece's class in HOLD_WEIGHT."""
    if bit & BASIC_MASK:
        return "required" if bit & SUIT_MASK[required] else "other suits"
    if bit & UNKNOWN_MASK:
        return "unknown"
    if bit & CHANGE_DRAW4:
        return "change-draw4"
    return "attack" if bit & DRAW_ATTACKS else "change"


# Weighted sampling without replacement (a key random() ** (1 / weight) per piece, the largest keys drawn):
# the exponent of every piece, by the required kind.
_KEY_EXPONENT: dict[str | None, tuple[float, ...]] = {
    required: tuple(1.0 / HOLD_WEIGHT[class_of(1 << i, required)] for i in range(len(PIECE_OF)))
    for required in (*SUITS, None)
}


_SOFT_POWER = 1.0 / SOFT_FACTOR  # a key u ** (1 / w) becomes u ** (1 / (w * factor))


def world(view: SeatView, rng: _random.Random, notes: HandNotes | None = None) -> TridentState:
    """One deal of the unseen pieces consistent with the view: the seat's Unknowns, the other hands (weighted
    by HOLD_WEIGHT, and into the groups the seat's `notes` know of), the basket."""
    unseen = FULL_MASK & ~view.own_known & ~view.field_mask
    bits = []
    m = unseen
    while m:
        low = m & -m
        bits.append(low)
        m ^= low
    own = view.own_known
    mine = rng.sample([b for b in bits if b & UNKNOWN_MASK], view.own_unknowns) if view.own_unknowns else []
    for b in mine:
        own |= b
    exponent = _KEY_EXPONENT[view.required]
    draw = rng.random
    keyed = sorted(((draw() ** exponent[b.bit_length() - 1], b) for b in bits if not b & own), reverse=True)
    others = [x for x in (1, 2, 3) if x != view.seat]
    s = TridentState(rules=view.rules, first=view.first, phase=TURN, turn=view.seat, required=view.required,
                     pending=view.pending, field_mask=view.field_mask, declared_mask=view.declared_mask)
    s.masks[view.seat] = own
    if notes is None:
        held = [b for _, b in keyed[:view.counts[others[0]] + view.counts[others[1]]]]
        rng.shuffle(held)
        at = 0
        for other in others:
            hand = 0
            for b in held[at:at + view.counts[other]]:
                hand |= b
            at += view.counts[other]
            s.masks[other] = hand
    else:
        _deal_into_groups(s, view, notes, keyed)
    s.drew_bit = mine[0] if view.drew_unknown and mine else view.drew_bit
    return s


def _deal_into_groups(s: TridentState, view: SeatView, notes: HandNotes, keyed: list[tuple[float, int]]) -> None:
    """The other hands from the keyed unseen pieces (largest key first), the most constrained group first."""
    taken = 0
    groups = sorted(((x, g) for x, hand in notes.hands.items() for g in hand),
                    key=lambda xg: -xg[1].excluded.bit_count())
    room = {x: view.counts[x] for x in notes.hands}  # the notes never deal a hand more than its count
    for x, g in groups:
        need = min(g.count, room[x])
        room[x] -= need
        if need <= 0:
            continue
        blocked = taken | g.excluded
        if g.unlikely:
            order: list[tuple[float, int]] = sorted(
                ((k ** _SOFT_POWER if b & g.unlikely else k, b) for k, b in keyed if not b & blocked), reverse=True)
        else:
            order = keyed
        hand = s.masks[x]
        for _, b in order:
            if not b & blocked:
                hand |= b
                taken |= b
                need -= 1
                if not need:
                    break
        for _, b in keyed if need else ():  # the notes ask for more than the unseen pieces allow: any
            if not b & taken:
                hand |= b
                taken |= b
                need -= 1
                if not need:
                    break
        s.masks[x] = hand
    for x in notes.hands:  # a count the notes have not caught up with
        missing = view.counts[x] - s.masks[x].bit_count()
        for _, b in keyed if missing > 0 else ():
            if not b & taken:
                s.masks[x] |= b
                taken |= b
                missing -= 1
                if not missing:
                    break


def choices(s: TridentState, seat: int, open_draw: bool = False) -> list[int]:
    """The distinct choices: a kind of piece to play (its mask), DRAW or PASS; with `open_draw`, a draw
    even when a play is open."""
    legal = legal_mask(s, seat)
    out = [kind for kind in KIND_MASKS if legal & kind]
    if s.pending or s.drew_bit:
        out.append(PASS)
    elif s.basket_count and (open_draw or not out):
        # A draw with a play open pays only when every hand is seen (the reference: 0.50 -> 0.58 first-place
        # share against random play). Hiding them, it wins no more (0.39 either way over 1,000-2,000 games)
        # and leaves about 4 more points in hand, so the player does not weigh it.
        out.append(DRAW)
    elif not out:
        out.append(PASS)  # a pass with nothing to draw: a crash, the only move left
    return out


def _make(s: TridentState, seat: int, choice: int, legal: int, rnd: Callable[[], float]) -> None:
    if choice == PASS:
        pass_turn(s, seat)
    elif choice == DRAW:
        bit = basket_bit(s, rnd)
        if bit:
            draw(s, seat, PIECE_OF[bit.bit_length() - 1])
        else:
            pass_turn(s, seat)
    else:
        bit = legal & choice
        play(s, seat, PIECE_OF[(bit & -bit).bit_length() - 1])


@dataclass
class MonteCarlo:
    """The decision: `worlds` deals (fewer when `budget` CPU seconds run out), every choice on each."""

    worlds: int = WORLDS
    budget: float = 0.12
    seed: int = 0
    open_draw: bool = False  # weigh a draw with a play open (the seeing-every-hand reference does)

    def __post_init__(self) -> None:
        self.rng = _random.Random(self.seed)

    def decide(self, view: SeatView, notes: HandNotes | None = None) -> int:
        """The choice to make: a kind mask to play, DRAW or PASS (`notes`: what the seat heard the others do,
        kept step by step; without them the others' hands are dealt from their counts alone, and the others
        play at random in the look-ahead)."""
        return self.best(view.seat, lambda: world(view, self.rng, notes), look_ahead_players(view.seat, notes))

    def best(self, seat: int, make_world: Callable[[], TridentState],
             rollout: Sequence[Policy | None] = ROLLOUT) -> int:
        """The search itself, over the worlds `make_world` deals (the bench's reference search is given the
        true state instead, to show what knowing every hand would be worth; no player is)."""
        base = make_world()
        options = choices(base, seat, self.open_draw)
        if len(options) == 1:
            return options[0]
        totals = [0.0] * len(options)
        started = time.process_time()
        for n in range(self.worlds):
            w = base if n == 0 else make_world()
            legal = legal_mask(w, seat)
            stream = self.rng.random()
            for i, option in enumerate(options):
                trial = w.copy()
                rnd = _random.Random(stream).random
                _make(trial, seat, option, legal, rnd)
                playout(trial, rollout, rnd)
                assert trial.result is not None
                totals[i] += PLACE_VALUE[trial.result.ranking.index(seat)]
            if time.process_time() - started > self.budget:
                break
        return options[max(range(len(options)), key=totals.__getitem__)]


class _OwnTurn(Exception):
    """Raised by the look-ahead at the searching seat's next turn: the tree decides there."""


def _stop_at_own_turn(s: TridentState, seat: int, legal: int, random: Callable[[], float]) -> int:
    raise _OwnTurn


class _Node:
    """A choice of the searching seat after the choices above it (whatever the others did in between)."""

    __slots__ = ("children", "visits", "total", "seen")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.seen = 0  # the times this choice was open when its parent was reached (information-set UCB)


@dataclass
class TreeSearch(MonteCarlo):
    """Information-set Monte-Carlo tree search over the seat's own choices: each iteration deals one world,
    goes down the tree by UCB among the choices open in that world (the others play their turns by the
    look-ahead's policy), adds one node and plays the rest out. The seat's later choices are searched, not
    played at random, which is what makes a draw with a play open worth weighing (`open_draw`)."""

    iterations: int = ITERATIONS
    exploration: float = 0.7  # UCB's constant, for values between 0 and 1 (PLACE_VALUE)
    open_draw: bool = True

    def best(self, seat: int, make_world: Callable[[], TridentState],
             rollout: Sequence[Policy | None] = ROLLOUT) -> int:
        base = make_world()
        options = choices(base, seat, self.open_draw)
        if len(options) == 1:
            return options[0]
        root = _Node()
        until_own_turn = list(rollout)
        until_own_turn[seat] = _stop_at_own_turn
        started = time.process_time()
        for n in range(max(1, self.iterations)):  # at least one: the root needs a child to choose
            s = base.copy() if n == 0 else make_world()
            path = self._descend(s, seat, root, (rollout, until_own_turn), _random.Random(self.rng.random()).random)
            assert s.result is not None
            value = PLACE_VALUE[s.result.ranking.index(seat)]
            for node in path:
                node.visits += 1
                node.total += value
            if time.process_time() - started > self.budget:
                break
        return max(root.children, key=lambda choice: root.children[choice].visits)

    def _descend(self, s: TridentState, seat: int, root: _Node,
                 players: tuple[Sequence[Policy | None], Sequence[Policy | None]],
                 rnd: Callable[[], float]) -> list[_Node]:
        """One iteration on world `s`, played to its end in place: the tree's choice at each of the seat's
        turns down to a new node, then the rest as `players` (the look-ahead's; the same stopping at the
        seat's turns). The nodes passed, for the values to go up."""
        rollout, until_own_turn = players
        node, path = root, [root]
        while True:
            options = choices(s, seat, self.open_draw)
            expanded = False
            if len(options) == 1:
                choice = options[0]
            else:
                choice, expanded = self._select(node, options, rnd)
                node = node.children[choice]
                path.append(node)
            _make(s, seat, choice, legal_mask(s, seat), rnd)
            try:
                playout(s, rollout if expanded else until_own_turn, rnd)
                return path
            except _OwnTurn:
                continue

    def _select(self, node: _Node, options: list[int], rnd: Callable[[], float]) -> tuple[int, bool]:
        """A choice open in this world not tried yet from `node` (a new node), else the best by UCB counted
        over the times each was open (`seen`)."""
        children = node.children
        for option in options:
            child = children.get(option)
            if child is not None:
                child.seen += 1
        untried = [option for option in options if option not in children]
        if untried:
            choice = untried[int(rnd() * len(untried))]
            children[choice] = _Node()
            children[choice].seen = 1
            return choice, True
        c, log = self.exploration, math.log
        return max(options, key=lambda o: children[o].total / children[o].visits
                   + c * math.sqrt(log(children[o].seen) / children[o].visits)), False


def player(seed: int, iterations: int = ITERATIONS) -> TreeSearch:
    """The bot as it plays at the table (`strong`) and in `bench trident` ("mc")."""
    return TreeSearch(seed=seed, iterations=iterations)


def mc_policy(search: MonteCarlo, notes: HandNotes | None = None) -> Policy:
    """A playout policy (see playout.py) that decides by `search` from the seat's view only, and its `notes`
    (which the caller shows every step: `watch` of playout, or the bots' own loop)."""

    def policy(s: TridentState, seat: int, legal: int, random: Callable[[], float]) -> int:
        choice = search.decide(seat_view(s, seat), notes)
        return real_piece(s.masks[seat], legal, choice, random)

    return policy


def real_piece(held: int, legal: int, choice: int, random: Callable[[], float]) -> int:
    """The seat's own piece for a choice of kind: the lowest of the kind, an Unknown at random (its holder
    cannot tell them apart); DRAW and PASS as they are."""
    if choice in (DRAW, PASS):
        return choice
    of_kind = legal & choice & held
    if choice == UNKNOWN_MASK:
        return random_bit(of_kind, random)
    return of_kind & -of_kind


__all__ = ["HOLD_WEIGHT", "ITERATIONS", "class_of", "MonteCarlo", "TreeSearch", "player", "SeatView", "seat_view",
           "world", "choices", "mc_policy", "real_piece", "KIND_MASKS"]
