"""Every phrase key the Numeron engine can emit, with its parameters, and where each may be said.

The catalogs (`voices/catalog/numeron.{ja,en}.toml`) define each with exactly these parameters (a test
checks both). Parameter types (the catalogs' `[params]`): `number` and `call` are digit strings said
digit by digit, `digit`, `eat`, `bite`, `slash`, `count` numbers, `pos`/`pos2` a place name
(`ones` ... `ten_thousands`), `cls` high|low, `item` an item name.
"""

from __future__ import annotations

PHRASES: dict[str, tuple[str, ...]] = {
    # any reader
    "tap.unknown_tag": (),
    "tap.refused": (),
    "place.none": ("place",),
    "game.over": (),
    # set
    "set.digit": ("digit",),
    "set.repeated": ("digit",),
    "set.number_set": ("number",),
    "set.cleared": (),
    "set.ready": ("seat",),
    "set.not_ready": ("seat",),
    "set.field": (),
    "play.start": ("seat",),
    "practice.start": (),
    "summary.set": (),
    # calls
    "call.digit": ("digit",),
    "call.repeated": (),
    "call.judged": ("eat", "bite"),  # not the call: each of its digits was just echoed (the log keeps it)
    "call.judged_next": ("eat", "bite", "seat"),  # the judgement and the seat that calls next, one phrase
    "call.numeron": ("call", "seat"),  # the winner with the winning call: one phrase, said at once
    "call.again": ("seat",),
    "call.cleared": ("seat",),
    "turn.next": ("seat",),
    # items
    "item.uses": ("seat", "item"),
    "item.none": (),
    "item.not_yours": (),
    "item.not_now": (),
    "item.used": ("item",),
    "item.no_more": (),
    "item.cancelled": ("seat", "item"),
    "item.in_progress": ("seat", "item"),
    "step.refused": (),
    "highlow.answer": ("pos", "cls"),
    "slash.answer": ("slash",),
    "target.prompt": (),
    "target.in": ("digit", "pos"),
    "target.out": ("digit",),
    "double.prompt": ("seat",),
    "double.refused": (),
    "double.reveal": ("seat", "pos", "digit"),
    "shuffle.prompt": (),
    "shuffle.digit": ("digit",),
    "shuffle.refused": ("digit",),
    "shuffle.private": ("number",),
    "shuffle.done": ("seat",),
    "change.prompt": (),
    "change.place": ("pos",),
    "change.ask": (),
    "change.impossible": (),
    "change.refused": ("digit",),
    "change.private": ("number",),
    "change.done": ("seat", "pos", "cls"),
    "move.prompt": (),
    "move.from": ("pos",),
    "move.to": ("pos",),
    "move.same_place": (),
    "move.ask": (),
    "move.impossible": (),
    "move.refused": ("digit",),
    "move.private": ("number",),
    "move.done": ("seat", "pos", "pos2"),
    # hearing (D15)
    "hear.digit": ("digit",),
    "hear.item": ("item", "seat"),
    "hear.item_spent": ("item", "seat"),
    "hear.place": ("pos", "digit"),
    "hear.place_not_set": ("pos",),
    "clear.nothing": (),
    "clear.not_now": (),
    "repeat.number": ("number",),
    "repeat.not_set": (),
    "repeat.call": ("seat", "call", "eat", "bite"),
    "repeat.no_calls": (),
    # the clock (D14) and the end
    "timeout.passed": ("seat",),
    "timeout.double": ("seat",),
    "game.number": ("seat", "number"),
    "game.numbers": ("number1", "number2"),  # both numbers at the end, in one phrase
    "game.ended": (),
    "practice.calls": ("count",),
    "practice.solver": ("count",),
    "referee.refused": (),
}

# Phrases only a seat's earphone may carry (they name the seat's own number or digits).
HAND_ONLY = frozenset({
    "set.digit", "set.repeated", "set.number_set", "set.cleared", "shuffle.prompt", "shuffle.digit",
    "shuffle.refused", "shuffle.private", "change.ask", "change.impossible", "change.refused", "change.private",
    "move.ask", "move.impossible", "move.refused", "move.private", "hear.digit", "hear.item", "hear.item_spent",
    "hear.place", "hear.place_not_set", "clear.nothing", "clear.not_now", "repeat.number", "repeat.not_set",
    "repeat.call", "repeat.no_calls", "double.refused", "step.refused",
})
# Phrases only the speaker says (anything else may go either way: unknown tag, game over, no such place).
SPEAKER_ONLY = frozenset(PHRASES) - HAND_ONLY - {"tap.unknown_tag", "game.over", "place.none"}
