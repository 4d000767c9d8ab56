"""Debian's Chromium driven by Playwright, for the pages' browser tests (the venue's standings page and the
Priest's web console). Playwright's own browser builds are never downloaded."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying the internet, which a club's table lacks.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium for one test file's pages; closed at the end of the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
