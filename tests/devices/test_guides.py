"""The hardware guides' figures that come from the project's own data stay true to it."""

from __future__ import annotations

import re
import xml.dom.minidom
from collections import Counter
from pathlib import Path

from kikimimi.devices.config import load_profile, profile_names
from kikimimi.devices.deck import load_deck
from kikimimi.games.registry import get_info
from kikimimi.paths import data_dir

DOCS = Path(__file__).parents[2] / "hardware_docs"
TITLES = {"The Trident": "trident", "6 nimmt!": "nimmt", "Numeron": "numeron", "Royal Nine": "royal-nine",
          "Suhjong": "suhjong"}


def test_the_bill_of_materials_counts_the_shipped_decks_tags():
    text = (DOCS / "bill-of-materials.md").read_text()
    rows = {m[0]: [int(x) for x in m[1:]] for m in
            re.findall(r"^\| ([^|*]+?) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)}
    assert set(rows) == set(TITLES), rows
    totals = [0, 0, 0, 0]
    for title, game in TITLES.items():
        deck = load_deck(data_dir("devices") / "decks" / f"{game}-sim.toml")
        assert get_info(game).id == deck.game
        copies = Counter(deck.tags.values())
        pieces = sum(1 for n in copies.values() if n == 1)
        controls = {t: n for t, n in copies.items() if n > 1}
        seats = max(controls.values())
        expected = [pieces, len(controls), seats, sum(controls.values()), len(deck.tags)]
        assert rows[title] == expected, (title, rows[title], expected)
        for i, value in enumerate((pieces, len(controls), sum(controls.values()), len(deck.tags))):
            totals[i] += value
    assert f"| **all five** | **{totals[0]}** | **{totals[1]}** | | **{totals[2]}** | **{totals[3]}** |" in text


def test_every_reader_the_guides_recommend_has_a_profile_and_prices_carry_the_date_checked():
    readers = (DOCS / "readers.md").read_text()
    for profile in ("rcs300", "acr1252u", "acr122u", "pn532-uart"):
        assert profile in profile_names() and f"`{profile}`" in readers
        assert load_profile(profile)["path_example"]
    bom = (DOCS / "bill-of-materials.md").read_text()
    assert "checked 2026-11" in bom
    for svg in ("wiring-3-seats.svg", "wiring-10-seats.svg"):
        assert svg in bom
        xml.dom.minidom.parse(str(DOCS / svg))  # well-formed
