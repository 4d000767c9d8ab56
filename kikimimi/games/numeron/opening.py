"""The opening trees: the solver's calls for every judgement history, computed offline, shipped as data.

`python -m kikimimi.games.numeron.opening [DIGITS ...]` regenerates `data/tree<D>.json.gz`. A tree maps a
history of judgements (each judgement two characters, EAT then BITE: "1103" is 1 EAT 1 BITE, then
0 EAT 3 BITE) to the next call. It covers every secret, so a game without items never leaves it.
"""

from __future__ import annotations

import gzip
import json
import sys
import time

import numpy as np

from kikimimi.games.numeron.judge import token
from kikimimi.games.numeron.solver import best_guesses, numbers, partition

ALL_EAT = {d: d * 8 for d in (3, 4, 5)}
# The rollout tries this many of the best-scored guesses at each node (0: the plain greedy rule).
WIDTH = {3: 100, 4: 150, 5: 0}
LIMIT = {3: 10**9, 4: 10**9, 5: 3_000_000}  # guesses x candidates scored at one node (5 digits: sampled)
MAX_CALLS = {3: 6, 4: 7, 5: 8}  # the worst-case target: a deeper subtree is rebuilt from other guesses
RETRIES = 60  # guesses tried at a node whose subtree is too deep


def build(digits: int, width: int | None = None) -> tuple[dict[str, str], int]:
    """The tree and its total cost (calls summed over every secret).

    A rollout: at each node the `width` best-scored guesses are each completed by the greedy rule, and
    the one whose completed subtree costs least is kept; its parts are then decided the same way. When
    the subtree built that way needs more than MAX_CALLS calls, the next guesses (by that estimate)
    are built in turn until one fits.
    """
    rng = np.random.default_rng(digits)
    nums = numbers(digits)
    width = WIDTH[digits] if width is None else width
    memo: dict[bytes, tuple[int, int]] = {}

    def parts(cands: np.ndarray, guess: int) -> dict[int, np.ndarray]:
        return {k: p for k, p in partition(digits, guess, cands).items() if k != ALL_EAT[digits]}

    def greedy(cands: np.ndarray) -> tuple[int, int]:
        """(cost, guess) of the greedy rule for this node."""
        key = cands.tobytes()
        if key not in memo:
            guess = best_guesses(digits, cands, 1, LIMIT[digits], rng)[0]
            memo[key] = (len(cands) + sum(greedy(p)[0] for p in parts(cands, guess).values()), guess)
        return memo[key]

    def estimate(cands: np.ndarray, guess: int) -> int:
        return len(cands) + sum(greedy(p)[0] for p in parts(cands, guess).values())

    def grow(cands: np.ndarray, depth: int, key: str, tree: dict[str, str]) -> tuple[int, int]:
        """(cost, deepest call) of the subtree built for this node, written into `tree`."""
        if len(cands) == 1:
            tree[key] = nums[int(cands[0])]
            return 1, depth + 1
        options = [greedy(cands)[1]]
        if width > 1 and len(cands) > 2:
            options += best_guesses(digits, cands, width, LIMIT[digits], rng)
        ranked = sorted(dict.fromkeys(options), key=lambda g: estimate(cands, g))
        best: tuple[int, int, dict[str, str]] | None = None
        tried = 0
        while True:
            for guess in ranked:
                sub: dict[str, str] = {key: nums[guess]}
                cost, deepest = len(cands), depth + 1
                for k, part in parts(cands, guess).items():
                    c, d = grow(part, depth + 1, key + token(k // 8, k % 8), sub)
                    cost, deepest = cost + c, max(deepest, d)
                tried += 1
                if best is None or (deepest <= MAX_CALLS[digits], -cost) > (best[1] <= MAX_CALLS[digits], -best[0]):
                    best = (cost, deepest, sub)
                if deepest <= MAX_CALLS[digits] or tried >= RETRIES:
                    break
            assert best is not None  # `ranked` holds the greedy guess at least
            if best[1] <= MAX_CALLS[digits] or tried >= RETRIES or len(ranked) >= len(nums) or len(cands) <= 2:
                break
            seen = set(ranked)  # too deep: try every other guess, best estimate first
            ranked = sorted((g for g in best_guesses(digits, cands, len(nums), LIMIT[digits], rng) if g not in seen),
                            key=lambda g: estimate(cands, g))[: RETRIES - tried]
        tree.update(best[2])
        return best[0], best[1]

    tree: dict[str, str] = {}
    cost, _ = grow(np.arange(len(nums)), 0, "", tree)
    return tree, cost


def depths(digits: int, tree: dict[str, str]) -> list[int]:
    """The calls the tree needs for each secret (in `numbers` order)."""
    from kikimimi.games.numeron.solver import judge

    out = []
    for secret in numbers(digits):
        key, calls = "", 0
        while True:
            call = tree[key]
            calls += 1
            eat, bite = judge(secret, call)
            if eat == digits:
                break
            key += token(eat, bite)
        out.append(calls)
    return out


def main(argv: list[str]) -> int:
    from pathlib import Path

    for digits in [int(a) for a in argv] or [3, 4, 5]:
        started = time.perf_counter()
        tree, cost = build(digits)
        d = depths(digits, tree)
        path = Path(__file__).parent / "data" / f"tree{digits}.json.gz"
        text = json.dumps({"digits": digits, "total": cost, "secrets": len(d), "worst": max(d), "tree": tree},
                          separators=(",", ":"), sort_keys=True)
        path.write_bytes(gzip.compress(text.encode(), mtime=0))  # mtime 0: the same tree, the same bytes
        print(f"{digits} digits: {cost}/{len(d)} = {cost / len(d):.4f} calls on average, worst {max(d)}, "
              f"{len(tree)} nodes, {time.perf_counter() - started:.1f} s -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
