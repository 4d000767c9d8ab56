"""Binding readers to roles by a tap: "tap any tag on the seat 1 reader", for each role in turn.

The first reader tapped after a prompt becomes that role's reader. A tap on a reader that is already
bound is refused (and said so), so a hand that lingers on the previous reader does no harm. The
prompts go to the role's own output (the speaker for `field`, seat N's earphone for `hand:N`), so the
person at that seat hears which reader to tap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kikimimi.bringup.announce import output_for
from kikimimi.games.base import FIELD, SPEAKER, Say, seat_of

NextTap = Callable[[], str | None]  # the candidate tapped next, None to stop (Ctrl-C, timeout)


@dataclass(frozen=True)
class Prompt:
    role: str
    text: str  # for the screen
    say: Say | None  # for the role's own output


def prompt_for(role: str) -> Prompt:
    seat = seat_of(role)
    if role == FIELD:
        return Prompt(role, "tap any tag on the FIELD reader (the middle of the table)",
                      Say(SPEAKER, "bringup.tap_field"))
    if seat is not None:
        return Prompt(role, f"tap any tag on the SEAT {seat} hand reader", Say(role, "bringup.tap_hand",
                                                                             {"seat": seat}))
    return Prompt(role, f"tap any tag on the {role} reader", None)


def bound_say(role: str) -> Say | None:
    seat = seat_of(role)
    if role == FIELD:
        return Say(SPEAKER, "bringup.field_bound")
    if seat is not None:
        return Say(role, "bringup.hand_bound", {"seat": seat})
    return None


def bind(roles: Sequence[str], candidates: Sequence[str], next_tap: NextTap,
         tell: Callable[[str, Say | None], None]) -> dict[str, str]:
    """role -> candidate, asking for each role in order. Stops early when no candidate is left or
    `next_tap()` returns None; the roles bound so far are returned."""
    bound: dict[str, str] = {}
    owner: dict[str, str] = {}
    for role in roles:
        if len(owner) == len(candidates):
            tell(f"no reader left to bind to {role} (and after it); plug in more readers", None)
            break
        prompt = prompt_for(role)
        tell(prompt.text, prompt.say)
        while True:
            tapped = next_tap()
            if tapped is None:
                return bound
            if tapped in owner:
                out = output_for(role)
                tell(f"  that reader is already {owner[tapped]}; {prompt.text}",
                     Say(out, "bringup.reader_taken") if out else None)
                continue
            bound[role], owner[tapped] = tapped, role
            tell(f"  {role} = {tapped}", bound_say(role))
            break
    return bound
