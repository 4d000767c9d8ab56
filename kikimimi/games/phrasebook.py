"""Phrase keys every game shares, and the one check that a `Say` is a phrase its game registered.

Each game lists its phrase keys with their parameters (its `phrases.py`); the generic undo
(`kikimimi.games.session`) says the same two phrases for every game, kept in the common catalog.
"""

from __future__ import annotations

from collections.abc import Mapping

from kikimimi.games.base import Say

UNDO_PHRASES: dict[str, tuple[str, ...]] = {"referee.undone": (), "referee.nothing_to_undo": ()}


def phrase_problem(say: Say, phrases: Mapping[str, tuple[str, ...]]) -> str | None:
    """Why `say` is not a registered phrase with exactly its parameters; None when it is."""
    expected = phrases.get(say.key, UNDO_PHRASES.get(say.key))
    if expected is None:
        return f"unregistered phrase {say.key!r}"
    if set(say.params) != set(expected):
        return f"phrase {say.key!r} with params {sorted(say.params)}, expected {sorted(expected)}"
    return None
