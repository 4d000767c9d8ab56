"""Numeron: guess the other seat's number of distinct digits; the table is the game master."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.numeron.pieces import CONTROLS, PIECES
from kikimimi.games.registry import GameClass, GameInfo, SetupKey, register


def setup_check(setup: Mapping[str, Any]) -> str | None:
    """Rules across set-up keys (contract "Set-up", practice mode)."""
    from kikimimi.games.numeron.engine import valid_number

    if setup.get("items", 0) and setup.get("digits", 3) < 4:
        return "items need 4 or more digits"
    secret = setup.get("secret", "")
    if secret and not setup.get("practice"):
        return "secret is the table's number in practice mode: set practice = true"
    if setup.get("practice"):
        if setup.get("first", 1) != 1:
            return "practice: the player is seat 1 and calls first (first = 1)"
        if setup.get("items", 0):
            return "practice has no items (items = 0)"
        if secret and not valid_number(secret, setup.get("digits", 3)):
            return f"secret must be {setup.get('digits', 3)} distinct digits, not {secret!r}"
    return None


INFO = register(GameInfo(
    id="numeron", titles={"ja": "ヌメロン", "en": "Numeron"}, seats=(2, 2),
    game_class=GameClass(__name__, "Numeron"), pieces=PIECES, controls=CONTROLS,
    setup_check=setup_check, max_events=2000,
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2), help="the seat that calls first"),
        SetupKey("digits", 3, int, choices=(3, 4, 5), help="digits in each number"),
        SetupKey("items", 0, int, minimum=0, maximum=7, help="items each seat may use (4+ digits)"),
        SetupKey("turn_seconds", 60, int, minimum=0, help="seconds per turn (0: no clock)"),
        SetupKey("practice", False, bool, help="one player (seat 1) against the table"),
        SetupKey("secret", "", str, help="practice: the table's number (drawn when empty)"),
    ),
    summary="two players guess each other's number by EAT and BITE; seven items",
))

__all__ = ["INFO", "setup_check"]
