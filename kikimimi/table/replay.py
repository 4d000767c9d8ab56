"""Replay an event script: the same events, the same states, and what each output said."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kikimimi.devices.deck import Deck
from kikimimi.games.base import Alert, Effect, Event, Say
from kikimimi.games.registry import DEFAULT_GAME, GameInfo, get_info
from kikimimi.games.session import Session
from kikimimi.table.script import read_script
from kikimimi.voice.catalog import Catalog, catalog


@dataclass
class ReplayStep:
    line: int
    event: Event
    effects: list[Effect]


@dataclass
class Replay:
    session: Session[Any]
    lang: str
    info: GameInfo
    steps: list[ReplayStep] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)
    setup_error: str | None = None

    @property
    def spoken(self) -> list[dict[str, Any]]:
        words = catalog(self.lang, self.info.catalog)
        return [spoken_entry(words, e) for step in self.steps for e in step.effects if isinstance(e, Say)]

    @property
    def alerts(self) -> list[dict[str, Any]]:
        return [
            {"line": step.line, "key": e.key, **dict(e.params)}
            for step in self.steps
            for e in step.effects
            if isinstance(e, Alert)
        ]

    def report(self) -> dict[str, Any]:
        """The contract's state report, plus `alerts` and `refused_lines`."""
        out = self.session.game.report(self.session.state)
        out["spoken"] = self.spoken
        out["alerts"] = self.alerts
        out["refused_lines"] = [{"line": n, "error": msg} for n, msg in self.refused]
        return out

    @property
    def ok(self) -> bool:
        return not self.refused and self.setup_error is None


def spoken_entry(words: Catalog, say: Say) -> dict[str, Any]:
    return {"to": say.to, "key": say.key, "text": words.render(say.key, say.params).text}


def replay(lines: Iterable[str], lang: str = "ja", deck: Deck | None = None) -> Replay:
    """Run a script through a fresh game; refused lines are kept with their numbers, never raised.

    The game and its set-up come from the first line (the default game without one); a malformed
    set-up line is refused and its game, when known, starts with its defaults.
    """
    parsed = list(read_script(lines, deck))
    setup: dict[str, Any] = {"game": DEFAULT_GAME}
    if parsed and parsed[0].setup is not None:
        setup = dict(parsed[0].setup)
    info = get_info(setup.pop("game"))
    session = Session(info.game, setup or info.setup_defaults)
    result = Replay(session, lang, info=info)
    for line in parsed:
        if line.error is not None:
            result.refused.append((line.number, line.error))
            if line.setup is not None:
                result.setup_error = line.error
        elif line.event is not None:
            result.steps.append(ReplayStep(line.number, line.event, session.feed(line.event)))
    return result
