"""The decks of the simulated table (`devices/decks/<game>-sim.toml`), derived from the game registry.

Each tag's UID is a byte of its game (from the game id, so that one game's tag is unknown to another
game's deck), its 1-based position among the game's pieces and controls as 4 hex digits, and a copy
number as 2 hex digits: pieces are copy 00, control tags have one set per seat, copies 01..N. Four
bytes, like a MIFARE Classic UID.

Regenerate the shipped files with `kikimimi simtables --write` (or one game's with `--game G`).
"""

from __future__ import annotations

import zlib
from pathlib import Path

from kikimimi.devices.deck import dump_deck
from kikimimi.games.registry import GameInfo


def game_byte(info: GameInfo) -> str:
    return f"{zlib.crc32(info.id.encode()) & 0xFF:02x}"


def sim_uid(tag_id: str, copy: int = 0, info: GameInfo | None = None) -> str:
    """The simulated UID of a piece (copy 0) or of seat `copy`'s control tag (of the default game unless
    `info` is given)."""
    if info is None:
        from kikimimi.games.registry import DEFAULT_GAME, get_info

        info = get_info(DEFAULT_GAME)
    order = info.pieces.index(tag_id) if tag_id in info.pieces else len(info.pieces) + info.controls.index(tag_id)
    return f"{game_byte(info)}{order + 1:04x}{copy:02x}"


def sim_tags(info: GameInfo) -> dict[str, str]:
    """Every piece once and one set of control tags per seat (the most seats the game allows)."""
    tags = {sim_uid(pid, 0, info): pid for pid in info.pieces}
    for seat in range(1, info.seats[1] + 1):
        tags.update({sim_uid(ctl, seat, info): ctl for ctl in info.controls})
    return tags


def sim_deck_path(info: GameInfo, folder: Path) -> Path:
    return folder / f"{info.id}-sim.toml"


def sim_deck_text(info: GameInfo) -> str:
    header = [f"The simulated table's deck for {info.title('en')}.", "",
              *(line for line in (__doc__ or "").strip().splitlines()[2:])]
    return dump_deck(info.id, sim_tags(info), "\n".join(header))
