"""A Monte Carlo player: for each card it could play (or row it could take), play the next turns many
times over with the unseen cards dealt at random to the other seats, and keep the choice that costs it
the fewest bullheads on average (less a quarter of what it costs the others).

It decides from one seat's observation only: its hand, the rows, the cards taken and revealed (all
public), and what it remembers hearing. The cards it has not seen are dealt anew for each sample (a
"determinization"); every candidate is scored on the same samples (common random numbers), which
makes small differences between candidates visible with few samples. The rollouts are vectorised with
numpy across all candidates x samples at once, one placement at a time, `HORIZON` turns ahead.

Rollout policy: the deciding seat plays a random card; each other seat plays its safest card (the
contract's safest-card player) with the probability that it is a careful player, else a random card.
That probability is learnt from the public reveals: a careful player's card ranks, among the cards it
could have held, like the lowest of the k it held (density k(1-u)^(k-1)); a random player's anywhere
(density 1). A lowest card takes the cheapest row, as both reference players do.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kikimimi.games.nimmt.pieces import BULLHEADS, CARD_COUNT
from kikimimi.games.nimmt.players import alone_cost
from kikimimi.games.nimmt.state import HAND_SIZE, ROW_LIMIT

_BH = np.array(BULLHEADS, dtype=np.int64)
_NO_ROW = 1000
SAMPLES = 64  # samples per candidate; decisions stay far below the 200 ms budget (see bench)
OTHERS_WEIGHT = 0.25  # also prefer what costs the others: a game is won on the difference
HORIZON = 5  # turns played ahead in a rollout (later turns add more noise than signal)
SELF_GREEDY = 0.0  # in rollouts the deciding seat plays its safest card this often (else a random card)
PRIOR_CAREFUL = 0.5  # before any evidence: the chance that another seat plays like the safest-card player
MAX_EVIDENCE = 3.0  # one turn's log-likelihood ratio is capped: no single card is proof


def _rows_arrays(rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    last = np.array([row[-1] for row in rows], dtype=np.int64)
    cnt = np.array([len(row) for row in rows], dtype=np.int64)
    bull = np.array([int(_BH[list(row)].sum()) for row in rows], dtype=np.int64)
    return last, cnt, bull


def _place(last: np.ndarray, cnt: np.ndarray, bull: np.ndarray, cards: np.ndarray, who: np.ndarray,
           costs: np.ndarray, ar: np.ndarray) -> None:
    """One card per world onto its row (W worlds at once): highest last card below it, a 6th card takes
    the row, a lowest card takes the cheapest row (fewest bullheads, then fewest cards, then first).
    The four rows are compared one by one: numpy reductions over an axis of 4 are slow."""
    gap = np.full(cards.shape, _NO_ROW)
    r = np.zeros(cards.shape, dtype=np.int64)
    for j in range(4):
        d = cards - last[:, j]
        better = (d > 0) & (d < gap)
        gap = np.where(better, d, gap)
        r = np.where(better, j, r)
    low = gap == _NO_ROW
    if low.any():
        r = np.where(low, (bull * 64 + cnt * 4 + np.arange(4)).argmin(1), r)
    cr = cnt[ar, r]
    br = bull[ar, r]
    take = low | (cr >= ROW_LIMIT)
    np.add.at(costs, (ar, who), np.where(take, br, 0))
    bc = _BH[cards]
    last[ar, r] = cards
    cnt[ar, r] = np.where(take, 1, cr + 1)
    bull[ar, r] = np.where(take, bc, br + bc)


def _safest_index(hands: np.ndarray, last: np.ndarray, cnt: np.ndarray, bull: np.ndarray) -> np.ndarray:
    """(W, N): each player's safest card (the contract's key: cost if alone, gap, card) as a hand index."""
    gap = np.full(hands.shape, _NO_ROW)
    cost = np.zeros(hands.shape, dtype=np.int64)
    cost6 = np.where(cnt >= ROW_LIMIT, bull, 0)
    for j in range(4):  # row by row: numpy reductions over an axis of 4 are slow
        d = hands - last[:, j, None, None]
        better = (d > 0) & (d < gap)
        gap = np.where(better, d, gap)
        cost = np.where(better, cost6[:, j, None, None], cost)
    low = gap == _NO_ROW
    cost = np.where(low, bull.min(1)[:, None, None], cost)
    safest: np.ndarray = (cost * 1_000_000 + np.where(low, 105, gap) * 1000 + hands).argmin(-1)
    return safest


def rollout_costs(last: np.ndarray, cnt: np.ndarray, bull: np.ndarray, hands: np.ndarray, forced_first: bool,
                  gen: np.random.Generator, greedy: Sequence[float] = (), horizon: int = 10) -> np.ndarray:
    """Play every world (axis 0) to the end of the round; the bullheads each player takes, (W, N).

    `hands` (W, N, k): every player's cards, player 0 being the deciding seat; with `forced_first`
    player 0 plays its column 0 in the first turn (the candidate card). `greedy[i]`: how often player i
    plays its safest card (the contract's key), else a uniformly random one."""
    hands = hands.copy()
    last, cnt, bull = last.copy(), cnt.copy(), bull.copy()
    worlds, players, k = hands.shape
    costs = np.zeros((worlds, players), dtype=np.int64)
    ar = np.arange(worlds)
    rows_w = ar[:, None]
    cols = np.arange(players)[None, :]
    chance = np.zeros((1, players))
    chance[0, : len(greedy)] = greedy  # per player: how often it plays the safest card (else a random one)
    chance[chance < 0.03] = 0.0  # a seat almost surely random: played as random
    active = chance[0] > 0
    for turn in range(min(k, horizon)):
        left = k - turn
        idx = (gen.random((worlds, players)) * left).astype(np.int64)
        if left > 1 and active.any():  # the safest card only for players that play it at all (costly)
            safe = _safest_index(hands[:, active, :left], last, cnt, bull)
            idx[:, active] = np.where(gen.random((worlds, len(safe[0]))) < chance[:, active], safe, idx[:, active])
        if turn == 0 and forced_first:
            idx[:, 0] = 0
        cards = hands[rows_w, cols, idx]
        hands[rows_w, cols, idx] = hands[:, :, left - 1]
        order = cards.argsort(1)
        ordered = np.take_along_axis(cards, order, 1)
        for j in range(players):
            _place(last, cnt, bull, ordered[:, j], order[:, j], costs, ar)
    return costs


def _unseen(obs: Mapping[str, Any], mine: Sequence[int]) -> np.ndarray:
    known = set(mine)
    for row in obs["rows"]:
        known.update(row)
    for pile in obs["taken"].values():
        known.update(pile)
    known.update(card for card, _ in obs.get("revealed", ()))
    known.update(card for card in obs["chosen"].values() if card is not None)
    return np.array([card for card in range(1, CARD_COUNT + 1) if card not in known], dtype=np.int64)


class MonteCarlo:
    """The table's bot for one or more seats (seeded: the same seed, the same decisions)."""

    def __init__(self, rng: random.Random, samples: int = SAMPLES, others_weight: float = OTHERS_WEIGHT,
                 self_greedy: float = SELF_GREEDY, horizon: int = HORIZON, model_others: bool = True) -> None:
        self.gen = np.random.default_rng(rng.getrandbits(64))
        self.self_greedy = self_greedy
        self.horizon = horizon
        self.model_others = model_others
        # What this seat has heard: the rows and unseen cards when each turn was chosen, and per other seat
        # the evidence (log-likelihood ratio, careful vs random) that each revealed card gave.
        self.seen: dict[tuple[int, int], tuple[list[list[int]], np.ndarray]] = {}
        self.evidence: dict[tuple[int, int, int], float] = {}
        self.samples = samples
        self.others_weight = others_weight

    def _opponents(self, obs: Mapping[str, Any], mine: Sequence[int], k: int) -> np.ndarray:
        """(samples, players - 1, k): the unseen cards dealt at random to the other seats."""
        unseen = _unseen(obs, mine)
        need = (obs["players"] - 1) * k
        picks = self.gen.random((self.samples, len(unseen))).argsort(1)[:, :need]
        return unseen[picks].reshape(self.samples, obs["players"] - 1, k)

    def _turn(self, obs: Mapping[str, Any], k: int) -> tuple[int, int]:
        return obs["round"], HAND_SIZE + 1 - k

    def _learn(self, obs: Mapping[str, Any], k: int) -> None:
        """Read the last reveal (public) against the rows it was chosen on: how likely each other seat's
        card is under the safest-card player (the lowest of k draws by its key) versus a random one."""
        round_, turn = self._turn(obs, k)
        previous = (round_, turn - 1) if turn > 1 else (round_ - 1, HAND_SIZE)
        seen = self.seen.get(previous)
        if seen is None or not obs.get("last_reveal"):
            return
        rows, pool = seen
        held = HAND_SIZE + 1 - previous[1]  # cards each seat held when choosing that turn
        if held < 2:
            return
        keys = np.array([alone_cost(rows, int(card)) for card in pool], dtype=np.int64)
        rank_key = keys[:, 0] * 1_000_000 + keys[:, 1] * 1000 + keys[:, 2]
        for card, seat in obs["last_reveal"]:
            if seat == obs["seat"] or card not in pool:
                continue
            played = alone_cost(rows, card)
            below = int((rank_key < played[0] * 1_000_000 + played[1] * 1000 + played[2]).sum())
            u = min(below / max(len(pool) - 1, 1), 0.999)
            llr = float(np.log(held) + (held - 1) * np.log1p(-u))
            self.evidence[(previous[0], previous[1], seat)] = max(-MAX_EVIDENCE, min(MAX_EVIDENCE, llr))

    def _greedy(self, obs: Mapping[str, Any]) -> list[float]:
        """Per player of the rollouts (this seat first): how often it plays the safest card."""
        out = [self.self_greedy]
        prior = np.log(PRIOR_CAREFUL / (1 - PRIOR_CAREFUL))
        for seat in range(1, obs["players"] + 1):
            if seat == obs["seat"]:
                continue
            if not self.model_others:
                out.append(0.0)
                continue
            total = prior + sum(v for (_, _, s), v in self.evidence.items() if s == seat)
            out.append(float(1 / (1 + np.exp(-total))))
        return out

    def _score(self, costs: np.ndarray, candidates: int) -> np.ndarray:
        score = costs[:, 0] - self.others_weight * costs[:, 1:].mean(1)
        mean: np.ndarray = score.reshape(candidates, self.samples).mean(1)
        return mean

    def choose(self, obs: Mapping[str, Any]) -> int:
        """The card to lay face down (phase choose)."""
        hand: list[int] = sorted(obs["hands"][str(obs["seat"])])
        k, n, r = len(hand), len(hand), self.samples
        if self.model_others:
            if self._turn(obs, k) == (1, 1):  # a new game: forget the last one's seats
                self.seen.clear()
                self.evidence.clear()
            self._learn(obs, k)
            self.seen[self._turn(obs, k)] = ([list(row) for row in obs["rows"]], _unseen(obs, hand))
        if len(hand) == 1:
            return hand[0]
        opponents = self._opponents(obs, hand, k)
        own = np.array([[c, *(x for x in hand if x != c)] for c in hand], dtype=np.int64)  # candidate first
        hands = np.concatenate([np.repeat(own, r, axis=0)[:, None, :], np.tile(opponents, (n, 1, 1))], axis=1)
        last, cnt, bull = (np.tile(a, (n * r, 1)) for a in _rows_arrays(obs["rows"]))
        costs = rollout_costs(last, cnt, bull, hands, True, self.gen, self._greedy(obs), self.horizon)
        return hand[int(self._score(costs, n).argmin())]

    def take_row(self, obs: Mapping[str, Any]) -> int:
        """The row (1-based) to take with a card lower than every row (phase take_row)."""
        rows = [list(row) for row in obs["rows"]]
        queue = sorted((card, seat) for card, seat in obs["revealed"] if not any(card in row for row in rows))
        queue = [(card, seat) for card, seat in queue
                 if not any(card in pile for pile in obs["taken"].values())]
        hand = sorted(obs["hands"][str(obs["seat"])])
        r = self.samples
        starts, firsts = [], []
        for choice in range(len(rows)):
            # Take the row, then place the revealed cards still waiting, exactly as the engine will.
            after = [list(row) for row in rows]
            paid = {obs["seat"]: sum(int(_BH[c]) for c in after[choice])}
            after[choice] = [queue[0][0]]
            for card, seat in queue[1:]:
                target = max((i for i, row in enumerate(after) if row[-1] < card), key=lambda i: after[i][-1])
                if len(after[target]) >= ROW_LIMIT:
                    paid[seat] = paid.get(seat, 0) + sum(int(_BH[c]) for c in after[target])
                    after[target] = [card]
                else:
                    after[target].append(card)
            starts.append(after)
            firsts.append(paid)
        if not hand:
            return min(range(len(rows)), key=lambda i: firsts[i].get(obs["seat"], 0)) + 1
        n, k = len(rows), len(hand)
        opponents = self._opponents(obs, hand, k)
        hands = np.concatenate([np.tile(np.array(hand, dtype=np.int64), (n * r, 1))[:, None, :],
                                np.tile(opponents, (n, 1, 1))], axis=1)
        arrays = [_rows_arrays(after) for after in starts]
        last, cnt, bull = (np.repeat(np.stack([a[i] for a in arrays]), r, axis=0) for i in range(3))
        costs = rollout_costs(last, cnt, bull, hands, False, self.gen, self._greedy(obs), self.horizon).astype(float)
        seats = [s for s in range(1, obs["players"] + 1) if s != obs["seat"]]
        for choice, paid in enumerate(firsts):
            block = slice(choice * r, (choice + 1) * r)
            costs[block, 0] += paid.get(obs["seat"], 0)
            for column, seat in enumerate(seats, 1):
                costs[block, column] += paid.get(seat, 0)
        return int(self._score(costs, n).argmin()) + 1
