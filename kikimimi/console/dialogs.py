"""The Priest's dialogs: each answers with a value (or None when cancelled with Escape).

They know no game: seats, pieces, controls, set-up keys and choices are given to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Static

from kikimimi.console.words import Words, words
from kikimimi.games.registry import GameInfo, SetupKey
from kikimimi.shown import echoed
from kikimimi.table.control import volume_level

DIALOG_CSS = """
ModalScreen { align: center middle; }
ModalScreen > Vertical {
    width: 72; height: auto; border: thick $accent; background: $surface; padding: 1 2;
}
ModalScreen Horizontal { height: auto; margin-top: 1; }
ModalScreen Button { margin-right: 1; }
ModalScreen .error { color: $error; }
ModalScreen RadioSet { width: 100%; }
ModalScreen .row { height: auto; margin-top: 0; }
ModalScreen .row Label { width: 12; }
ModalScreen .row.framed Label { padding-top: 1; }
ModalScreen .row RadioSet { width: 1fr; layout: horizontal; height: auto; }
ModalScreen .row RadioSet > RadioButton { width: auto; margin-right: 1; }
ModalScreen .games RadioSet { layout: vertical; }
ModalScreen .row Input { width: 1fr; }
ModalScreen .help, ModalScreen .hint { color: $text-muted; }
ModalScreen .keys { layout: grid; grid-size: 3; grid-gutter: 0 1; height: auto; }
ModalScreen .keys Button { width: 100%; margin: 0; }
ModalScreen #setup { height: auto; max-height: 20; }
NewGame > Vertical { width: 90; }
WebCode > Vertical { width: auto; min-width: 50; }
"""

# Keys for the n-th option of a dialog (seats 1-10: 1..9, then 0).
OPTION_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")


def _key_of(index: int) -> str | None:
    return OPTION_KEYS[index] if index < len(OPTION_KEYS) else None


def safe_id(text: str) -> str:
    """A widget id from a piece, control, reader or choice (letters, digits, - and _ only)."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def said_by(screen: Any) -> Words:
    """The console's words in the table's language (the running console's), English outside one."""
    try:
        said = getattr(screen.app, "said", None)
    except Exception:  # no running app (a dialog built by a test alone)
        said = None
    return said if isinstance(said, Words) else words("en")


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
                yield Button(said_by(self).say("terminal.yes"), id="yes", variant="warning")
                yield Button(said_by(self).say("terminal.no"), id="no")
            yield Static(said_by(self).say("terminal.yes_help"), classes="help")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class PickOne(ModalScreen[str | None]):
    """A question answered by one option: its button, or its key (1..9, 0 for the tenth; or its letter).

    `options` are (value, label) pairs; `letters` may give a value an extra key (`f` for the field).
    """

    def __init__(self, question: str, options: Sequence[tuple[str, str]],
                 letters: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.question = question
        self.options = list(options)
        self.letters = dict(letters or {})  # key -> value

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            with Horizontal(classes="keys"):
                for i, (value, label) in enumerate(self.options):
                    key = _key_of(i)
                    letter = next((k for k, v in self.letters.items() if v == value), None)
                    shown = f"{label} ({letter or key})" if (letter or key) else label
                    yield Button(shown, id=f"opt-{safe_id(value)}", compact=True)
            yield Static(said_by(self).say("terminal.pick_help"), classes="help")

    def on_key(self, event: Any) -> None:
        value = self.letters.get(event.key)
        if value is None and event.key in OPTION_KEYS:
            index = OPTION_KEYS.index(event.key)
            value = self.options[index][0] if index < len(self.options) else None
        if event.key == "escape":
            event.stop()
            self.dismiss(None)
        elif value is not None:
            event.stop()
            self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = str(event.button.id).removeprefix("opt-")
        self.dismiss(next(value for value, _ in self.options if safe_id(value) == button))


class PickSeat(PickOne):
    """Which seat of `seats` (2-10): keys 1..9 and 0 for seat 10, or the buttons. Answers an int."""

    def __init__(self, question: str, seats: int = 3) -> None:
        said = said_by(self)
        super().__init__(question, [(str(seat), said.say("terminal.seat", seat=seat)) for seat in range(1, seats + 1)])

    def dismiss(self, result: Any = None) -> Any:
        # PickOne is a screen of str answers; this one answers the seat's number (callers expect an int).
        return super().dismiss(int(result) if result else None)  # type: ignore[arg-type]


class PickReader(PickOne):
    """Which reader: a seat's hand reader by its number (1..9, 0), the field by f, others by button."""

    def __init__(self, question: str, readers: Sequence[str]) -> None:
        letters = {"f": "field"} if "field" in readers else {}
        hands = [r for r in readers if r.startswith("hand:")]
        others = [r for r in readers if not r.startswith("hand:")]
        super().__init__(question, [(r, r) for r in [*hands, *others]], letters)


class PickTag(ModalScreen[str | None]):
    """A piece or control id: a control's button (1..9 while the id field is not focused), or an id
    typed with completion and Enter. Answers the id; an unknown id is said in the dialog."""

    BINDINGS = [Binding("escape", "cancel", "cancel"), Binding("i", "type_id", "type an id")]

    def __init__(self, question: str, controls: Sequence[str], pieces: Sequence[str]) -> None:
        super().__init__()
        self.question = question
        self.controls = list(controls)
        self.pieces = list(pieces)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            if self.controls:
                with Horizontal(classes="keys"):
                    for i, control in enumerate(self.controls):
                        key = _key_of(i)
                        yield Button(f"{control} ({key})" if key else control, id=f"tag-{safe_id(control)}",
                                     compact=True)
            if self.pieces:
                yield Input(placeholder=said_by(self).say("terminal.tag_placeholder"), id="tag-id",
                            suggester=SuggestFromList([*self.pieces, *self.controls], case_sensitive=False))
            yield Static("", id="error", classes="error")
            said = said_by(self)
            hints = [said.say("terminal.hint_control") if self.controls else "",
                     said.say("terminal.hint_id") if self.pieces else "", said.say("terminal.hint_cancel")]
            yield Static(" · ".join(h for h in hints if h), classes="help")

    def on_mount(self) -> None:
        if not self.controls and self.pieces:
            self.query_one("#tag-id", Input).focus()

    def on_key(self, event: Any) -> None:
        if isinstance(self.focused, Input) or event.key not in OPTION_KEYS:
            return
        index = OPTION_KEYS.index(event.key)
        if index < len(self.controls):
            event.stop()
            self.dismiss(self.controls[index])

    def action_type_id(self) -> None:
        if self.pieces:
            self.query_one("#tag-id", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = str(event.button.id).removeprefix("tag-")
        self.dismiss(next(c for c in self.controls if safe_id(c) == button))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        tag = event.value.strip().lower()
        if tag in self.pieces or tag in self.controls:
            self.dismiss(tag)
        else:
            self.query_one("#error", Static).update(f"{echoed(tag)} is not a piece or control id of this game")


class NewGame(ModalScreen[dict[str, Any] | None]):
    """The next game: any registered game and its set-up keys (defaults filled in, fitted to the table).

    Usable by keyboard alone: focus starts on the game list (Up/Down and Enter or Space choose a game), Tab
    goes through its set-up keys to Start. Enter starts from anywhere but the lists (where it chooses).
    `start(setup)` is called then; the ValueError it raises (a bad key, a game the table cannot play) is
    shown here and the dialog stays open. The game in progress is kept in the journal. `table_seats`: the
    seats this table has (hand readers and earphones), the default seat count of a game that asks for one.
    """

    BINDINGS = [Binding("enter", "start", "start"), Binding("escape", "cancel", "cancel")]

    def __init__(self, games: Sequence[GameInfo], current: str, values: Mapping[str, Any], in_progress: bool,
                 start: Callable[[dict[str, Any]], Any], table_seats: int | None = None) -> None:
        super().__init__()
        self.table_seats = table_seats
        self.games = list(games)
        self.game = current if any(g.id == current for g in self.games) else self.games[0].id
        self.current = current
        self.values = dict(values)  # the current game's set-up: its choices are offered again
        self.in_progress = in_progress
        self.start = start

    @property
    def info(self) -> GameInfo:
        return next(g for g in self.games if g.id == self.game)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(said_by(self).say("terminal.new_game"), classes="title")
            with Horizontal(classes="row games"):
                yield Label(said_by(self).say("terminal.game"))
                with RadioSet(id="game"):
                    for info in self.games:
                        yield RadioButton(f"{info.title('en')} ({info.id})", value=info.id == self.game,
                                          id=f"game-{safe_id(info.id)}")
            yield VerticalScroll(id="setup")
            if self.in_progress:
                yield Static(said_by(self).say("terminal.abandons"), classes="error")
            yield Static("", id="error", classes="error")
            with Horizontal():
                yield Button(said_by(self).say("terminal.start"), id="start", variant="primary")
                yield Button(said_by(self).say("terminal.cancel"), id="cancel")
            yield Static(said_by(self).say("terminal.new_game_help"), classes="hint")

    async def on_mount(self) -> None:
        await self._show_setup()
        self.query_one("#game", RadioSet).focus()  # never on Start: a stray Enter must not end the game

    def _default(self, key: SetupKey) -> Any:
        """The current game's value for an enumerated key (a choice: never a secret), else the default; a seat
        count is the current game's, else the default cut to the seats this table has."""
        if self.game == self.current and key.name in self.values and (key.choices is not None or key.type is bool):
            return self.values[key.name]
        if key.name == self.info.seat_key:
            if self.game == self.current and key.name in self.values:
                return self.values[key.name]
            if self.table_seats is not None and isinstance(key.default, int):
                return max(min(key.default, self.table_seats), key.minimum or 1)
        return key.default

    async def _show_setup(self) -> None:
        box = self.query_one("#setup", VerticalScroll)
        await box.remove_children()
        rows: list[Widget] = []
        for key in self.info.setup_keys:
            rows.append(_setup_row(key, self._default(key)))
        if not rows:
            rows.append(Static(said_by(self).say("terminal.no_setup"), classes="help"))
        await box.mount_all(rows)

    async def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        if event.radio_set.id != "game":
            return
        event.stop()
        self.game = self.games[event.index].id
        self.query_one("#error", Static).update("")
        await self._show_setup()

    def setup(self) -> dict[str, Any]:
        """The set-up as chosen; ValueError names a key whose typed value is not of its type."""
        setup: dict[str, Any] = {"game": self.game}
        for key in self.info.setup_keys:
            name = safe_id(key.name)
            if key.type is bool:
                setup[key.name] = self.query_one(f"#key-{name}", Checkbox).value
            elif key.choices is not None:
                index = self.query_one(f"#key-{name}", RadioSet).pressed_index
                setup[key.name] = key.choices[max(index, 0)]
            else:
                typed = self.query_one(f"#key-{name}", Input).value.strip()
                if key.type is int:
                    try:
                        setup[key.name] = int(typed)
                    except ValueError:
                        raise ValueError(f"{key.name} must be an integer, not {typed!r}") from None
                else:
                    setup[key.name] = typed
        return setup

    def action_start(self) -> None:
        try:
            setup = self.setup()
            complete = self.start(setup)
        except (ValueError, ConnectionError) as exc:  # refused by the table, or the table is gone
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(complete if isinstance(complete, dict) else setup)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "cancel":
            self.action_cancel()


def _setup_row(key: SetupKey, value: Any) -> Vertical:
    name = safe_id(key.name)
    if key.type is bool:
        field: Any = Checkbox(key.name, value=bool(value), id=f"key-{name}")
    elif key.choices is not None:
        field = RadioSet(*(RadioButton(str(choice), value=choice == value, id=f"key-{name}-{i}")
                           for i, choice in enumerate(key.choices)), id=f"key-{name}")
    else:
        field = Input(str(value), id=f"key-{name}", type="integer" if key.type is int else "text", compact=True)
    framed = " framed" if key.type is bool or key.choices is not None else ""  # three lines tall: label in line
    row = Horizontal(Label(key.name), field, classes=f"row{framed}")
    return Vertical(row, Static(key.describe(), classes="help"), classes="row")


class MovePiece(ModalScreen[tuple[str, str] | None]):
    """Correct where a piece is: its id (with completion) and where it really is."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, pieces: Sequence[str], destinations: Sequence[str]) -> None:
        super().__init__()
        self.pieces = list(pieces)
        self.destinations = list(destinations)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(said_by(self).say("terminal.move_title"))
            example = self.pieces[0] if self.pieces else "…"
            yield Input(placeholder=f"piece id, e.g. {example}", id="piece",
                        suggester=SuggestFromList(sorted(self.pieces), case_sensitive=False))
            yield Label(said_by(self).say("terminal.now_in"))
            with RadioSet(id="to"):
                for i, where in enumerate(self.destinations):
                    yield RadioButton(where, value=i == 0, id=f"to-{safe_id(where.replace(':', '-'))}")
            yield Static("", id="error", classes="error")
            with Horizontal():
                yield Button(said_by(self).say("terminal.move"), id="move", variant="warning")
                yield Button(said_by(self).say("terminal.cancel"), id="cancel")
            yield Static(said_by(self).say("terminal.move_help"), classes="help")

    def on_mount(self) -> None:
        self.query_one("#piece", Input).focus()

    def _submit(self) -> None:
        piece = self.query_one("#piece", Input).value.strip().lower()
        if piece not in self.pieces:
            self.query_one("#error", Static).update(f"{echoed(piece)} is not a piece id of this game")
            return
        index = self.query_one("#to", RadioSet).pressed_index
        self.dismiss((piece, self.destinations[max(index, 0)]))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "move":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class WebCode(ModalScreen[None]):
    """The web console's address, the evening's code and the QR code of the link that logs a tablet in;
    n makes a new code (the running web console takes it at once; tablets log in again)."""

    BINDINGS = [Binding("escape,c,enter", "close", "close"), Binding("n", "renew", "new code")]

    def __init__(self, web: Any) -> None:  # a WebAddress
        super().__init__()
        self.web = web

    def _text(self) -> str:
        return f"Web console: {self.web.url}/\nThe evening's code: [b]{self.web.spaced_code}[/b]"

    def compose(self) -> ComposeResult:
        with Vertical(id="web-code"):
            yield Static(self._text(), id="code-text")
            yield Static(self.web.qr_text(), id="qr", markup=False)
            yield Static(said_by(self).say("terminal.code_help"), classes="help")

    def action_renew(self) -> None:
        self.web = self.web.renew()
        self.query_one("#code-text", Static).update(self._text())
        self.query_one("#qr", Static).update(self.web.qr_text())

    def action_close(self) -> None:
        self.dismiss(None)


class Outputs(ModalScreen[None]):
    """Volume and mute per output: up/down choose, + and - change the volume, m mutes; or click."""

    BINDINGS = [Binding("up", "select(-1)", "previous"), Binding("down", "select(1)", "next"),
                Binding("plus,equals_sign", "volume(0.1)", "louder"), Binding("minus", "volume(-0.1)", "softer"),
                Binding("m", "mute", "mute"), Binding("escape,o", "close", "close")]

    def __init__(self, names: list[str], levels: dict[str, list[Any]],
                 apply: Callable[[str, float, bool], None]) -> None:
        # levels: output -> [volume, muted], the dialog's own copy of what the table reports
        super().__init__()
        self.names, self.levels, self.apply = names, levels, apply
        self.selected = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(said_by(self).say("terminal.outputs_help"))
            for name in self.names:
                key = name.replace(":", "-")
                with Horizontal(id=f"row-{key}"):
                    yield Static(id=f"level-{key}")
                    yield Button("−", id=f"down-{key}", compact=True)
                    yield Button("+", id=f"up-{key}", compact=True)
                    yield Button(said_by(self).say("terminal.mute"), id=f"mute-{key}", compact=True)

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
            level[0] = volume_level(volume)
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
