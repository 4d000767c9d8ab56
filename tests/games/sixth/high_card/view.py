"""High card's console panel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from kikimimi.games.registry import GameUI


def state_text(report: Mapping[str, Any], *, reveal: bool, players: Any = None, titles: Any = None) -> Text:
    text = Text(f"High card: {report['phase']}\n")
    for seat, card in report["cards"].items():
        shown = card if reveal or report["phase"] == "over" else ("a card" if card else "waiting")
        text.append(f"seat {seat}: {shown}\n")
    return text


UI = GameUI(view=state_text)  # what the console and the demo use of the game
