"""The deck of the simulated table (`devices/decks/sim.toml`), derived from the catalog.

Each tag's UID is `51` + its 1-based position in the catalog as 4 hex digits + a copy number as 2
hex digits: pieces are copy 00, control tags have one set per seat, copies 01..03. So `heart-1` is
`51000100` and seat 2's `ctl-pass` is `51003702`. Four bytes, like a MIFARE Classic UID.

Regenerate the shipped file with `python -m kikimimi.devices.simdeck > devices/decks/sim.toml`.
"""

from __future__ import annotations

import sys

from kikimimi.devices.deck import dump_deck
from kikimimi.games.trident.pieces import CONTROLS, PIECES

SEATS = 3
_ORDER = [*PIECES, *CONTROLS]


def sim_uid(tag_id: str, copy: int = 0) -> str:
    """The simulated UID of a piece (copy 0) or of seat `copy`'s control tag."""
    return f"51{_ORDER.index(tag_id) + 1:04x}{copy:02x}"


def sim_tags(seats: int = SEATS) -> dict[str, str]:
    tags = {sim_uid(pid): pid for pid in PIECES}
    for seat in range(1, seats + 1):
        tags.update({sim_uid(ctl, seat): ctl for ctl in CONTROLS})
    return tags


def sim_deck_text() -> str:
    header = (__doc__ or "").strip().splitlines()
    return dump_deck("trident", sim_tags(), "\n".join(header))


if __name__ == "__main__":
    sys.stdout.write(sim_deck_text())
