"""PC/SC test helpers: the shared pcscd fixture and presenting virtual cards on vpcd readers."""

from __future__ import annotations

import time

import pytest

from testbed.vpcd import PcscdUnavailable, SharedPcscd, VirtualCard


@pytest.fixture(scope="session")
def pcscd():
    """The machine's one pcscd with vpcd's virtual readers, shared by every test process (started here,
    stopped by the last process done with it); skipped, saying why, where it cannot run."""
    try:
        shared = SharedPcscd().acquire()
    except PcscdUnavailable as exc:
        pytest.skip(f"PC/SC tests need pcscd: {exc}")
    yield shared
    shared.release()


def present(card: VirtualCard, hold: float = 0.0) -> None:
    """Put a card on its reader for `hold` s, then lift it."""
    card.place()
    time.sleep(hold)
    card.lift()
