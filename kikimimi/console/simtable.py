"""The virtual table: with simulated readers, a click or a key taps any piece on any reader.

The widget only says what to tap where (`VirtualTable.Tap`); the console turns that into a real tap
on the simulated reader, which goes through the hub and the deck exactly as hardware would.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input, Label, RadioButton, RadioSet

from kikimimi.games.trident.pieces import CONTROLS, PIECES, SUITS

BASKET = "basket"  # typed instead of an id: a random piece from the basket
GROUPS = {
    **{f"{suit}s": [p for p in PIECES if p.startswith(f"{suit}-")] for suit in SUITS},
    "changes": [p for p in PIECES if p.startswith("change-") and p != "change-draw4"],
    "attacks": [p for p in PIECES if p.startswith(("draw", "change-draw4", "unknown-"))],
    "controls": list(CONTROLS),
}
_SUIT = {"heart": "♥", "diamond": "♦", "spade": "♠", "clover": "♣"}


def short_label(tag_id: str) -> str:
    """A few characters for a button: heart-3 → ♥3, change-spade-2 → c♠2, ctl-pass → pass."""
    if tag_id.startswith("ctl-"):
        rest = tag_id[4:]
        return _SUIT.get(rest, rest.capitalize())
    if tag_id.startswith("unknown-"):
        return {"unknown-change-clover": "U c♣", "unknown-change-spade": "U c♠",
                "unknown-turn-right": "U ↷", "unknown-turn-left": "U ↶"}[tag_id]
    if tag_id == "change-draw4":
        return "CD4"
    kind, _, number = tag_id.rpartition("-")
    if kind in _SUIT:
        return f"{_SUIT[kind]}{number}"
    if kind.startswith("change-"):
        return f"c{_SUIT[kind[7:]]}{number}"
    return f"{kind.upper().replace('DRAW', 'D')}·{number}"


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

    `basket` taps a random piece from the basket, as a player drawing blind would.
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
    VirtualTable .vt-row Label { width: 10; color: $text-muted; }
    VirtualTable .vt-row Button { width: auto; min-width: 7; margin-right: 1; }
    """

    BINDINGS = [Binding("escape", "leave", "back to the keys", show=False)]

    class Tap(Message):
        def __init__(self, reader: str, tag_id: str) -> None:
            super().__init__()
            self.reader, self.tag_id = reader, tag_id

    def __init__(self, readers: list[str], **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kwargs)
        self.readers = readers

    def compose(self) -> ComposeResult:
        with Horizontal(id="vt-controls"):
            with RadioSet(id="vt-reader"):
                for i, role in enumerate(self.readers):
                    yield RadioButton(role, value=i == 0, id=f"vt-reader-{widget_id(role)}")
            yield Input(placeholder="[reader] piece, Enter taps", id="vt-piece", compact=True,
                        suggester=SuggestFromList([BASKET, *PIECES, *CONTROLS], case_sensitive=False))
            yield Button("random from basket", id="vt-basket", compact=True)
        for group, tag_ids in GROUPS.items():
            with Horizontal(classes="vt-row"):
                yield Label(group)
                for tag_id in tag_ids:
                    yield Button(short_label(tag_id), id=f"tap-{tag_id}", compact=True, tooltip=tag_id)

    @property
    def reader(self) -> str:
        index = self.query_one("#vt-reader", RadioSet).pressed_index
        return self.readers[max(index, 0)]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = str(event.button.id)
        tag_id = BASKET if button == "vt-basket" else button.removeprefix("tap-")
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
                self.notify(f"no simulated reader {words[0]!r} (use f, 1, 2, 3 or {', '.join(self.readers)})",
                            severity="error")
                return
        self.post_message(self.Tap(reader, words[-1]))
        event.input.value = ""

    def action_leave(self) -> None:
        """Give the keys back to the console's actions (an input takes every letter)."""
        self.screen.set_focus(None)

    def focus_input(self) -> None:
        self.query_one("#vt-piece", Input).focus()
