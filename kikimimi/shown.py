"""Text from outside (a name, a label, a value someone typed or a script holds) made safe to print.

Neutral: every layer shows such text (the table's messages, the records, the console, the venue), so it
lives below them all.
"""

from __future__ import annotations

import unicodedata

# Shown escaped, never sent: C0/C1 controls (an escape starts a terminal sequence), line and paragraph
# separators, and the bidi overrides and isolates (they reorder what follows on the line).
UNSHOWN = {c for c in map(chr, range(0x2000, 0x2070)) if unicodedata.category(c) in ("Zl", "Zp")} | set(
    map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def printable(text: object) -> str:
    """Data (a name, a label, a message holding one) made safe for a terminal or the console: control
    characters and bidi overrides are written as escapes (`\\x1b`, `\\u202e`), never sent as they are.
    Markup is not this function's business: draw names with rich `Text`, never as markup."""
    s = str(text)
    if s.isascii() and s.isprintable():
        return s
    return "".join(
        (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        if unicodedata.category(c) == "Cc" or c in UNSHOWN else c
        for c in s
    )


def echoed(value: object, limit: int = 60, quoted: bool = True) -> str:
    """A value an error message quotes back (a piece, a reader, a key someone typed or a script holds): its
    repr (its text when not `quoted`), escaped as `printable`, cut to `limit` characters with the length
    said, so that a 5 MB name is one readable line."""
    text = printable(repr(value) if quoted else value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(str(value))} characters)"
