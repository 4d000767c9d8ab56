"""The terminal console's panels: each watches the app's reactive state (the table's view, hands shown,
paused, health, the meeting, the current game) and redraws itself; the app only updates that state.

    app.view = link.view()     # after a step: the state, guide, alerts and said panels redraw
    app.reveal = True          # the panels that can hide something redraw
    app.game = (game, seats)   # another game: its model, virtual table and outputs

Also the app's two collaborators: `GameKeys` (the keys bound to the current game's referee actions) and
`Questions` (the dialogs that ask a referee action's parameters and confirm it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static, TabPane

from kikimimi.console.dialogs import Confirm, PickOne, PickSeat, PickTag
from kikimimi.console.guide import guide_of, name_actions, say_guide
from kikimimi.console.modeltext import model_text
from kikimimi.console.records import title_words
from kikimimi.console.simtable import BASKET, VirtualTable, widget_id
from kikimimi.console.view import action_label, alerts_text, describe_event, health_text, spoken_text
from kikimimi.games.base import SPEAKER, Referee
from kikimimi.games.registry import GameInfo, RefereeAction
from kikimimi.games.tableview import table_model

if TYPE_CHECKING:
    from kikimimi.console.app import ConsoleApp


def answered(do: Callable[[Any], object]) -> Callable[[Any], None]:
    """A dialog's callback that acts only on an answer (yes, a value), not on no or cancel."""
    def on_answer(value: Any) -> None:
        if value:
            do(value)
    return on_answer


def sim_readers_of(info: GameInfo, setup: dict[str, Any], sim_readers: list[str]) -> list[str]:
    """The simulated readers the game uses (all of them if it names none of them)."""
    wanted = set(info.readers(setup))
    used = [role for role in sim_readers if role in wanted]
    return used or list(sim_readers)


class ConsolePart(Widget):
    """A panel of the console: reads the app's state, watches the parts of it it draws."""

    @property
    def console(self) -> ConsoleApp:
        return cast("ConsoleApp", self.app)

    def redraw_on(self, *names: str, draw: Callable[[], None]) -> None:
        """Call `draw` now and each time one of the app's reactive attributes `names` is set."""
        for n, name in enumerate(names):
            self.watch(self.app, name, lambda _value: draw(), init=n == 0)


class StatePanel(VerticalScroll, ConsolePart):
    """The game drawn from its view model, and the guide (what the table waits for) under it; its title
    says what the Priest must not miss: hands shown, paused, the turn clock."""

    def __init__(self) -> None:
        super().__init__(id="state-box")
        self._model: Callable[..., Any] | None = None  # the game's view model function (None: the generic one)

    def compose(self) -> ComposeResult:
        yield Static(id="state")
        yield Static(id="guide")

    def on_mount(self) -> None:
        self.watch(self.app, "game", self._load_model)
        self.redraw_on("view", "reveal", "paused", "meeting", draw=self.draw)
        self.watch(self.app, "health", lambda _value: self._title(), init=False)  # the clock counts down

    def _load_model(self) -> None:
        info = self.console.info
        try:
            self._model = info.model_function()
        except Exception as exc:  # a game whose view model cannot be imported is drawn generically
            self._model = None
            self.console.notify(f"{info.id}: its console panel cannot be loaded ({exc}); showing the generic one.",
                                severity="warning")

    def _title(self) -> None:
        app, said = self.console, self.console.said
        title = said.say("terminal.title", game=app.info.title(said.lang), seats=app.seats)
        clock = app.link.health().clock
        if clock is not None:
            title += said.say("terminal.clock", seat=clock[0], seconds=f"{clock[1]:.0f}")
        self.border_title = title + (said.say("terminal.hands_shown") if app.reveal else "") \
            + (said.say("terminal.paused_mark") if app.paused else "")

    def draw(self) -> None:
        app = self.console
        view, said = app.view, app.said
        self._title()
        self.set_class(app.reveal, "revealed")
        players, titles = app.meeting.seats()
        shown = table_model(self._model, view.report, view.public, reveal=app.reveal, players=players,
                            seats=app.seats)
        self.query_one("#state", Static).update(model_text(shown, said, reveal=app.reveal, titles=titles,
                                                           title_words=partial(title_words, lang=said.lang)))
        self.query_one("#guide", Static).update(
            "\n".join(name_actions(line, self._press) for line in say_guide(guide_of(view), said)))

    def _press(self, action: str) -> str | None:
        """How the guide names a console action here: by its key ("press n")."""
        app = self.console
        key = next((b.key for b in app.BINDINGS if isinstance(b, Binding) and b.action == action), None)
        return app.said.say("terminal.press", letter=key) if key else None


