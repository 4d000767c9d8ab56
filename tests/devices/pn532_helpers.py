"""PN532 test helpers: emulated chips on pseudo-terminals reachable as tty:NAME:pn532 (a link in /dev)."""

from __future__ import annotations

import os

import pytest

from testbed.pn532_emulator import Pn532Emulator


@pytest.fixture
def pn532():
    """Makes emulated PN532s (closed after the test); skipped, saying why, where /dev is not writable."""
    if not os.access("/dev", os.W_OK):
        pytest.skip("nfcpy's tty:NAME:pn532 opens /dev/NAME: linking a pty there needs root")
    chips: list[Pn532Emulator] = []

    def make() -> Pn532Emulator:
        chips.append(Pn532Emulator())
        return chips[-1]

    yield make
    for chip in chips:
        chip.close()
