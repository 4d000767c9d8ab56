"""`--audio-test`: each output in turn says what it is ("this is the speaker", "this is seat 2").

With `--repeat`, each output says it again and again until the person at the table presses Enter
(so one can walk round with an earphone in); `q` and Enter stops.

One at a time, waiting until each has finished, so that whoever listens at the table can tell which
jack is which. An output whose device is missing says so (its status and why) instead of sounding.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from kikimimi.games.base import SPEAKER, Say, seat_of
from kikimimi.voice.router import Voice


@dataclass(frozen=True)
class OutputCheck:
    output: str
    text: str  # what it said
    status: str  # the output's status after speaking: ok | fallback | failed
    detail: str
    times: int = 1  # how often it said it (--repeat: until Enter)


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


# -- --repeat: one output at a time, again and again until the person presses Enter -------------------

NEXT, STOP = "next", "stop"


def stdin_lines(stream: TextIO | None = None) -> queue.Queue[str | None]:
    """Lines typed on stdin, as they come (a daemon thread reads them); None once stdin is closed."""
    lines: queue.Queue[str | None] = queue.Queue()
    source = sys.stdin if stream is None else stream

    def read() -> None:
        for line in source:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="bringup-stdin", daemon=True).start()
    return lines


def _answer(lines: queue.Queue[str | None], wait: float) -> str | None:
    """NEXT for an Enter, STOP for `q` (or stdin closed: nobody can press Enter any more), None: keep on."""
    try:
        line = lines.get(timeout=wait)
    except queue.Empty:
        return None
    if line is None or line.strip().lower() in ("q", "quit"):
        return STOP
    return NEXT


def audio_test_repeat(
    voice: Voice,
    lines: queue.Queue[str | None],
    report: Callable[[OutputCheck], None] | None = None,
    prompt: Callable[[str, str], None] | None = None,
    pause: float = 0.8,
    timeout: float = 15.0,
) -> tuple[list[OutputCheck], bool]:
    """Each output in turn says what it is until a line arrives (Enter: the next output; q: stop).

    It says it at least once, and an Enter pressed while it speaks moves on once it has finished, so
    two phrases never overlap. (checks, stopped early)."""
    checks = []
    for name in voice.outputs:
        say = phrase_for_output(name)
        text = voice.catalog.render(say.key, say.params).text
        if prompt is not None:
            prompt(name, text)
        times, answer = 0, None
        while answer is None:
            voice.say(say)
            voice.wait_idle(timeout=timeout)
            times += 1
            answer = _answer(lines, pause)
        health = voice.health()[name]
        check = OutputCheck(name, text, health.status, health.detail, times)
        checks.append(check)
        if report is not None:
            report(check)
        if answer == STOP:
            return checks, True
    return checks, False
