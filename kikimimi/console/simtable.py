"""The virtual table: with simulated readers, a click or a key taps any piece on any reader.

The widget only says what to tap where (`VirtualTable.Tap`); the console turns that into a real tap
on the simulated reader, which goes through the hub and the deck exactly as hardware would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Input, Label, RadioButton, RadioSet

from kikimimi.console.dialogs import safe_id

BASKET = "basket"  # typed instead of an id: a random piece that the state report places nowhere
ROW_WIDTH = 96  # characters of buttons on one row (the console is at least 120 wide)


def groups(pieces: Sequence[str], controls: Sequence[str]) -> dict[str, list[str]]:
    """Pieces grouped by the first word of their id (heart-3 → heart, card-17 → card); controls last."""
    grouped: dict[str, list[str]] = {}
    for piece in pieces:
        grouped.setdefault(piece.split("-", 1)[0], []).append(piece)
    if controls:
        grouped["controls"] = list(controls)
    return grouped


def short_label(tag_id: str, group: str = "") -> str:
    """The id without its group's word: heart-3 → 3, change-spade-2 → spade-2, ctl-pass → pass."""
    word, _, rest = tag_id.partition("-")
    if group == "controls" or word == group:
        return rest or tag_id
    return tag_id


def rows_of(tag_ids: list[str], group: str, width: int = ROW_WIDTH) -> list[list[str]]:
    """The group's ids split into rows of buttons that fit `width` characters."""
    rows: list[list[str]] = [[]]
    used = 0
    for tag_id in tag_ids:
        size = max(len(short_label(tag_id, group)) + 2, 5) + 1
        if rows[-1] and used + size > width:
            rows.append([])
            used = 0
        rows[-1].append(tag_id)
        used += size
    return rows


def basket_of(info: Any, report: Any) -> list[str]:
    """The game's pieces (of its GameInfo) that its state report places nowhere (not in a hand, on the
    field, in a row...): what a player drawing blind could take."""
    placed: set[str] = set()
    _strings(report, placed)
    return sorted(p for p in info.pieces if p not in placed)


def _strings(value: Any, into: set[str]) -> None:
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, into)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _strings(item, into)


def reader_named(word: str, readers: list[str]) -> str | None:
    """`f` or `field`, `2` or `h2` or `hand:2`: the reader, if it is one of `readers`."""
    word = word.strip().lower()
    if word in ("f", "field"):
        role = "field"
    elif word.removeprefix("hand:").removeprefix("h").isdigit():
        role = f"hand:{word.removeprefix('hand:').removeprefix('h')}"
    else:
        role = word
    return role if role in readers else None


def widget_id(text: str) -> str:
    return text.replace(":", "-")


class VirtualTable(Vertical):
    """Choose a reader, then click a piece; or type `[reader] piece` and Enter (`2 heart-3`, `f basket`).

    The pieces, controls and readers are the current game's (`set_game` when another game begins).
    `basket` taps a random piece that the game's report places nowhere, as a player drawing blind would.
    """

    DEFAULT_CSS = """
    VirtualTable { height: 1fr; }
    VirtualTable #vt-controls { height: 1; }
    VirtualTable RadioSet, VirtualTable RadioSet:focus {
        layout: horizontal; width: auto; height: 1; border: none; padding: 0;
    }
    VirtualTable RadioSet > RadioButton { width: auto; margin-right: 2; }
    VirtualTable Input { width: 30; margin: 0 1; }
    VirtualTable .vt-row { height: 1; }
    VirtualTable #vt-controls { margin-bottom: 1; }
    VirtualTable #vt-pieces { height: 1fr; }
    VirtualTable .vt-row Label { width: 10; color: $text-muted; }
    VirtualTable .vt-row Button { width: auto; min-width: 5; margin-right: 1; }
    """

    BINDINGS = [Binding("escape", "leave", "back to the keys", show=False)]

    class Tap(Message):
        def __init__(self, reader: str, tag_id: str) -> None:
            super().__init__()
            self.reader, self.tag_id = reader, tag_id

    def __init__(self, readers: list[str], pieces: Sequence[str] = (), controls: Sequence[str] = (),
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.readers = list(readers)
        self.pieces = list(pieces)
        self.controls = list(controls)

    def compose(self) -> ComposeResult:
        yield from self._widgets()

    def _widgets(self) -> list[Widget]:
        reader_set = RadioSet(*(RadioButton(role, value=i == 0, id=f"vt-reader-{widget_id(role)}")
                                for i, role in enumerate(self.readers)), id="vt-reader")
        typed = Input(placeholder="[reader] piece, Enter taps", id="vt-piece", compact=True,
                      suggester=SuggestFromList([BASKET, *self.pieces, *self.controls], case_sensitive=False))
        top = Horizontal(reader_set, typed, Button("random from basket", id="vt-basket", compact=True),
                         id="vt-controls")
        rows = []
        for group, tag_ids in groups(self.pieces, self.controls).items():
            for i, row in enumerate(rows_of(tag_ids, group)):
                buttons = [Button(short_label(t, group), id=f"tap-{safe_id(t)}", compact=True, tooltip=t)
                           for t in row]
                rows.append(Horizontal(Label(group if i == 0 else ""), *buttons, classes="vt-row"))
        return [top, VerticalScroll(*rows, id="vt-pieces")]

    async def set_game(self, readers: list[str], pieces: Sequence[str], controls: Sequence[str]) -> None:
        """Show another game's pieces, controls and readers."""
        if (list(readers), list(pieces), list(controls)) == (self.readers, self.pieces, self.controls):
            return
        self.readers, self.pieces, self.controls = list(readers), list(pieces), list(controls)
        await self.remove_children()
        await self.mount_all(self._widgets())

    @property
    def reader(self) -> str:
        index = self.query_one("#vt-reader", RadioSet).pressed_index
        return self.readers[max(index, 0)]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = str(event.button.id)
        if button == "vt-basket":
            tag_id = BASKET
        else:
            wanted = button.removeprefix("tap-")
            tag_id = next((t for t in [*self.pieces, *self.controls] if safe_id(t) == wanted), wanted)
        self.post_message(self.Tap(self.reader, tag_id))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        words = event.value.strip().lower().split()
        if not words:
            return
        reader = self.reader
        if len(words) == 2:
            reader = reader_named(words[0], self.readers) or ""
            if not reader:
                self.notify(f"no simulated reader {words[0]!r} (use f, a seat number or {', '.join(self.readers)})",
                            severity="error")
                return
        self.post_message(self.Tap(reader, words[-1]))
        event.input.value = ""

    def action_leave(self) -> None:
        """Give the keys back to the console's actions (an input takes every letter)."""
        self.screen.set_focus(None)

    def focus_input(self) -> None:
        self.query_one("#vt-piece", Input).focus()
