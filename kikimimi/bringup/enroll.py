"""Enrollment: tap every piece and control tag in turn to write the deck (UID -> piece id).

Walks the Trident catalog, then the control tags (one set per seat), asking for each ("tap heart 1").
A tag already in the deck is refused with the piece it already is. The deck is rewritten atomically
after every accepted tag, so enrollment can be stopped at any time (Ctrl-C) and resumed by running
the same command again: tags already enrolled are skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kikimimi.devices.deck import load_deck, normalize_uid, save_deck
from kikimimi.games.trident.pieces import CONTROLS, PIECES

HEADER = ("A kikimimi deck written by `kikimimi enroll`: tag UID = piece or control id.\n"
          "Edit by hand if needed; run enroll again to fill what is missing.")


@dataclass(frozen=True)
class Slot:
    tag_id: str
    copy: int = 0  # 0 for a piece; control tags: which set (1 = seat 1's)

    def spoken(self) -> str:
        """How the prompt names it: `heart 1`, `change heart 2`, `control pass (set 2)`."""
        if self.tag_id.startswith("ctl-"):
            return f"control {self.tag_id[4:]} (set {self.copy})"
        return self.tag_id.replace("-", " ")


def plan(control_sets: int = 3) -> list[Slot]:
    """Every tag to enroll, in the order asked: the 54 pieces, then each set of control tags."""
    return [Slot(pid) for pid in PIECES] + [Slot(ctl, n) for n in range(1, control_sets + 1) for ctl in CONTROLS]


class Enrollment:
    def __init__(self, deck_path: str | Path, control_sets: int = 3) -> None:
        self.path = Path(deck_path)
        self.slots = plan(control_sets)
        self.tags: dict[str, str] = {}
        if self.path.exists():
            self.tags = dict(load_deck(self.path).tags)  # DeckError (file:line) if it is broken

    def remaining(self) -> list[Slot]:
        have: dict[str, int] = {}
        for tag_id in self.tags.values():
            have[tag_id] = have.get(tag_id, 0) + 1
        todo = []
        for slot in self.slots:
            if have.get(slot.tag_id, 0) > 0:
                have[slot.tag_id] -= 1  # this copy is done
            else:
                todo.append(slot)
        return todo

    def offer(self, slot: Slot, uid: str) -> str | None:
        """Enroll `uid` as `slot`; None if accepted, else why it was refused."""
        uid = normalize_uid(uid)
        if uid in self.tags:
            return f"that tag is already {self.tags[uid]}"
        self.tags[uid] = slot.tag_id
        try:
            save_deck(self.path, "trident", self.tags, HEADER)
        except OSError:
            del self.tags[uid]
            raise
        return None


def run(enrollment: Enrollment, next_tap: Callable[[], str | None], say: Callable[[str], None]) -> bool:
    """Ask for every remaining tag; `next_tap()` returns a tapped UID or None to stop. True if complete."""
    todo = enrollment.remaining()
    total = len(enrollment.slots)
    if not todo:
        say(f"{enrollment.path}: all {total} tags are enrolled")
        return True
    for slot in todo:
        done = total - len(enrollment.remaining()) + 1
        say(f"[{done}/{total}] tap {slot.spoken()}")
        while True:
            uid = next_tap()
            if uid is None:
                say(f"stopped; {total - len(enrollment.remaining())} of {total} enrolled in {enrollment.path}; "
                    "run the same command to resume")
                return False
            refused = enrollment.offer(slot, uid)
            if refused is None:
                say(f"  {normalize_uid(uid)} = {slot.tag_id}")
                break
            say(f"  refused: {refused}; tap {slot.spoken()}")
    say(f"{enrollment.path}: all {total} tags are enrolled")
    return True
