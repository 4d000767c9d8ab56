"""Every phrase key the 6 nimmt! engine can emit, with its parameters.

The catalogs (`voices/catalog/nimmt.{ja,en}.toml`) define each of these with exactly these parameters
(a test checks both). Phrases are short and take at most three small parameters, so that a voice
pack can render every combination ahead (`card` 0-104, `seat` 1-10, `row` 1-4, `size` 1-5, and `heads`
0-27: a row's bullheads).
A long announcement (the reveal, a row reading) is a sequence of these, always in the same order.
"""

from __future__ import annotations

# A card named on its own seat's earphone: one key per bullhead count, so the pack needs 104 clips, not
# 104 x 28 (and each language can say "1 bullhead" / "2 bullheads" / 牛1頭 naturally).
CARD_KEYS = {1: "card.b1", 2: "card.b2", 3: "card.b3", 5: "card.b5", 7: "card.b7"}

PHRASES: dict[str, tuple[str, ...]] = {
    **{key: ("card",) for key in CARD_KEYS.values()},
    # deal
    "row.start": ("row", "card"),
    "deal.hand_full": (),
    "deal.rows_full": (),
    "deal.held": (),
    "deal.complete": (),
    # rows heard again (D17), and the take_row prompt
    "row.reading": ("row", "size", "card"),
    "row.bullheads": ("heads",),
    "row.not_laid": (),
    # choosing
    "choose.chosen": ("seat",),
    "choose.last": ("seat", "waiting"),  # a seat has chosen, one is left
    "choose.you_chose": ("card",),
    "choose.already": ("seat",),
    "choose.waiting": ("seat",),
    "choose.still": ("count",),
    "taken.so_far": ("bullheads",),
    # reveal and placement
    "reveal.open": (),
    "reveal.card": ("card", "seat"),
    "reveal.place": ("card", "seat", "row"),  # a card of the reveal with its seat and where it goes [N20]
    "place.row": ("seat", "row"),
    "take.to": ("row",),  # after reveal.card: it is the row's 6th card, its owner takes the row
    "take.row": ("seat", "row"),
    "take.bullheads": ("heads",),
    "take_row.ask": ("card", "seat"),
    "take_row.first": ("seat",),
    "take.open": (),  # opens what the row choice says: supersedes the row readings still waiting
    # refusals: never a card number (D16)
    "tap.unknown_tag": (),
    "tap.not_yours": (),
    "tap.refused": (),
    "tap.no_seat": (),
    # rounds and the end
    "round.over": ("round",),
    "score.seat": ("seat", "bullheads"),
    "score.total": ("seat", "bullheads"),
    "round.next": ("round",),
    "game.winner": ("seat",),
    "game.ended": (),
    "game.over": (),
    # where the game stands (after an undo, on resuming)
    "summary.deal": ("round",),
    # referee
    "referee.refused": (),
    # what one event says on one output, as one utterance (kikimimi.games.phrasebook.one_utterance_each)
    "announce": ("parts",),
    "rows.read": ("parts",),  # every row read for the seat that must take one (row.reading, row.bullheads)
}

READINGS = "rows.read"

# Said on their own, not joined into an event's utterance: the choosing phrases and the prompt before the
# first choice are in the catalogs' supersession group "choosing", so a newer one replaces one still waiting
# on the speaker (the reveal's opener replaces them all); the row readings for a taker and the opener of
# the take are in group "rows". Openers carry nothing else: whatever drops one loses nothing.
ON_THEIR_OWN = frozenset({"deal.complete", "choose.chosen", "choose.last", "reveal.open", "take.open", READINGS})

# Phrases whose parameters may carry a card number: the privacy check looks at these.
CARD_PARAM = "card"