class HealthPanel(Static, ConsolePart):
    """Readers, outputs and their levels, as last polled; the web console's address under it."""

    def __init__(self) -> None:
        super().__init__(id="health")

    def on_mount(self) -> None:
        app = self.console
        self.border_title = app.said.say("terminal.health")
        if app.web is not None:  # the address is no secret; the code is shown on c, as hands are on h
            self.border_subtitle = app.said.say("terminal.web", url=app.web.url)
        self.watch(self.app, "health", lambda health: self.update(
            health_text(health.readers, health.outputs, health.levels)))


class AlertsPanel(VerticalScroll, ConsolePart):
    """The table's alerts and the console's own (health watch), newest last."""

    def __init__(self) -> None:
        super().__init__(id="alerts-box")

    def compose(self) -> ComposeResult:
        yield Static(id="alerts")

    def on_mount(self) -> None:
        self.border_title = self.console.said.say("terminal.alerts")
        self.redraw_on("view", "health", "reveal", draw=self.draw)

    def draw(self) -> None:
        app = self.console
        alerts = sorted([*app.view.alerts, *app.console_alerts], key=lambda item: item[0])
        self.query_one("#alerts", Static).update(
            alerts_text([(app.clock(t), a) for t, a in alerts], reveal=app.reveal, said=app.said))


class SaidPanel(Horizontal, ConsolePart):
    """What each output said, one box each (the speaker's wider); only the current game's outputs."""

    def compose(self) -> ComposeResult:
        for name in self.console.outputs:
            classes = "said speaker" if name == SPEAKER else "said"
            with VerticalScroll(id=f"said-box-{widget_id(name)}", classes=classes):
                yield Static(id=f"said-{widget_id(name)}")

    def on_mount(self) -> None:
        said = self.console.said
        for name in self.console.outputs:
            box = self.query_one(f"#said-box-{widget_id(name)}")
            box.border_title = name if name == SPEAKER else f"{name} {said.say('terminal.earphone')}"
        self.watch(self.app, "game", self._show_outputs)
        self.redraw_on("view", "reveal", draw=self.draw)

    def _show_outputs(self) -> None:
        app = self.console
        used = set(app.info.outputs(app.view.setup))
        for name in app.outputs:
            self.query_one(f"#said-box-{widget_id(name)}").display = name in used or not used & set(app.outputs)

    def draw(self) -> None:
        app = self.console
        lines = app.feed.lines()
        for name in app.outputs:
            self.query_one(f"#said-{widget_id(name)}", Static).update(
                spoken_text(lines, name, reveal=app.reveal, said=app.said))
            self.query_one(f"#said-box-{widget_id(name)}", VerticalScroll).scroll_end(animate=False)


class MeetingView(Static, ConsolePart):
    """The records' meeting (standings, tables), read again after each game and on g."""

    def __init__(self) -> None:
        super().__init__(id="meeting-view")

    def on_mount(self) -> None:
        self.watch(self.app, "meeting", lambda meeting: self.update(meeting.renderable(self.console.said)))


