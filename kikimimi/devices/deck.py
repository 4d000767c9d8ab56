"""Decks: which tag UID is which piece or control tag.

A deck is a TOML file in `devices/decks/`:

    game = "trident"                   # the game id (kikimimi games lists them)
    [tags]
    "04a1b2c3d4e5f6" = "heart-1"
    "04a1b2c3d4e5f7" = "ctl-pass"      # several UIDs may map to one control tag (one set per seat)

Loading refuses, with the file and line, an id the game does not know, a UID listed twice and a piece
given two UIDs. At run time an unknown UID resolves to None (the table says "unknown tag").
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

_UID = re.compile(r"^[0-9a-f]{4,32}$")


class DeckError(ValueError):
    """A deck file that cannot be used; the message names the file and line."""


def normalize_uid(uid: str) -> str:
    """Lower-case hex with no separators: `04:A1:B2` and `04a1b2` are the same tag."""
    return re.sub(r"[\s:.-]", "", uid).lower()


@dataclass(frozen=True)
class Deck:
    game: str
    tags: Mapping[str, str]  # normalized uid -> canonical id
    source: str = "<memory>"

    def resolve(self, uid: str) -> str | None:
        """The canonical piece or control id of a UID, None for a tag not in this deck."""
        return self.tags.get(normalize_uid(uid))

    def uids_of(self, tag_id: str) -> list[str]:
        return [uid for uid, tid in self.tags.items() if tid == tag_id]


def _line_of(text: str, needle: str, start: int = 0) -> tuple[int, int]:
    """1-based line of the first occurrence of needle at or after character `start`, and its offset."""
    at = text.find(needle, start)
    if at < 0:
        return 0, start
    return text.count("\n", 0, at) + 1, at + len(needle)


def known_ids(game: str) -> tuple[Callable[[str], bool], frozenset[str]]:
    """Whether an id is a piece or control id of `game`, and its control ids (from the game registry)."""
    from kikimimi.games.registry import UnknownGame, get_info

    try:
        info = get_info(game)
    except UnknownGame as exc:
        raise DeckError(str(exc)) from None
    return info.is_known_id, frozenset(info.controls)


def load_deck(path: str | Path) -> Deck:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"{path}: cannot read deck: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        from kikimimi.paths import not_utf8

        raise DeckError(not_utf8(path, exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{path}: not valid TOML: {exc}") from exc
    from kikimimi.games.registry import DEFAULT_GAME

    game = data.get("game", DEFAULT_GAME)  # decks written before there were several games have no line
    if not isinstance(game, str):
        raise DeckError(f"{path}: game = {game!r}; give a game id (kikimimi games lists them)")
    try:
        is_known, controls = known_ids(game)
    except DeckError as exc:
        raise DeckError(f"{path}: {exc}") from None
    if "tags" not in data:
        raise DeckError(f"{path}: no [tags] table; a deck maps \"UID\" = \"piece-id\" under [tags]")
    raw_tags = data["tags"]
    if not isinstance(raw_tags, dict):
        raise DeckError(f"{path}: [tags] must be a table of \"UID\" = \"piece-id\"")
    tags: dict[str, str] = {}
    piece_uid: dict[str, str] = {}
    where: dict[str, int] = {}
    cursor = 0
    for raw_uid, tag_id in raw_tags.items():
        line, cursor = _line_of(text, raw_uid, cursor)
        uid = normalize_uid(raw_uid)
        if not _UID.match(uid):
            raise DeckError(f"{path}:{line}: {raw_uid!r} is not a tag UID (hex, 4 to 32 digits)")
        if not isinstance(tag_id, str) or not is_known(tag_id):
            raise DeckError(f"{path}:{line}: {tag_id!r} is not a {game} piece or control id")
        if uid in tags:
            raise DeckError(f"{path}:{line}: UID {uid} is listed twice "
                            f"(first at line {where[uid]} as {tags[uid]})")
        if tag_id not in controls:
            if tag_id in piece_uid:
                raise DeckError(f"{path}:{line}: piece {tag_id} already has UID {piece_uid[tag_id]} "
                                f"(line {where[piece_uid[tag_id]]}); a piece has one tag")
            piece_uid[tag_id] = uid
        tags[uid] = tag_id
        where[uid] = line
    return Deck(game, tags, str(path))


def dump_deck(game: str, tags: Mapping[str, str], header: str = "") -> str:
    """A deck's TOML text, tags in the order given; `header` lines become comments."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    lines += [f"game = {_toml_str(game)}", "", "[tags]"]
    lines += [f"{_toml_str(normalize_uid(uid))} = {_toml_str(tag_id)}" for uid, tag_id in tags.items()]
    return "\n".join(lines) + "\n"


def save_deck(path: str | Path, game: str, tags: Mapping[str, str], header: str = "") -> None:
    """Write a deck atomically: a crash or Ctrl-C leaves either the old file or the new one, never half."""
    path = Path(path)
    text = dump_deck(game, tags, header)
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
