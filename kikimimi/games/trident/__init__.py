"""The Trident: the flagship game of the kikimimi table."""

from collections.abc import Sequence

from kikimimi.games.base import Effect, Event
from kikimimi.games.registry import GameInfo, RefereeAction, SetupKey, register
from kikimimi.games.trident.engine import RULES, Trident
from kikimimi.games.trident.pieces import CONTROLS, PIECES
from kikimimi.games.trident.state import TridentState


def check_invariants(before: TridentState, event: Event, effects: Sequence[Effect], after: TridentState) -> list[str]:
    """The Trident's invariants in the one signature every game registers (its check reads the state after)."""
    from kikimimi.games.trident.invariants import check

    return check(after, event, effects)


INFO = register(GameInfo(
    id="trident",
    titles={"ja": "トライデント", "en": "The Trident"},
    seats=(3, 3),
    engine="kikimimi.games.trident.engine:Trident",
    pieces=tuple(PIECES),
    controls=CONTROLS,
    setup_keys=(
        SetupKey("first", 1, int, choices=(1, 2, 3), help="the first player"),
        SetupKey("rules", "standard", str, choices=RULES, help="competition ranks by points in hand"),
    ),
    bots={"bot": "kikimimi.games.trident.bots:table_bots",
          "perfect": "kikimimi.games.trident.bots:perfect_bots",
          "rules": "kikimimi.games.trident.bots:rule_bots",
          "strong": "kikimimi.games.trident.bots:strong_bots"},
    view="kikimimi.games.trident.view:state_text",
    guide="kikimimi.games.trident.guide:console_guide",
    keyboard="kikimimi.games.trident.keyboard:KeyboardSeat",
    tag_phrase="kikimimi.games.trident.phrases:tag_phrase",
    referee_actions=(
        RefereeAction("forgot", "Everyone forgot", "f"),
        RefereeAction("penalty", "Penalty", "p", ("seat",)),
    ),
    privacy="kikimimi.games.trident.invariants:privacy_leaks",
    invariants="kikimimi.games.trident:check_invariants",
    bench="kikimimi.games.trident.bench",
    ladder="kikimimi.games.trident.ladder",
    max_events=3000,
    summary="three players shed pieces by suit; declare Trident at one or two",
))

__all__ = ["INFO", "Trident", "TridentState"]
