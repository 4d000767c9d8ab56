"""Declared equations: digit cards and operator tags read with ordinary arithmetic.

Grammar of a side (contract, [D11]): side = term {+ term}; term = factor {x factor};
factor = number | ( side ); number = one or two digit cards ([C][D] = 10C + D, a leading 0 allowed).

`parse` returns None for any malformed writing, so that `ctl-declare` can refuse it without saying
whether the sides are equal. `canonical` writes an equation in the contract's one form: the 3-card
side first; a sum in a sum (product in a product) merged in place; parentheses only around a
multiplied sum; operands in tapped order except that the one that is not a single digit comes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kikimimi.games.suhjong.pieces import OP_CLOSE, OP_EQUALS, OP_OPEN, OP_PLUS, OP_TIMES, SYMBOL, VALUE


@dataclass(frozen=True)
class Num:
    text: str  # the digits as tapped ("05")

    @property
    def value(self) -> int:
        return int(self.text)


@dataclass(frozen=True)
class Op:
    kind: str  # "+" or "*"
    items: tuple[Node, ...]


Node = Num | Op


@dataclass(frozen=True)
class Equation:
    left: Node  # the 3-card side
    right: Node  # the 2-card side

    @property
    def holds(self) -> bool:
        return evaluate(self.left) == evaluate(self.right)

    @property
    def points(self) -> int:
        """What it scores: the common value if it holds, else 0."""
        return evaluate(self.left) if self.holds else 0

    @property
    def text(self) -> str:
        return f"{render(self.left)}={render(self.right)}"


class _Malformed(Exception):
    pass


class _Parser:
    def __init__(self, tokens: Sequence[str]) -> None:
        self.tokens = tokens
        self.i = 0
        self.cards = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def side(self) -> Node:
        items = [self.term()]
        while self.peek() == OP_PLUS:
            self.i += 1
            items.append(self.term())
        return items[0] if len(items) == 1 else Op("+", tuple(items))

    def term(self) -> Node:
        items = [self.factor()]
        while self.peek() == OP_TIMES:
            self.i += 1
            items.append(self.factor())
        return items[0] if len(items) == 1 else Op("*", tuple(items))

    def factor(self) -> Node:
        tok = self.peek()
        if tok == OP_OPEN:
            self.i += 1
            inner = self.side()
            if self.peek() != OP_CLOSE:
                raise _Malformed
            self.i += 1
            return inner
        text = ""
        while (tok := self.peek()) in VALUE:
            text += str(VALUE[tok])
            self.i += 1
        if not 1 <= len(text) <= 2:
            raise _Malformed  # no number, or three digit cards in a row
        self.cards += len(text)
        return Num(text)


def parse_side(tokens: Sequence[str]) -> tuple[Node, int] | None:
    """A well-formed side and its number of digit cards; None if malformed."""
    parser = _Parser(tokens)
    try:
        node = parser.side()
    except _Malformed:
        return None
    if parser.i != len(tokens):
        return None
    return node, parser.cards


def parse(tokens: Sequence[str]) -> Equation | None:
    """A complete declaration (one '=', both sides well-formed, 3 cards on one side and 2 on the other)
    in canonical form, or None. Tokens are card ids and operator tag ids."""
    if tokens.count(OP_EQUALS) != 1:
        return None
    at = tokens.index(OP_EQUALS)
    first, second = parse_side(tokens[:at]), parse_side(tokens[at + 1:])
    if first is None or second is None:
        return None
    (a, na), (b, nb) = first, second
    if {na, nb} != {2, 3}:
        return None
    left, right = (a, b) if na == 3 else (b, a)
    return Equation(normalize(left), normalize(right))


def normalize(node: Node) -> Node:
    """Merge a sum in a sum (a product in a product) in place, then put the operand that is not a single
    digit first, the others keeping their tapped order."""
    if isinstance(node, Num):
        return node
    items: list[Node] = []
    for item in node.items:
        item = normalize(item)
        if isinstance(item, Op) and item.kind == node.kind:
            items.extend(item.items)
        else:
            items.append(item)
    single: list[Node] = [x for x in items if isinstance(x, Num) and len(x.text) == 1]
    other = [x for x in items if not (isinstance(x, Num) and len(x.text) == 1)]
    return Op(node.kind, tuple(other + single))


def render(node: Node) -> str:
    if isinstance(node, Num):
        return node.text
    if node.kind == "+":
        return "+".join(render(x) for x in node.items)
    return "*".join(f"({render(x)})" if isinstance(x, Op) and x.kind == "+" else render(x) for x in node.items)


def evaluate(node: Node) -> int:
    if isinstance(node, Num):
        return node.value
    if node.kind == "+":
        return sum(evaluate(x) for x in node.items)
    result = 1
    for x in node.items:
        result *= evaluate(x)
    return result


def written(tokens: Sequence[str]) -> str:
    """The taps so far as text ("3*7+"), for the console and the report."""
    return "".join(str(VALUE[t]) if t in VALUE else SYMBOL.get(t, "?") for t in tokens)


def tokens_of(text: str, cards: Sequence[str]) -> list[str] | None:
    """Taps that write `text` with these cards (each card once): how a bot declares a solver's role."""
    pool = list(cards)
    out: list[str] = []
    ops = {v: k for k, v in SYMBOL.items()}
    for ch in text:
        if ch in ops:
            out.append(ops[ch])
            continue
        card = next((c for c in pool if VALUE[c] == int(ch)), None)
        if card is None:
            return None
        pool.remove(card)
        out.append(card)
    return out
