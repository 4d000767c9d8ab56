"""Phrase keys every game shares, and the one check that a `Say` is a phrase its game registered.

Each game lists its phrase keys with their parameters (its `phrases.py`); the generic undo
(`kikimimi.games.session`) says the same two phrases for every game, kept in the common catalog.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from kikimimi.games.base import Effect, Say

# The parameter of a phrase said as a sequence of other phrases of its game (the catalogs' type `phrases`):
# one announcement of variable length (a whole reveal) is one utterance on its output, not one per part.
PARTS = "parts"
ANNOUNCE = "announce"  # a game's phrase (`{parts}`) for what one event says on one output, said at once

UNDO_PHRASES: dict[str, tuple[str, ...]] = {"referee.undone": (), "referee.nothing_to_undo": ()}


def phrase_problem(say: Say, phrases: Mapping[str, tuple[str, ...]]) -> str | None:
    """Why `say` is not a registered phrase with exactly its parameters; None when it is."""
    expected = phrases.get(say.key, UNDO_PHRASES.get(say.key))
    if expected is None:
        return f"unregistered phrase {say.key!r}"
    if set(say.params) != set(expected):
        return f"phrase {say.key!r} with params {sorted(say.params)}, expected {sorted(expected)}"
    for part in parts_of(say):
        if (problem := phrase_problem(part, phrases)) is not None:
            return f"in {say.key!r}: {problem}"
    return None


def phrase_problems(effects: Iterable[Effect], phrases: Mapping[str, tuple[str, ...]]) -> list[str]:
    """`phrase_problem` of every Say among `effects`."""
    return [problem for effect in effects
            if isinstance(effect, Say) and (problem := phrase_problem(effect, phrases)) is not None]


def joined(to: str, key: str, says: Sequence[Say], **params: Any) -> Say:
    """One `Say` of `key` whose PARTS are `says` (all meant for `to`), said as one utterance."""
    return Say(to, key, {**params, PARTS: tuple((say.key, dict(say.params)) for say in says)})


def parts_of(say: Say) -> list[Say]:
    """The phrases a joined `Say` is made of (none for an ordinary one); a journal gives lists."""
    value = say.params.get(PARTS)
    if not isinstance(value, (list, tuple)):
        return []
    return [Say(say.to, part[0], part[1]) for part in value]


def flat(says: Iterable[Say]) -> list[Say]:
    """What is said phrase by phrase: each joined `Say` replaced by its parts."""
    return [part for say in says for part in (flat(parts_of(say)) or [say])]


def spoken(says: Iterable[Say]) -> Iterator[Say]:
    """Every phrase said, each joined one followed by its parts (what a privacy check reads)."""
    for say in says:
        yield say
        yield from spoken(parts_of(say))


def one_utterance_each(fx: list[Effect], keep: Collection[str] = (), key: str = ANNOUNCE) -> list[Effect]:
    """What one event says on each output as one utterance: where an event says several phrases on one
    output, they become one ANNOUNCE whose parts they are, at the place of the first (an output says its
    phrases in order, so nothing is reordered; only the wait between them goes, and a newer phrase can
    no longer queue between them). Phrases with a key in `keep` stay on their own (e.g. those a newer
    phrase may supersede). `key`: the joined phrase's own key (ANNOUNCE, or one with a supersession
    group, to replace what the event made stale)."""
    by_output: dict[str, list[int]] = {}
    for index, effect in enumerate(fx):
        if isinstance(effect, Say) and effect.key not in keep:
            by_output.setdefault(effect.to, []).append(index)
    replaced: dict[int, Effect] = {}
    gone: set[int] = set()
    for output, indexes in by_output.items():
        if len(indexes) > 1:
            says = [e for e in (fx[i] for i in indexes) if isinstance(e, Say)]
            replaced[indexes[0]] = joined(output, key, says)
            gone.update(indexes[1:])
    return [replaced.get(i, e) for i, e in enumerate(fx) if i not in gone]
