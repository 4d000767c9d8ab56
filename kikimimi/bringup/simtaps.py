"""Taps for simulated readers: typed on stdin (`hand:2 heart-1` or `field 23000100`), or made up for
`--latency` so that a table without readers can still be measured end to end."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

from kikimimi.devices.deck import Deck, normalize_uid
from kikimimi.devices.hub import Hub


def parse_typed(line: str, deck: Deck, roles: list[str]) -> tuple[str, str]:
    """`ROLE TAG` -> (role, uid); TAG is a UID in hex or a piece/control id of the deck."""
    parts = line.split()
    if len(parts) != 2:
        raise ValueError(f"type ROLE TAG, e.g. `hand:2 heart-1` or `field 23000100` (roles: {', '.join(roles)})")
    role, tag = parts
    if role not in roles:
        raise ValueError(f"{role!r} is not a simulated reader here; simulated: {', '.join(roles)}")
    uids = deck.uids_of(tag)
    if uids:
        return role, uids[0]
    uid = normalize_uid(tag)
    if not uid or any(c not in "0123456789abcdef" for c in uid):
        raise ValueError(f"{tag!r} is neither a tag UID (hex) nor an id in the deck {deck.source}")
    return role, uid


def feed_stdin(hub: Hub, deck: Deck, roles: list[str], complain: Callable[[str], None],
               stream: TextIO | None = None) -> threading.Thread:
    """Read `ROLE TAG` lines on a daemon thread and tap them on the simulated readers."""
    source = stream or sys.stdin

    def work() -> None:
        for line in source:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                role, uid = parse_typed(line, deck, roles)
            except ValueError as exc:
                complain(str(exc))
                continue
            hub.simulated(role).tap_and_remove(uid)

    thread = threading.Thread(target=work, name="bringup-stdin", daemon=True)
    thread.start()
    return thread


def sample_uids(deck: Deck, count: int = 4) -> list[str]:
    """Distinct piece tags to tap in a measurement (taken in turn, so that no tap is debounced away)."""
    uids = [uid for uid, tag_id in deck.tags.items() if not tag_id.startswith("ctl-")][:count]
    return uids or ["0badc0de", "0badc0df"]
