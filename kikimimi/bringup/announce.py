"""What bring-up says for a tap, and where: a reader's taps are spoken on that reader's own output.

`field` speaks on the `speaker`, `hand:N` on seat N's earphone and nowhere else (privacy holds in
bring-up too: a piece tapped on a hand reader is that seat's secret). A reader of any other role is
not spoken at all, only shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kikimimi.devices.deck import Deck
from kikimimi.games.base import FIELD, SPEAKER, Say, seat_of
from kikimimi.games.registry import get_info


def output_for(role: str) -> str | None:
    """The output that speaks a reader's taps: `speaker` for `field`, `hand:N` for `hand:N`, else None."""
    if role == FIELD:
        return SPEAKER
    if seat_of(role) is not None:
        return role
    return None


@dataclass(frozen=True)
class Heard:
    """A tap as bring-up understood it: the tag's id in the deck (None: not in the deck) and the phrase."""

    role: str
    uid: str
    tag_id: str | None
    say: Say | None  # None when the reader's role has no output


def phrase_for(tag_id: str | None, role: str, game: str | None = None) -> tuple[str, dict[str, Any]]:
    """The phrase key and parameters naming a tag, as its game would name it on that reader."""
    if tag_id is None:
        return "bringup.unknown_tag", {}
    from kikimimi.games.registry import DEFAULT_GAME

    return get_info(game or DEFAULT_GAME).name_tag(tag_id, role)


def announce(deck: Deck, role: str, uid: str) -> Heard:
    tag_id = deck.resolve(uid)
    out = output_for(role)
    if out is None:
        return Heard(role, uid, tag_id, None)
    key, params = phrase_for(tag_id, role, deck.game)
    return Heard(role, uid, tag_id, Say(out, key, params))
