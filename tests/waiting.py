"""Waiting for something a process or a thread will do: one loop for every test's wait, bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(check: Callable[[], Any], what: str, timeout: float = 10.0, every: float = 0.02) -> Any:
    """`check()` again every `every` seconds until it returns something true (returned); the test fails,
    naming `what`, once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(every)
