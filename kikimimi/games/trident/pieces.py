"""The 54 pieces of The Trident and its control tags.

Ids name individual tags (`heart-3`); pieces of one kind (`heart`) are interchangeable in play.
Spoken names live in the phrase catalogs as `piece.<kind>`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

SUITS = ("heart", "diamond", "spade", "clover")


class PieceClass(StrEnum):
    BASIC = "basic"
    CHANGE = "change"
    ATTACK = "attack"
    SPECIAL1 = "special1"
    SPECIAL2 = "special2"


@dataclass(frozen=True, slots=True)
class Piece:
    id: str
    kind: str
    cls: PieceClass
    points: int
    suit: str | None = None  # basic: its suit; change and Unknown change: the suit it sets
    draw: int = 0  # what it adds to a pending draw
    turn: int = 0  # Unknown turn-around: +1 hands go to the left neighbour, -1 to the right
    # Derived from cls once, as plain fields: the engine asks these on every play.
    is_basic: bool = field(init=False)
    answers_attack: bool = field(init=False)  # may be played against a pending draw
    is_unknown: bool = field(init=False)  # spoken only as "Unknown" on a hand reader
    bit: int = field(init=False, default=0)  # 1 << its index in id order (see BIT), set with the catalog

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_basic", self.cls is PieceClass.BASIC)
        object.__setattr__(self, "answers_attack", self.cls in _ANSWERS)
        object.__setattr__(self, "is_unknown", self.cls is PieceClass.SPECIAL2)


_ANSWERS = (PieceClass.ATTACK, PieceClass.SPECIAL1, PieceClass.SPECIAL2)
BASIC_POINTS = {"heart": 1, "diamond": 2, "spade": 3, "clover": 5}


def _catalog() -> dict[str, Piece]:
    pieces: list[Piece] = []
    for suit in SUITS:
        pieces += [Piece(f"{suit}-{n}", suit, PieceClass.BASIC, BASIC_POINTS[suit], suit) for n in range(1, 9)]
    for suit in SUITS:
        kind = f"change-{suit}"
        pieces += [Piece(f"{kind}-{n}", kind, PieceClass.CHANGE, 10, suit) for n in range(1, 4)]
    pieces += [Piece(f"draw2-{n}", "draw2", PieceClass.ATTACK, 30, draw=2) for n in range(1, 3)]
    pieces += [Piece(f"draw4-{n}", "draw4", PieceClass.ATTACK, 50, draw=4) for n in range(1, 4)]
    pieces.append(Piece("change-draw4", "change-draw4", PieceClass.SPECIAL1, 100, draw=4))
    pieces.append(Piece("unknown-change-clover", "unknown-change-clover", PieceClass.SPECIAL2, 10, "clover"))
    pieces.append(Piece("unknown-change-spade", "unknown-change-spade", PieceClass.SPECIAL2, 10, "spade"))
    pieces.append(Piece("unknown-turn-right", "unknown-turn-right", PieceClass.SPECIAL2, 10, turn=+1))
    pieces.append(Piece("unknown-turn-left", "unknown-turn-left", PieceClass.SPECIAL2, 10, turn=-1))
    for index, piece in enumerate(sorted(pieces, key=lambda p: p.id)):
        object.__setattr__(piece, "bit", 1 << index)
    return {p.id: p for p in pieces}


PIECES: dict[str, Piece] = _catalog()
ALL_IDS: frozenset[str] = frozenset(PIECES)
KINDS: tuple[str, ...] = tuple(dict.fromkeys(p.kind for p in PIECES.values()))
assert len(PIECES) == 54

# Pieces as bits: index = position in id order, so that the bits of a mask, lowest first, are the ids
# sorted (what `legal_plays` and the reports list). The engine's state keeps hands and field as masks.
ID_OF: tuple[str, ...] = tuple(sorted(PIECES))
INDEX: dict[str, int] = {piece_id: i for i, piece_id in enumerate(ID_OF)}
BIT: dict[str, int] = {piece_id: 1 << i for i, piece_id in enumerate(ID_OF)}
FULL_MASK = (1 << len(ID_OF)) - 1
POINTS_OF: tuple[int, ...] = tuple(PIECES[p].points for p in ID_OF)
PIECE_OF: tuple[Piece, ...] = tuple(PIECES[p] for p in ID_OF)
PIECE_AT: dict[int, Piece] = {PIECES[p].bit: PIECES[p] for p in ID_OF}  # a piece by its bit


def mask_of(pieces: Iterable[str]) -> int:
    """The mask of some piece ids."""
    m = 0
    for piece_id in pieces:
        m |= BIT[piece_id]
    return m


def ids_of(mask: int) -> list[str]:
    """The ids in a mask, sorted."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ID_OF[low.bit_length() - 1])
        mask ^= low
    return out


def _mask_where(test: Callable[[Piece], bool]) -> int:
    return mask_of(p.id for p in PIECES.values() if test(p))


def _worth_mask(points: int) -> int:
    return _mask_where(lambda p: p.points == points)


def _suit_mask(suit: str) -> int:
    return _mask_where(lambda p: p.is_basic and p.suit == suit)


# Competition points by value: (points, mask of the pieces worth that many), so a hand's points are a few ANDs.
POINTS_MASKS: tuple[tuple[int, int], ...] = tuple(
    (points, _worth_mask(points)) for points in sorted({p.points for p in PIECES.values()})
)
SUIT_MASK: dict[str | None, int] = {suit: _suit_mask(suit) for suit in SUITS}
SUIT_MASK[None] = 0
BASIC_MASK = _mask_where(lambda p: p.is_basic)
NON_BASIC_MASK = FULL_MASK & ~BASIC_MASK
ANSWERS_MASK = _mask_where(lambda p: p.answers_attack)  # may answer a pending draw
STARTS_MASK = _mask_where(lambda p: p.cls in (PieceClass.BASIC, PieceClass.CHANGE))  # sets the kind at the start
UNKNOWN_MASK = _mask_where(lambda p: p.is_unknown)

CTL_PASS = "ctl-pass"
CTL_TRIDENT = "ctl-trident"
CTL_SUIT = {f"ctl-{suit}": suit for suit in SUITS}
CONTROLS: tuple[str, ...] = (CTL_PASS, CTL_TRIDENT, *CTL_SUIT)
CONTROL_SET: frozenset[str] = frozenset(CONTROLS)


def is_known_id(tag_id: str) -> bool:
    """A canonical piece id or control id of this game."""
    return tag_id in PIECES or tag_id in CONTROL_SET
