"""The Trident: the flagship game of the kikimimi table."""

from collections.abc import Sequence
from typing import Any

from kikimimi.games.base import Effect, Event, GameEngine
from kikimimi.games.registry import GameInfo, GameUI, RefereeAction, SetupKey, register
from kikimimi.games.trident.pieces import CONTROLS, PIECES


def trident_game() -> type[GameEngine[Any]]:
    """The Trident's game class: its engine with its capabilities, imported when a game is played. The
    capabilities are declared here, on a subclass, until the engine's rewrite takes them onto Trident."""
    from kikimimi.games.trident import bots, invariants, ladder
    from kikimimi.games.trident.engine import Trident
    from kikimimi.games.trident.state import TridentState

    class TridentGame(Trident):
        privacy = staticmethod(invariants.privacy_leaks)

        def bots(self) -> dict[str, Any]:
            return {"bot": bots.table_bots, "perfect": bots.perfect_bots, "rules": bots.rule_bots,
                    "strong": bots.strong_bots}

        def invariants(self, before: TridentState, event: Event, effects: Sequence[Effect],
                       after: TridentState) -> list[str]:
            return invariants.check(after, event, effects)  # its check reads the state after only

    TridentGame.ladder = ladder.LADDER
    return TridentGame


def trident_ui() -> GameUI:
    from kikimimi.games.trident.guide import console_guide
    from kikimimi.games.trident.keyboard import KeyboardSeat
    from kikimimi.games.trident.phrases import tag_phrase
    from kikimimi.games.trident.view import state_text

    return GameUI(view=state_text, guide=console_guide, keyboard=KeyboardSeat, tag_phrase=tag_phrase)


INFO = register(GameInfo(
    id="trident",
    titles={"ja": "トライデント", "en": "The Trident"},
    seats=(3, 3),
    game_class=trident_game,
    ui=trident_ui,
    pieces=tuple(PIECES),
    controls=CONTROLS,
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2, 3), help="the first player"),
        SetupKey("rules", "standard", str, choices=("standard", "competition"),
                 help="competition ranks by points in hand"),
    ),
    referee_actions=(
        RefereeAction("forgot", "Everyone forgot", "f"),
        RefereeAction("penalty", "Penalty", "p", ("seat",)),
    ),
    max_events=3000,
    summary="three players shed pieces by suit; declare Trident at one or two",
))

__all__ = ["INFO"]
