"""Numeron's tags: digit cards, item cards, place tags and two controls (contract "Pieces")."""

from __future__ import annotations

ITEMS = ("double", "high-low", "target", "slash", "shuffle", "change", "move")
ATTACK = ("double", "high-low", "target", "slash")
DEFENCE = ("shuffle", "change", "move")
MAX_DIGITS = 5

# Canonical ids. Pieces carry one tag each; controls and place tags may have several tags each
# (a deck may give every seat its own `ctl-clear`, or print the place strip twice).
DIGITS = tuple(f"digit-{v}-{c}" for c in (1, 2, 3) for v in range(10))
ITEM_TAGS = tuple(f"item-{name}-{c}" for c in (1, 2) for name in ITEMS)
PIECES = DIGITS + ITEM_TAGS
PLACES = tuple(f"pos-{k}" for k in range(1, MAX_DIGITS + 1))
CTL_CLEAR = "ctl-clear"
CTL_REPEAT = "ctl-repeat"
CONTROLS = (*PLACES, CTL_CLEAR, CTL_REPEAT)

# The place of K in a D-digit number, as phrases name it: 10^(D-K).
PLACE_NAMES = ("ones", "tens", "hundreds", "thousands", "ten_thousands")


def place_name(k: int, digits: int) -> str:
    """`pos-K` of a D-digit number: "thousands" for K=1, D=4."""
    return PLACE_NAMES[digits - k]


def parse(tag: str) -> tuple[str, int | str, int] | None:
    """("digit", V, C), ("item", NAME, C), ("pos", K, 0), ("ctl", name, 0); None for anything else."""
    kind, _, rest = tag.partition("-")
    if kind == "digit":
        value, _, copy = rest.partition("-")
        if value.isdigit() and len(value) == 1 and copy in ("1", "2", "3"):
            return ("digit", int(value), int(copy))
    elif kind == "item":
        name, _, seat = rest.rpartition("-")
        if name in ITEMS and seat in ("1", "2"):
            return ("item", name, int(seat))
    elif kind == "pos":
        if rest.isdigit() and 1 <= int(rest) <= MAX_DIGITS and len(rest) == 1:
            return ("pos", int(rest), 0)
    elif tag in (CTL_CLEAR, CTL_REPEAT):
        return ("ctl", tag, 0)
    return None


def is_low(digit: int) -> bool:
    return digit <= 4


def klass(digit: int) -> str:
    """"low" (0-4) or "high" (5-9)."""
    return "low" if digit <= 4 else "high"
