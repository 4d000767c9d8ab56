"""The cards and control tags of Royal Nine.

Cards are `red-1`..`red-10` and `blue-1`..`blue-10` (playing cards: hearts red, spades blue); the
tens play only with the `tens` set-up. Each card also has an index 0..19 (colour * 10 + value - 1)
that the scoring tables and the solver use.
"""

from __future__ import annotations

COLOURS = ("red", "blue")
VALUES = tuple(range(1, 11))
CARDS: tuple[str, ...] = tuple(f"{colour}-{value}" for colour in COLOURS for value in VALUES)
CARD_SET = frozenset(CARDS)
TENS = frozenset(card for card in CARDS if card.endswith("-10"))
INDEX: dict[str, int] = {card: i for i, card in enumerate(CARDS)}

# Cells in reading order: cell-1 is index 0, the centre (cell-5, index 4) holds the common card.
CELL_TAGS: tuple[str, ...] = tuple(f"cell-{n}" for n in range(1, 10))
CELL_OF_TAG: dict[str, int] = {tag: n - 1 for n, tag in enumerate(CELL_TAGS, start=1)}
CENTRE = 4
OWN_CELLS: tuple[int, ...] = tuple(i for i in range(9) if i != CENTRE)

CTL_OPEN = "ctl-open"  # field: open the common card
CTL_NEXT = "ctl-next"  # field: the next round
CTL_GRID = "ctl-grid"  # hand: hear the grid
CTL_HINT = "ctl-hint"  # hand: the best cell for the selected card
CONTROLS: tuple[str, ...] = (*CELL_TAGS, CTL_OPEN, CTL_NEXT, CTL_GRID, CTL_HINT)
CONTROL_SET = frozenset(CONTROLS)


def colour(card: str) -> str:
    return card.split("-", 1)[0]


def value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def deck(tens: bool) -> tuple[str, ...]:
    """The cards in play: 18, or 20 with tens, in catalog order."""
    return CARDS if tens else tuple(card for card in CARDS if card not in TENS)


def cell_number(index: int) -> int:
    """The spoken cell number (1..9) of a grid index (0..8)."""
    return index + 1
