"""Player names as data: checked at entry, escaped wherever they are shown."""

from __future__ import annotations

import unicodedata

import regex

from kikimimi.shown import UNSHOWN
from kikimimi.shown import echoed as echoed  # shown escaped, also by the records
from kikimimi.shown import printable as printable

MAX_NAME = 40

# Invisible characters (Unicode's Default_Ignorable_Code_Point: zero-width space, word joiner, soft hyphen,
# tags, Hangul fillers, ...): "Ann" with one is shown as "Ann" and would be a second player. Refused in a name;
# the joiner and variation selectors an emoji or an ideograph's variant needs are kept, but folded away when
# names are compared. The property comes from regex's Unicode tables (the standard library has none).
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_KEPT_INVISIBLE = regex.compile(r"[\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]")


class RecordError(ValueError):
    """A request the records cannot honour (unknown player, closed meeting, ...), saying how to fix it."""


# Refused in a name like a control character: what is shown escaped, and the bidi marks (they reorder a line too).
_REFUSED = UNSHOWN | {"\u061c", "\u200e", "\u200f"}


def unshown_character(text: str) -> str | None:
    """The first character a name or label may not hold: a control character, a bidi override, isolate
    or mark, a line or paragraph separator (they break or reorder the line it is shown on)."""
    return next((c for c in text if unicodedata.category(c) == "Cc" or c in _REFUSED), None)


def invisible_character(text: str) -> str | None:
    """The first invisible (default-ignorable) character of a name, but for an emoji's joiner and the
    variation selectors (see `_INVISIBLE`)."""
    return next((c for c in text if _INVISIBLE.match(c) and not _KEPT_INVISIBLE.match(c)), None)


def name_key(name: str) -> str:
    """What two names are compared by: spaces folded, NFKC (fullwidth "ＡＮＮ" is "ANN", halfwidth kana
    are kana), case folded, invisible characters left out. "Ann", "ＡＮＮ" and "Ann" with an emoji's
    joiner are one player."""
    visible = _INVISIBLE.sub("", str(name))
    return unicodedata.normalize("NFKC", " ".join(visible.split())).casefold()


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
    invisible = invisible_character(str(name))
    if invisible is not None:
        raise RecordError(
            f"player name {printable(ascii(str(name)))} holds an invisible character (U+{ord(invisible):04X}); "
            "type the name again with letters, digits, spaces and punctuation only"
        )
    clean = " ".join(str(name).split())
    if not clean:
        raise RecordError("a player's name cannot be empty")
    if "," in clean:
        raise RecordError(f"player name {clean!r} has a comma; commas separate names in --players")
    if len(clean) > MAX_NAME:
        raise RecordError(f"player name {clean[:20]!r}... is longer than {MAX_NAME} characters")
    return clean
