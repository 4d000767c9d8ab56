"""`--audio-test`: each output in turn says what it is ("this is the speaker", "this is seat 2").

One at a time, waiting until each has finished, so that whoever listens at the table can tell which
jack is which. An output whose device is missing says so (its status and why) instead of sounding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kikimimi.games.base import SPEAKER, Say, seat_of
from kikimimi.voice.router import Voice


@dataclass(frozen=True)
class OutputCheck:
    output: str
    text: str  # what it said
    status: str  # the output's status after speaking: ok | fallback | failed
    detail: str


def phrase_for_output(name: str) -> Say:
    seat = seat_of(name)
    if name == SPEAKER or seat is None:
        return Say(name, "bringup.this_is_speaker")
    return Say(name, "bringup.this_is_seat", {"seat": seat})


def audio_test(voice: Voice, report: Callable[[OutputCheck], None] | None = None,
               timeout: float = 15.0) -> list[OutputCheck]:
    """Speak on every output of the voice, in configuration order, one after the other."""
    checks = []
    for name in voice.outputs:
        say = phrase_for_output(name)
        voice.say(say)
        voice.wait_idle(timeout=timeout)
        health = voice.health()[name]
        check = OutputCheck(name, voice.catalog.render(say.key, say.params).text, health.status, health.detail)
        checks.append(check)
        if report is not None:
            report(check)
    return checks
