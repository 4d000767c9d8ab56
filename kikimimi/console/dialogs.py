"""The Priest's dialogs: each answers with a value (or None when cancelled with Escape)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from kikimimi.games.trident.pieces import PIECES, SUITS

DIALOG_CSS = """
ModalScreen { align: center middle; }
ModalScreen > Vertical {
    width: 64; height: auto; border: thick $accent; background: $surface; padding: 1 2;
}
ModalScreen Horizontal { height: auto; margin-top: 1; }
ModalScreen Button { margin-right: 1; }
ModalScreen .error { color: $error; }
ModalScreen RadioSet { width: 100%; }
"""


class Confirm(ModalScreen[bool]):
    """A yes/no question: y or Enter on Yes confirms, n or Escape cancels."""

    BINDINGS = [Binding("y", "answer(True)", "yes"), Binding("n,escape", "answer(False)", "no")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            with Horizontal():
                yield Button("Yes (y)", id="yes", variant="warning")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class _PickOne(ModalScreen):
    """A question answered by one button (or its key); subclasses list the buttons as (id, label)."""

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def options(self) -> list[tuple[str, str]]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            with Horizontal():
                for button_id, label in self.options():
                    yield Button(label, id=button_id)


class PickSeat(_PickOne):
    """Which seat: keys 1, 2, 3 or the buttons."""

    BINDINGS = [Binding("1", "pick(1)", "seat 1"), Binding("2", "pick(2)", "seat 2"),
                Binding("3", "pick(3)", "seat 3"), Binding("escape", "pick(0)", "cancel")]

    def options(self) -> list[tuple[str, str]]:
        return [(f"seat-{seat}", f"Seat {seat}") for seat in (1, 2, 3)]

    def action_pick(self, seat: int) -> None:
        self.dismiss(seat or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(int(str(event.button.id).removeprefix("seat-")))


class PickSuit(_PickOne):
    """Which suit: h, d, s, c or the buttons."""

    BINDINGS = [*(Binding(suit[0], f"pick('{suit}')", suit) for suit in SUITS),
                Binding("escape", "pick('')", "cancel")]

    def options(self) -> list[tuple[str, str]]:
        return [(f"suit-{suit}", f"{suit} ({suit[0]})") for suit in SUITS]

    def action_pick(self, suit: str) -> None:
        self.dismiss(suit or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id).removeprefix("suit-"))


class NewGame(ModalScreen[tuple[int, str] | None]):
    """First player and rules for the next game; the game in progress is kept in the journal."""

    BINDINGS = [Binding("1", "first(1)", "seat 1 first"), Binding("2", "first(2)", "seat 2 first"),
                Binding("3", "first(3)", "seat 3 first"), Binding("t", "toggle_rules", "rules"),
                Binding("enter", "start", "start"), Binding("escape", "cancel", "cancel")]

    def __init__(self, first: int, rules: str, in_progress: bool) -> None:
        super().__init__()
        self.first, self.rules, self.in_progress = first, rules, in_progress

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New game", classes="title")
            yield Static(id="choice")
            if self.in_progress:
                yield Static("The game in progress ends now (the journal keeps it as abandoned).", classes="error")
            with Horizontal():
                yield Button("Start (Enter)", id="start", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        self.query_one("#choice", Static).update(
            f"First player: seat {self.first}  (1, 2, 3)\nRules: {self.rules}  (t toggles standard / competition)"
        )

    def action_first(self, seat: int) -> None:
        self.first = seat
        self._show()

    def action_toggle_rules(self) -> None:
        self.rules = "competition" if self.rules == "standard" else "standard"
        self._show()

    def action_start(self) -> None:
        self.dismiss((self.first, self.rules))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()


DESTINATIONS = ("hand:1", "hand:2", "hand:3", "basket")


class MovePiece(ModalScreen[tuple[str, str] | None]):
    """Correct where a piece is: its id (with completion) and where it really is."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Correct where a piece is (when tracking went wrong)")
            yield Input(placeholder="piece id, e.g. heart-3", id="piece",
                        suggester=SuggestFromList(sorted(PIECES), case_sensitive=False))
            yield Label("It is now in:")
            with RadioSet(id="to"):
                for i, where in enumerate(DESTINATIONS):
                    yield RadioButton(where, value=i == 0, id=f"to-{where.replace(':', '-')}")
            yield Static("", id="error", classes="error")
            with Horizontal():
                yield Button("Move", id="move", variant="warning")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#piece", Input).focus()

    def _submit(self) -> None:
        piece = self.query_one("#piece", Input).value.strip().lower()
        if piece not in PIECES:
            self.query_one("#error", Static).update(f"{piece!r} is not a piece id (heart-1 … unknown-turn-left)")
            return
        index = self.query_one("#to", RadioSet).pressed_index
        self.dismiss((piece, DESTINATIONS[max(index, 0)]))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "move":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Outputs(ModalScreen[None]):
    """Volume and mute per output: up/down choose, + and - change the volume, m mutes; or click."""

    BINDINGS = [Binding("up", "select(-1)", "previous"), Binding("down", "select(1)", "next"),
                Binding("plus,equals_sign", "volume(0.1)", "louder"), Binding("minus", "volume(-0.1)", "softer"),
                Binding("m", "mute", "mute"), Binding("escape,o", "close", "close")]

    def __init__(self, names: list[str], levels: dict[str, list], apply) -> None:  # type: ignore[type-arg]
        super().__init__()
        self.names, self.levels, self.apply = names, levels, apply
        self.selected = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Outputs: ↑↓ choose, + / - volume, m mute, Esc close")
            for name in self.names:
                key = name.replace(":", "-")
                with Horizontal(id=f"row-{key}"):
                    yield Static(id=f"level-{key}")
                    yield Button("−", id=f"down-{key}", compact=True)
                    yield Button("+", id=f"up-{key}", compact=True)
                    yield Button("mute", id=f"mute-{key}", compact=True)

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        for i, name in enumerate(self.names):
            volume, muted = self.levels[name]
            mark = "▶" if i == self.selected else " "
            self.query_one(f"#level-{name.replace(':', '-')}", Static).update(
                f"{mark} {name:<8} {round(volume * 100):>3}%{'  MUTED' if muted else ''}"
            )

    def action_select(self, step: int) -> None:
        self.selected = (self.selected + step) % len(self.names)
        self._show()

    def _change(self, name: str, volume: float | None = None, muted: bool | None = None) -> None:
        level = self.levels[name]
        if volume is not None:
            level[0] = round(min(1.0, max(0.0, volume)), 2)
        if muted is not None:
            level[1] = muted
        self.apply(name, level[0], level[1])
        self._show()

    def action_volume(self, step: float) -> None:
        name = self.names[self.selected]
        self._change(name, volume=self.levels[name][0] + step)

    def action_mute(self) -> None:
        name = self.names[self.selected]
        self._change(name, muted=not self.levels[name][1])

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        what, _, key = str(event.button.id).partition("-")
        name = next(n for n in self.names if n.replace(":", "-") == key)
        self.selected = self.names.index(name)
        if what == "mute":
            self._change(name, muted=not self.levels[name][1])
        else:
            self._change(name, volume=self.levels[name][0] + (0.1 if what == "up" else -0.1))