class VirtualTab(TabPane, ConsolePart):
    """The virtual table: taps on the simulated readers, the basket drawn at random."""

    def compose(self) -> ComposeResult:
        app = self.console
        info = app.info
        yield VirtualTable(sim_readers_of(info, app.view.setup, app.sim_readers), list(info.pieces),
                           list(info.controls), id="vt")

    def on_mount(self) -> None:
        self.watch(self.app, "game", self._set_game, init=False)

    def _set_game(self) -> None:
        app = self.console
        info = app.info
        self.run_worker(self.query_one("#vt", VirtualTable).set_game(
            sim_readers_of(info, app.view.setup, app.sim_readers), list(info.pieces), list(info.controls)),
            group="virtual-table", exclusive=True)

    def on_virtual_table_tap(self, message: VirtualTable.Tap) -> None:
        app = self.console
        info, tag_id = app.info, message.tag_id
        if tag_id == BASKET:
            basket = app.basket()
            if not basket:
                app.notify(app.said.say("terminal.basket_empty"), severity="warning")
                return
            tag_id = app.rng.choice(basket)
        if not info.is_known_id(tag_id):
            example = ", ".join([*info.pieces[:1], *info.controls[:1]])
            app.notify(f"{tag_id!r} is not a piece or control id of {info.title('en')} ({example}, …).",
                       severity="error")
            return
        try:  # hub → deck → loop, as hardware would
            app.link.tap(message.reader, tag_id)
        except (KeyError, ValueError) as exc:
            app.notify(str(exc), severity="error")


class GameKeys:
    """The keys bound to the current game's referee actions; an action whose key is the console's own, a
    digit or taken is reached through the "a" menu."""

    def __init__(self, generic_keys: frozenset[str]) -> None:
        self.generic_keys = generic_keys
        self.keys: list[str] = []

    def use(self, app: ConsoleApp, info: GameInfo) -> None:
        for key in self.keys:
            app._bindings.key_to_bindings.pop(key, None)
        self.keys.clear()
        for action in info.referee_actions:
            key = action.key.strip().lower()
            if not key or key in self.generic_keys or key in self.keys or key.isdigit():
                continue
            app.bind(key, f"game_action({action.action!r})", description=app.questions.label(action).lower())
            self.keys.append(key)
        app.refresh_bindings()


class Questions:
    """The dialogs that ask what a referee action needs (its parameters, a yes) before it is sent."""

    def __init__(self, app: ConsoleApp) -> None:
        self.app = app

    def label(self, action: RefereeAction) -> str:
        return action_label(self.app.info, action.action, self.app.said, action.label)

    def describe(self, event: Any) -> str:
        return describe_event(event, self.app.info, self.app.said, reveal=self.app.reveal)

    def confirmed(self, question: str, event: Referee) -> None:
        """Send `event` once the Priest says yes to `question`."""
        self.app.push_screen(Confirm(question), answered(lambda _: self.app.link.submit(event)))

    def ask_params(self, action: RefereeAction, todo: list[str], params: dict[str, Any]) -> None:
        """Ask each parameter of `todo` in turn, then send (an action without parameters is confirmed)."""
        app, said = self.app, self.app.said
        if not todo:
            event = Referee(action.action, params)
            if params:
                app.link.submit(event)
            else:
                self.confirmed(said.say("terminal.send_question", action=self.label(action)), event)
            return
        param, rest = todo[0], todo[1:]

        def then(name: str, value: Any) -> None:
            if value is not None and value != "":
                self.ask_params(action, rest, {**params, name: value})

        if param == "seat":
            app.push_screen(PickSeat(said.say("terminal.which_seat", action=self.label(action)), app.seats),
                            lambda v: then("seat", v))
        elif param == "piece":
            app.push_screen(PickTag(said.say("terminal.which_piece", action=self.label(action)), [],
                                    list(app.info.pieces)),
                            lambda v: then("piece", v))
        else:
            name, _, choices = param.partition("=")
            options = [(choice, str(said.value(choice))) for choice in choices.split("|") if choice]
            app.push_screen(PickOne(f"{self.label(action)}: {said.get(f'param.{name}', name)}?", options),
                            lambda v: then(name, v))
