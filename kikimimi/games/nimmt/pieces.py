"""The 104 cards and the 4 row tags of 6 nimmt!: ids, numbers and bullheads (contract: Pieces)."""

from __future__ import annotations

CARD_COUNT = 104
ROW_COUNT = 4


def bullheads(card: int) -> int:
    """55 -> 7; other multiples of 11 -> 5; multiples of 10 -> 3; other multiples of 5 -> 2; else 1."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def card_id(card: int) -> str:
    return f"card-{card}"


def row_tag(row: int) -> str:
    return f"row-{row}"


CARDS = tuple(range(1, CARD_COUNT + 1))
PIECES: tuple[str, ...] = tuple(card_id(card) for card in CARDS)
CONTROLS: tuple[str, ...] = tuple(row_tag(row) for row in range(1, ROW_COUNT + 1))
BULLHEADS: tuple[int, ...] = (0, *(bullheads(card) for card in CARDS))  # indexed by card number
CARD_OF: dict[str, int] = {card_id(card): card for card in CARDS}
ROW_OF: dict[str, int] = {row_tag(row): row for row in range(1, ROW_COUNT + 1)}
