"""One way for a test to wait for what another thread or process does: poll it, with a bound, and say what.

A wait that runs out fails the test there, naming what was awaited, rather than letting it go on and fail
later on a symptom (or hang)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def wait_until(predicate: Callable[[], T], timeout: float, what: str | Callable[[], str], *,
               every: float = 0.01, gone: Callable[[], str | None] | None = None) -> T:
    """Poll `predicate` until it gives a true value, and return that value.

    AssertionError after `timeout` seconds, saying "timed out after N s waiting for <what>" (`what` may be a
    function, asked then: a process's output so far); or at once when `gone` gives a reason there is nothing
    left to wait for (a process that exited, see `exited`)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        reason = gone() if gone is not None else None
        if reason is not None:
            raise AssertionError(f"{reason} while waiting for {_said(what)}")
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {_said(what)}")
        time.sleep(every)


def exited(process: subprocess.Popen[Any], name: str = "the process") -> Callable[[], str | None]:
    """A `gone` for `wait_until`: the process's exit, once it has exited."""
    def check() -> str | None:
        code = process.poll()
        return None if code is None else f"{name} exited ({code})"
    return check


def _said(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()
