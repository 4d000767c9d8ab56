"""Enrollment: tap every piece and control tag in turn to write the deck (UID -> piece id).

Walks the game's pieces (from the game registry), then its control tags (one set per seat by
default), asking for each ("tap heart 1").
A tag already in the deck is refused with the piece it already is. The deck is rewritten atomically
after every accepted tag, so enrollment can be stopped at any time (Ctrl-C) and resumed by running
the same command again: tags already enrolled are skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kikimimi.devices.deck import load_deck, normalize_uid, save_deck
from kikimimi.games.registry import GameInfo

HEADER = ("A kikimimi deck written by `kikimimi enroll`: tag UID = piece or control id.\n"
          "Edit by hand if needed; run enroll again to fill what is missing.")


@dataclass(frozen=True)
class Slot:
    tag_id: str
    copy: int = 0  # 0 for a piece; control tags: which set (1 = seat 1's)

    def spoken(self) -> str:
        """How the prompt names it: `heart 1`, `change heart 2`, `control pass (set 2)`."""
        if self.copy:
            name = self.tag_id[4:] if self.tag_id.startswith("ctl-") else self.tag_id
            return f"control {name.replace('-', ' ')} (set {self.copy})"
        return self.tag_id.replace("-", " ")


def plan(info: GameInfo, control_sets: int | None = None) -> list[Slot]:
    """Every tag to enroll, in the order asked: the game's pieces, then each set of control tags
    (by default one set per seat of the game's largest table)."""
    sets = info.seats[1] if control_sets is None else control_sets
    return [Slot(pid) for pid in info.pieces] + [Slot(ctl, n) for n in range(1, sets + 1) for ctl in info.controls]


class Enrollment:
    def __init__(self, deck_path: str | Path, info: GameInfo, control_sets: int | None = None) -> None:
        self.path = Path(deck_path)
        self.info = info
        self.slots = plan(info, control_sets)
        self.tags: dict[str, str] = {}
        if self.path.exists():
            deck = load_deck(self.path)  # DeckError (file:line) if it is broken
            if deck.game != info.id:
                raise ValueError(f"{self.path} is a deck of {deck.game}, not {info.id}; give another --deck")
            self.tags = dict(deck.tags)

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
            save_deck(self.path, self.info.id, self.tags, HEADER)
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
