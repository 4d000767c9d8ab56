"""Player names as data: checked at entry, escaped wherever they are shown."""

from __future__ import annotations

import unicodedata

from kikimimi.shown import UNSHOWN, echoed, printable  # noqa: F401 - shown escaped, also by the records

MAX_NAME = 40


class RecordError(ValueError):
    """A request the records cannot honour (unknown player, closed meeting, ...), saying how to fix it."""


# Refused in a name like a control character: what is shown escaped, and the bidi marks (they reorder a line too).
_REFUSED = UNSHOWN | {"\u061c", "\u200e", "\u200f"}


def unshown_character(text: str) -> str | None:
    """The first character a name or label may not hold: a control character, a bidi override, isolate
    or mark, a line or paragraph separator (they break or reorder the line it is shown on)."""
    return next((c for c in text if unicodedata.category(c) == "Cc" or c in _REFUSED), None)


def name_key(name: str) -> str:
    """What two names are compared by: spaces folded, NFKC (fullwidth "ＡＮＮ" is "ANN", halfwidth kana
    are kana) and case folded. "Ann" and "ＡＮＮ" are one player."""
    return unicodedata.normalize("NFKC", " ".join(str(name).split())).casefold()


def check_name(name: str) -> str:
    """A player's name as stored: trimmed; refuses empty, over-long, names with a comma or a control
    character (a tab, a newline, an escape, a bidi override or mark: names are printed on screens, shown
    on the venue's TV and spoken)."""
    control = unshown_character(str(name))
    if control is not None:
        raise RecordError(
            f"player name {str(name)!r} holds a control character (U+{ord(control):04X}); "
            "use letters, digits, spaces and punctuation only"
        )
    clean = " ".join(str(name).split())
    if not clean:
        raise RecordError("a player's name cannot be empty")
    if "," in clean:
        raise RecordError(f"player name {clean!r} has a comma; commas separate names in --players")
    if len(clean) > MAX_NAME:
        raise RecordError(f"player name {clean[:20]!r}... is longer than {MAX_NAME} characters")
    return clean
