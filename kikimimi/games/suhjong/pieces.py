"""Suhjong's 50 digit cards and its tags.

A card id is `digit-V-C`: value V 0-9, copy C 1-5. Copies of one value are interchangeable in play;
the id only tells the table which physical card moved. Operator tags (`op-*`) build a declared
equation on the field reader; control tags (`ctl-*`) are a seat's acts.
"""

from __future__ import annotations

from collections.abc import Iterable

VALUES = tuple(range(10))
COPIES = 5
CARDS: tuple[str, ...] = tuple(f"digit-{v}-{c}" for v in VALUES for c in range(1, COPIES + 1))
CARD_SET = frozenset(CARDS)
VALUE: dict[str, int] = {card: int(card.split("-")[1]) for card in CARDS}

OP_TIMES = "op-times"
OP_PLUS = "op-plus"
OP_EQUALS = "op-equals"
OP_OPEN = "op-open"
OP_CLOSE = "op-close"
OPERATORS: tuple[str, ...] = (OP_TIMES, OP_PLUS, OP_EQUALS, OP_OPEN, OP_CLOSE)
OPERATOR_SET = frozenset(OPERATORS)
# The symbol each operator tag writes in an equation text.
SYMBOL = {OP_TIMES: "*", OP_PLUS: "+", OP_EQUALS: "=", OP_OPEN: "(", OP_CLOSE: ")"}

CTL_FOLD = "ctl-fold"
CTL_SHOWDOWN = "ctl-showdown"
CTL_DECLARE = "ctl-declare"
CTL_CLEAR = "ctl-clear"
CTL_NOROLE = "ctl-norole"
CTL_NEXT = "ctl-next"
CTL_TABLE = "ctl-table"
CTLS: tuple[str, ...] = (CTL_FOLD, CTL_SHOWDOWN, CTL_DECLARE, CTL_CLEAR, CTL_NOROLE, CTL_NEXT, CTL_TABLE)
CONTROLS: tuple[str, ...] = (*OPERATORS, *CTLS)  # the registry's `controls`: every tag that is not a card
CONTROL_SET = frozenset(CONTROLS)


def value(card: str) -> int:
    """A card's digit."""
    return VALUE[card]


def digits(cards: Iterable[str]) -> tuple[int, ...]:
    """The sorted digits of some cards: the key the solver's tables use."""
    return tuple(sorted(VALUE[c] for c in cards))
