"""Every phrase key the Royal Nine engine can emit, with its parameters.

The catalogs (`voices/catalog/royal-nine.{ja,en}.toml`) define each with exactly these parameters;
a test fails when one is missing in either language. Parameter types (the catalogs' `[params]`):
`card` a card id, `content` a card id or `empty` / `common`, `cell` 1..9, `line` row-1..col-3,
`role` a role name, `round`, `points`, `total` numbers.
"""

from __future__ import annotations

PHRASES: dict[str, tuple[str, ...]] = {
    # the round
    "round.begin": ("round",),
    "common.down": (),
    "deal.ask": ("first", "second"),
    "deal.card": ("seat", "card"),
    "deal.more": (),
    "place.ask": (),
    "place.card": ("seat", "card", "cell"),
    "place.mine": ("cell",),  # the placing seat's own earphone
    "reveal.ask": (),
    # the reveal and the scores
    "reveal.card": ("card",),
    "score.seat": ("seat",),
    "score.line": ("line", "role", "points"),
    "score.grid": ("role", "points"),
    "score.none": (),
    "score.roles": ("parts",),  # a seat's roles (score.seat, then its lines), said after the scores
    "score.round": ("seat", "points"),
    "score.total": ("seat", "total"),
    "round.next": ("round",),
    "game.winner": ("seat",),
    "game.draw": (),
    "game.ended": (),
    "game.over": (),
    # private answers on a hand reader
    "card.name": ("card",),
    "card.selected": ("card",),
    "card.where": ("card", "cell"),
    "grid.intro": (),
    "cell.content": ("cell", "content"),
    "hint.cell": ("cell",),
    "hint.select_first": (),
    # refusals (never naming a card)
    "refuse.not_yours": (),
    "refuse.hand_full": (),
    "refuse.no_deal": (),
    "refuse.cell_taken": (),
    "refuse.cell_common": (),
    "refuse.face_down": (),
    "refuse.no_tens": (),
    "refuse.not_now": (),
    "refuse.on_hand": (),
    "refuse.on_field": (),
    "refuse.field_card": (),
    "tap.unknown_tag": (),
    "referee.refused": (),
    # what one event says on one output, as one utterance (kikimimi.games.phrasebook.one_utterance_each)
    "announce": ("parts",),
}

ROLES = "score.roles"

# Phrases that depend on the common card: never said before it is opened (see invariants.py).
REVEAL_PHRASES = frozenset({"reveal.card", "score.roles", "score.seat", "score.line", "score.grid", "score.none",
                            "score.round", "score.total", "game.winner", "game.draw"})

# The values of the `content` parameter besides a card id.
EMPTY = "empty"
COMMON_CELL = "common"
