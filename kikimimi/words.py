"""Small words for what the commands print: a count with its noun in the right number ("1 game", "5 games")."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and its noun, singular for exactly one: counted(1, "meeting") is "1 meeting"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
