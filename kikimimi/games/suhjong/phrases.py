"""Every phrase key the Suhjong engine can emit, with its parameters.

The catalogs (`voices/catalog/suhjong.{ja,en}.toml`) define each with exactly these parameters; a test
fails when one is missing in either language. Parameter types (the catalogs' [params]): `value`,
`points`, `total` are numbers, `cards` are digits spoken one by one.
"""

from __future__ import annotations

from kikimimi.games.suhjong.pieces import OP_CLOSE, OP_EQUALS, OP_OPEN, OP_PLUS, OP_TIMES

# What an operator tag says when tapped in a declaration (and when an equation is read back).
OPERATOR_KEY = {OP_TIMES: "eq.times", OP_PLUS: "eq.plus", OP_EQUALS: "eq.equals", OP_OPEN: "eq.open",
                OP_CLOSE: "eq.close"}

PHRASES: dict[str, tuple[str, ...]] = {
    # hearing a card, the table on request
    "card.value": ("value",),
    "table.hand": ("seat", "cards"),
    "table.hand_empty": ("seat",),
    "table.river": ("seat", "cards"),
    "table.river_empty": ("seat",),
    "table.pile": ("count",),
    "table.total": ("seat", "total"),
    # the deal and turns
    "deal.card": ("seat", "value"),
    "deal.full": (),
    "deal.on_hand_reader": (),
    "deal.ask": (),
    "turn.begin": ("seat",),
    "turn.grace": ("seat",),
    "pile.count": ("count",),
    "fold.done": ("seat", "points"),
    "fold.refused": (),
    "showdown.called": ("seat",),
    "showdown.impossible": (),
    "showdown.refused": (),
    "discard.card": ("value",),  # a move names no seat: the turn's seat was said at its start
    "discard.max": ("count",),
    "discard.over": (),
    "discard.not_in_hand": (),
    "pickup.card": ("value",),
    "draw.card": ("value",),
    "pickup.pass": ("value", "next"),  # the pick-up or draw that ends a turn, and whose turn is next
    "draw.pass": ("value", "next"),
    "pickup.grace": ("value", "next"),  # ... and the next is the grace turn
    "draw.grace": ("value", "next"),
    "pile.empty": (),
    "refill.discard_first": (),
    "refill.after_draw": (),
    "refill.showdown_no_draw": (),
    "refill.own_river": (),
    "refill.sea": (),
    # refusals that change nothing
    "tap.unknown_tag": (),
    "tap.not_now": (),
    "tap.not_your_turn": (),
    "card.from_pile": (),
    "card.other_hand": (),
    "control.on_hand_reader": (),
    "control.on_field": (),
    # scoring
    "scoring.begin": (),
    "declare.short": ("seat",),
    "declare.ask": ("seat",),
    "declare.wait": ("seat",),
    "declare.not_yours": (),
    "declare.twice": (),
    "declare.incomplete": (),
    "declare.cleared": ("seat",),
    "declare.by": ("seat",),
    "declare.role": ("points",),
    "declare.unequal": (),
    "declare.norole": ("seat",),
    "eq.number": ("value",),
    "eq.digits": ("cards",),
    "eq.times": (),
    "eq.plus": (),
    "eq.equals": (),
    "eq.open": (),
    "eq.close": (),
    "hint.best": ("seat", "points"),
    # rounds and the end
    "round.score": ("seat", "points", "total"),
    "round.next_ask": (),
    "round.begin": ("count", "seat"),
    "game.winner": ("seat",),
    "game.draw": (),
    "game.ended": (),
    "game.over": (),
    # referee
    "referee.refused": (),
    # what one event says on one output, as one utterance (kikimimi.games.phrasebook.one_utterance_each)
    "announce": ("parts",),
}

# The move that ends a turn, and the phrase that says it with the next turn.
PASS_KEY = {"draw.card": "draw.pass", "pickup.card": "pickup.pass"}
GRACE_KEY = {"draw.card": "draw.grace", "pickup.card": "pickup.grace"}
