"""Practice mode (a design of this project): one player, seat 1, against the table, seat 2.

The set-up keys `practice: true` and `secret: "0319"` (the table's number) sit beside the contract's.
The live table calls `prepare` when it begins a game, which draws the secret when none is given; the
drawn set-up is journaled, so replay and resume need no randomness (and never call `prepare`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any


def draw_secret(digits: int, rng: random.Random) -> str:
    return "".join(rng.sample("0123456789", digits))


def prepare(setup: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The set-up with the table's number drawn when practice is on and no secret is given."""
    out = dict(setup)
    if out.get("practice") and not out.get("secret"):
        out["secret"] = draw_secret(int(out.get("digits", 3)), rng)
    return out
