"""The Priest's console: the live table at a glance, its health, what was said, and the referee's actions.

    run_console(table)            # a LiveTable opened here (kikimimi play --console); returns 0
    run_console(link)             # or a TableLink: RemoteLink.attach(socket) for a table another process runs

The app talks to the table through one `TableLink` (kikimimi/console/link.py): the table in this process
or one attached over its control socket, alike. Every action goes through the table loop's queue and so
into the journal like a tap; the screen is redrawn from the link's `view()` after each step the table
reports. The link's listener runs on a thread of its own: it only posts a message to the app.

The console knows no game. Its frame (seats, health, alerts, what each output said, undo, taps on a
seat's behalf, move, end, new game of any registered game, repeat, pause, volume) is the same for all;
the game brings its view model (`GameInfo.model_function()`, drawn by `modeltext`), its guide if it has one, and its own
referee actions (`GameInfo.referee_actions`: keys and the "a" menu are made from them).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Static, TabbedContent, TabPane

from kikimimi.console.dialogs import (
    DIALOG_CSS,
    Confirm,
    MovePiece,
    NewGame,
    Outputs,
    PickOne,
    PickReader,
    PickSeat,
    PickTag,
    WebCode,
)
from kikimimi.console.feed import TableFeed
from kikimimi.console.guide import guide_of, name_actions, say_guide
from kikimimi.console.health import HealthWatch
from kikimimi.console.link import LocalLink, TableLink
from kikimimi.console.modeltext import model_text
from kikimimi.console.records import MeetingPanel, read_meeting, title_words
from kikimimi.console.simtable import BASKET, VirtualTable, basket_of, widget_id
from kikimimi.console.view import action_label, alerts_text, describe_event, health_text, spoken_text
from kikimimi.console.web.serve import WebAddress
from kikimimi.console.words import words
from kikimimi.games.base import SPEAKER, Alert, GameOver, Referee, hand, seat_of
from kikimimi.games.registry import GameInfo, RefereeAction, games, get_info
from kikimimi.games.tableview import table_model
from kikimimi.table.control import TableView
from kikimimi.table.live import LiveTable
from kikimimi.table.loop import Step
from kikimimi.voice.catalog import catalog

# The console's own keys; a game's referee action whose key is one of these is reached through "a".
GENERIC_KEYS = frozenset("hnutmearzovwgq")

CSS = """
#top { height: 20; }
#state-box { width: 3fr; border: round $primary; padding: 0 1; }
#state-box.revealed { border: round $error; }
#side { width: 2fr; }
#health { border: round $primary; padding: 0 1; height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
#alerts-box { border: round $warning; padding: 0 1; height: 1fr; }
#guide { margin-top: 1; color: $text-accent; }
#tabs { height: 1fr; }
.said { border: round $secondary; width: 1fr; padding: 0 1; }
.said.speaker { width: 2fr; }
"""


class TableChanged(Message):
    """The loop applied a step (posted from the link's thread)."""

    def __init__(self, step: Step) -> None:
        super().__init__()
        self.step = step


class TableSaid(Message):
    """The table refused an action (attached: its answer came back later), or it went away (`lost`)."""

    def __init__(self, text: str, lost: bool = False) -> None:
        super().__init__()
        self.text, self.lost = text, lost


class ConsoleApp(App[int]):
    TITLE = "kikimimi — the Priest's console"
    ENABLE_COMMAND_PALETTE = False
    CSS = CSS + DIALOG_CSS
    BINDINGS = [
        Binding("h", "reveal", "hands"),
        Binding("n", "new_game", "new"),
        Binding("u", "undo", "undo"),
        Binding("t", "tap_for", "tap"),
        Binding("m", "move", "move"),
        Binding("e", "end", "end"),
        Binding("a", "game_actions", "game"),
        Binding("r", "repeat", "repeat"),
        Binding("z", "pause", "pause"),
        Binding("o", "outputs", "levels"),
        Binding("v", "virtual", "virtual"),
        Binding("w", "said", "said"),
        Binding("g", "meeting", "meeting"),
        Binding("c", "web_code", "web code"),
        Binding("q", "quit_console", "quit"),
    ]

    def __init__(self, table: LiveTable | TableLink, *, reveal_hands: bool = False,
                 records_path: Path | None = None, rng: random.Random | None = None,
                 clock: Callable[[float], str] | None = None, web: WebAddress | None = None) -> None:
        super().__init__()
        self.web = web  # the web console served beside (play --console --web): its address and code
        self.link: TableLink = LocalLink(table) if isinstance(table, LiveTable) else table
        self.reveal = reveal_hands
        self.records_path = records_path
        self.rng = rng or random.Random()
        self.clock = clock or (lambda t: time.strftime("%H:%M:%S", time.localtime(t)))
        self.feed = TableFeed(catalog(self.link.facts.language, self.info.catalog))
        self.health_watch = HealthWatch()
        self.console_alerts: list[tuple[float, Alert]] = []
        self.outputs = list(self.link.facts.outputs)
        self.sim_readers = list(self.link.facts.sim_readers)
        self.meeting = MeetingPanel()
        self.paused = self.link.view().paused
        self._detached = False
        self._game_keys: list[str] = []  # keys bound to the current game's referee actions
        self._shown_game: tuple[str, int] | None = None  # the game (and seats) whose keys, panel... are shown
        self._model: Any = None  # the game's view model function (None: the generic one)
        self.messages: deque[str] = deque(maxlen=50)
        self.said = words(self.link.facts.language)  # the console's own words, in the table's language
        for key, bindings in self._bindings.key_to_bindings.items():  # the keys bar too
            self._bindings.key_to_bindings[key] = [
                dataclasses.replace(b, description=self.said.say(f"terminal.key.{b.action}"))
                if self.said.has(f"terminal.key.{b.action}") else b for b in bindings]

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with VerticalScroll(id="state-box"):
                yield Static(id="state")
                yield Static(id="guide")
            with Vertical(id="side"):
                yield Static(id="health")
                with VerticalScroll(id="alerts-box"):
                    yield Static(id="alerts")
        with TabbedContent(id="tabs", initial="said"):
            with TabPane(self.said.say("terminal.said_tab"), id="said"), Horizontal():
                for name in self.outputs:
                    classes = "said speaker" if name == SPEAKER else "said"
                    with VerticalScroll(id=f"said-box-{widget_id(name)}", classes=classes):
                        yield Static(id=f"said-{widget_id(name)}")
            if self.sim_readers:
                with TabPane(self.said.say("terminal.virtual_tab"), id="virtual"):
                    info = self.info
                    yield VirtualTable(self._sim_readers_of(info), list(info.pieces), list(info.controls), id="vt")
            with TabPane(self.said.say("terminal.meeting_tab"), id="meeting"):
                yield Static(id="meeting-view")
        yield Footer()

    def _main(self, selector: str, expect: type[Any] = Widget) -> Any:
        """A widget of the main screen, even while a dialog is on top (App.query_one asks the top screen)."""
        return self._main_screen.query_one(selector, expect)

    def on_mount(self) -> None:
        self._main_screen = self.screen
        self._main("#health").border_title = self.said.say("terminal.health")
        self._main("#alerts-box").border_title = self.said.say("terminal.alerts")
        if self.web is not None:  # the address is no secret; the code is shown on c, as hands are on h
            self._main("#health").border_subtitle = self.said.say("terminal.web", url=self.web.url)
        for name in self.outputs:
            box = self._main(f"#said-box-{widget_id(name)}")
            box.border_title = name if name == SPEAKER else f"{name} {self.said.say('terminal.earphone')}"
        self.link.on_lost = lambda why: self.post_message(TableSaid(why, lost=True))
        if hasattr(self.link, "on_error"):  # attached: a refusal comes back after the action was sent
            self.link.on_error = lambda why: self.post_message(TableSaid(why))
        self.link.subscribe(self.feed.on_step)  # an attached console first gets the game's steps so far
        self.feed.on_change = self._from_loop
        self.refresh_meeting()
        self._use_game(self.info)
        self.refresh_all()
        self.set_interval(0.5, self._poll_health)

    def on_unmount(self) -> None:
        self._detached = True
        self.feed.on_change = None
        self.link.unsubscribe(self.feed.on_step)
        self.link.on_lost = None

    def notify(self, message: str, **options: Any) -> None:  # type: ignore[override]
        """Show a toast, and keep it: the Priest's recent messages (and what tests read)."""
        self.messages.append(message)
        super().notify(message, **options)

    # -- from the loop -----------------------------------------------------------------------------

    def _from_loop(self, step: Step) -> None:
        self.post_message(TableChanged(step))  # the link's thread: post only, never touch widgets

    def on_table_said(self, message: TableSaid) -> None:
        if message.lost:
            self.exit(1, return_code=1,
                      message=f"console: the table is gone ({message.text}); the journal keeps the game")
        else:
            self.notify(self.said.say("terminal.refused", text=message.text), severity="error")

    def on_table_changed(self, message: TableChanged) -> None:
        if self._detached or not self._main_screen.is_attached:
            return
        if any(isinstance(e, GameOver) for e in message.step.effects):
            self.refresh_meeting()
        for effect in message.step.effects:  # said to the Priest, who asked
            if isinstance(effect, Alert) and effect.key == "referee.refused":
                what, why = effect.params.get("action", "the action"), effect.params.get("why", "")
                said = self.said.say("terminal.game_refused", what=what, why=why) if why else \
                    self.said.say("terminal.game_refused_bare", what=what)
                self.notify(said, severity="warning")
        self.paused = self.link.view().paused  # another console may have paused the table
        self.refresh_bindings()
        if (self.info.id, self.seats) != self._shown_game:
            self._use_game(self.info)
        self.refresh_all()

    # -- the current game ----------------------------------------------------------------------------

    @property
    def view(self) -> TableView:
        return self.link.view()

    @property
    def info(self) -> GameInfo:
        return get_info(self.view.game)

    @property
    def seats(self) -> int:
        return self.info.seat_count(self.view.setup)

    def _sim_readers_of(self, info: GameInfo) -> list[str]:
        """The simulated readers the game uses (all of them if it names none of them)."""
        wanted = set(info.readers(self.view.setup))
        used = [role for role in self.sim_readers if role in wanted]
        return used or list(self.sim_readers)

    def _use_game(self, info: GameInfo) -> None:
        """Show another game: its panel, guide, referee-action keys, virtual table and outputs."""
        self._shown_game = (info.id, self.seats)
        try:
            self._model = info.model_function()
        except Exception as exc:  # a game whose view model cannot be imported is drawn generically
            self._model = None
            self.notify(f"{info.id}: its console panel cannot be loaded ({exc}); showing the generic one.",
                        severity="warning")
        for key in self._game_keys:
            self._bindings.key_to_bindings.pop(key, None)
        self._game_keys = []
        for action in info.referee_actions:
            key = action.key.strip().lower()
            if not key or key in GENERIC_KEYS or key in self._game_keys or key.isdigit():
                continue  # reached through the "a" menu
            self.bind(key, f"game_action({action.action!r})", description=self._label(action).lower())
            self._game_keys.append(key)
        self.refresh_bindings()
        if self.sim_readers:
            vt = self._main("#vt", VirtualTable)
            self.run_worker(vt.set_game(self._sim_readers_of(info), list(info.pieces), list(info.controls)),
                            group="virtual-table", exclusive=True)
        used = set(info.outputs(self.view.setup))
        for name in self.outputs:
            self._main(f"#said-box-{widget_id(name)}").display = name in used or not used & set(self.outputs)

    # -- drawing -----------------------------------------------------------------------------------

    def refresh_all(self) -> None:
        self.refresh_state()
        self.refresh_said()
        self.refresh_health()

    def refresh_state(self) -> None:
        view = self.view
        report = view.report
        box = self._main("#state-box")
        box.border_title = self._state_title()
        box.set_class(self.reveal, "revealed")
        players, titles = self.meeting.seats()
        shown = table_model(self._model, report, view.public, reveal=self.reveal, players=players, seats=self.seats)
        self._main("#state", Static).update(model_text(shown, self.said, reveal=self.reveal, titles=titles,
                                                       title_words=partial(title_words, lang=self.said.lang)))
        self._main("#guide", Static).update(
            "\n".join(name_actions(line, self._press)
                      for line in say_guide(guide_of(view), words(self.link.facts.language))))

    def refresh_said(self) -> None:
        lines = self.feed.lines()
        for name in self.outputs:
            self._main(f"#said-{widget_id(name)}", Static).update(
                spoken_text(lines, name, reveal=self.reveal, said=self.said))
            self._main(f"#said-box-{widget_id(name)}", VerticalScroll).scroll_end(animate=False)

    def _press(self, action: str) -> str | None:
        """How the guide names a console action here: by its key ("press n")."""
        key = next((b.key for b in self.BINDINGS if isinstance(b, Binding) and b.action == action), None)
        return self.said.say("terminal.press", letter=key) if key else None

    def _state_title(self) -> str:
        """The game, its seats, and what the Priest must not miss: hands shown, paused, the turn clock."""
        said = self.said
        title = said.say("terminal.title", game=self.info.title(said.lang), seats=self.seats)
        clock = self.link.health().clock
        if clock is not None:
            title += said.say("terminal.clock", seat=clock[0], seconds=f"{clock[1]:.0f}")
        return title + (said.say("terminal.hands_shown") if self.reveal else "") \
            + (said.say("terminal.paused_mark") if self.paused else "")

    def _poll_health(self) -> None:
        if self._detached:
            return
        with contextlib.suppress(NoMatches):  # the timer ticked while the app is shutting down
            self.refresh_health()
            self._main("#state-box").border_title = self._state_title()  # the clock counts down

    def refresh_health(self) -> None:
        health = self.link.health()
        now = time.time()
        self.console_alerts += [(now, alert) for alert in self.health_watch.check(health.readers, health.outputs)]
        self._main("#health", Static).update(health_text(health.readers, health.outputs, health.levels))
        self.refresh_alerts()

    def refresh_alerts(self) -> None:
        alerts = sorted([*self.view.alerts, *self.console_alerts], key=lambda item: item[0])
        self._main("#alerts", Static).update(
            alerts_text([(self.clock(t), a) for t, a in alerts], reveal=self.reveal, said=self.said))

    def refresh_meeting(self) -> None:
        self.meeting = read_meeting(self.records_path)
        self._main("#meeting-view", Static).update(self.meeting.renderable(self.said))

    # -- actions -----------------------------------------------------------------------------------

    def action_reveal(self) -> None:
        """Hiding is at once; showing the hands asks first (the players may see the screen)."""
        if self.reveal:
            self._set_reveal(False)
            return
        self.push_screen(Confirm(self.said.say("terminal.reveal_question")),
                         lambda yes: yes and self._set_reveal(True))

    def _set_reveal(self, reveal: bool) -> None:
        self.reveal = reveal
        self.notify(self.said.say("terminal.revealed") if self.reveal else self.said.say("terminal.hidden"))
        self.refresh_all()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Actions the game cannot take now are shown disabled (None) rather than offered and refused:
        undo with nothing to undo, end once the game is over."""
        if action == "undo" and not self.view.undo_at:
            return None
        if action == "end" and self.view.over:
            return None
        # c (the web console's code) is not offered where no web console is served beside this one
        return not (action == "web_code" and self.web is None)

    def action_web_code(self) -> None:
        """The evening's code and the QR code that logs a tablet in: asked first, as hands are (it lets
        whoever reads it act as the Priest)."""
        web = self.web
        if web is None:
            return
        self.push_screen(Confirm(self.said.say("terminal.code_question")),
                         lambda yes: yes and self.push_screen(WebCode(web.current())))

    def action_new_game(self) -> None:
        view = self.view
        in_progress = view.report.get("phase") != "over" and bool(view.events)
        self.push_screen(NewGame(games(), view.game, view.setup, in_progress, self.link.new_game,
                                 table_seats=self.table_seats))

    @property
    def table_seats(self) -> int:
        """Seats this table has: hand:1, hand:2... each with its earphone, counted up to the first missing."""
        seats = 0
        while hand(seats + 1) in self.outputs:
            seats += 1
        return seats

    def action_undo(self) -> None:
        """Names the last *accepted* event (refused taps after it go with it); the count sent with the undo
        makes the table refuse it if it moved on while the question was open."""
        view = self.view
        if view.undoable is None or not view.undo_at:
            self.notify(self.said.say("terminal.nothing_to_undo"), severity="warning")
            return
        question = self.said.say("terminal.undo_question", event=self._describe(view.undoable))
        self._confirmed(question, Referee("undo", {"at": view.undo_at}))

    def action_end(self) -> None:
        self._confirmed(self.said.say("terminal.end_question"), Referee("end"))

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.link.pause(self.paused)
        self.notify(self.said.say("terminal.paused") if self.paused else self.said.say("terminal.resumed"))
        self.refresh_state()

    def action_tap_for(self) -> None:
        """A tap on a seat's behalf: any reader of the game, then any piece or control id of the game."""
        info = self.info
        readers = list(info.readers(self.view.setup))

        def with_reader(reader: str | None) -> None:
            if not reader:
                return
            seat = seat_of(reader)
            said = self.said
            who = said.say("terminal.seat", seat=seat) if seat else said.say("terminal.reader_who", reader=reader)
            self.push_screen(PickTag(said.say("terminal.tap_which_tag", reader=reader, who=who),
                                     list(info.controls), list(info.pieces)),
                             lambda tag: tag and self.submit_tap(reader, tag))

        self.push_screen(PickReader(self.said.say("terminal.tap_which_reader"), readers),
                         with_reader)

    def action_game_actions(self) -> None:
        actions = self.info.referee_actions
        if not actions:
            self.notify(self.said.say("terminal.no_game_actions", game=self.info.title(self.said.lang)),
                        severity="warning")
            return
        options = [(a.action, f"{self._label(a)} [{a.key}]" if a.key else self._label(a)) for a in actions]
        self.push_screen(PickOne(self.said.say("terminal.which_action", game=self.info.title(self.said.lang)), options),
                         lambda action: action and self.action_game_action(action))

    def action_game_action(self, name: str) -> None:
        """One of the game's own referee actions: ask what its parameters name, then confirm or send."""
        action = next((a for a in self.info.referee_actions if a.action == name), None)
        if action is None:
            return
        self._ask_params(action, list(action.params), {})

    def _ask_params(self, action: RefereeAction, todo: list[str], params: dict[str, Any]) -> None:
        if not todo:
            event = Referee(action.action, params)
            if params:
                self.link.submit(event)
            else:
                self._confirmed(self.said.say("terminal.send_question", action=self._label(action)), event)
            return
        param, rest = todo[0], todo[1:]

        def then(name: str, value: Any) -> None:
            if value is not None and value != "":
                self._ask_params(action, rest, {**params, name: value})

        if param == "seat":
            self.push_screen(PickSeat(self.said.say("terminal.which_seat", action=self._label(action)), self.seats),
                             lambda v: then("seat", v))
        elif param == "piece":
            self.push_screen(PickTag(self.said.say("terminal.which_piece", action=self._label(action)), [],
                                     list(self.info.pieces)),
                             lambda v: then("piece", v))
        else:
            name, _, choices = param.partition("=")
            options = [(choice, str(self.said.value(choice))) for choice in choices.split("|") if choice]
            self.push_screen(PickOne(f"{self._label(action)}: {self.said.get(f'param.{name}', name)}?", options),
                             lambda v: then(name, v))

    def action_move(self) -> None:
        def move(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self.link.submit(Referee("move", {"piece": choice[0], "to": choice[1]}))

        destinations = [hand(seat) for seat in range(1, self.seats + 1)] + [BASKET]
        self.push_screen(MovePiece(list(self.info.pieces), destinations), move)

    def action_repeat(self) -> None:
        if not self.feed.repeat_public(self.link.announce):
            self.notify(self.said.say("terminal.nothing_said"), severity="warning")

    def action_outputs(self) -> None:
        if not self.outputs:
            self.notify(self.said.say("terminal.no_outputs"), severity="warning")
            return
        levels = {name: list(level) for name, level in self.link.health().levels.items()}  # the dialog's own copy
        self.push_screen(Outputs(self.outputs, levels, self._set_level), lambda _: self.refresh_health())

    def action_virtual(self) -> None:
        if not self.sim_readers:
            self.notify(self.said.say("terminal.no_sim_readers"), severity="warning")
            return
        self._main("#tabs", TabbedContent).active = "virtual"
        self._main("#vt", VirtualTable).focus_input()

    def action_said(self) -> None:
        """Back to what each output said (the tab the console opens on)."""
        self._main("#tabs", TabbedContent).active = "said"
        self.set_focus(None)  # out of the virtual table's input: the console's keys work again

    def action_meeting(self) -> None:
        self.refresh_meeting()
        self.refresh_state()
        self._main("#tabs", TabbedContent).active = "meeting"

    def action_quit_console(self) -> None:
        self.push_screen(Confirm(self.said.say("terminal.quit_question")),
                         lambda yes: yes and self.exit(0))

    def _set_level(self, name: str, volume: float, muted: bool) -> None:
        self.link.set_level(name, volume, muted)

    def _confirmed(self, question: str, event: Referee) -> None:
        self.push_screen(Confirm(question), lambda yes: yes and self.link.submit(event))

    def _label(self, action: RefereeAction) -> str:
        return action_label(self.info, action.action, self.said, action.label)

    def _describe(self, event: Any) -> str:
        return describe_event(event, self.info, self.said, reveal=self.reveal)

    # -- the virtual table -------------------------------------------------------------------------

    def on_virtual_table_tap(self, message: VirtualTable.Tap) -> None:
        tag_id = message.tag_id
        if tag_id == BASKET:
            basket = self.basket()
            if not basket:
                self.notify(self.said.say("terminal.basket_empty"), severity="warning")
                return
            tag_id = self.rng.choice(basket)
        if not self.info.is_known_id(tag_id):
            example = ", ".join([*self.info.pieces[:1], *self.info.controls[:1]])
            self.notify(f"{tag_id!r} is not a piece or control id of {self.info.title('en')} ({example}, …).",
                        severity="error")
            return
        try:
            self.tap(message.reader, tag_id)
        except (KeyError, ValueError) as exc:
            self.notify(str(exc), severity="error")

    def basket(self) -> list[str]:
        """The game's pieces that its report places nowhere (not in a hand, on the field, in a row...)."""
        return basket_of(self.info, self.view.report)

    def tap(self, reader: str, tag_id: str) -> str:
        """Tap `tag_id` on the simulated `reader` (hub → deck → loop, as hardware would); returns the UID."""
        return self.link.tap(reader, tag_id)

    def submit_tap(self, reader: str, tag_id: str) -> None:
        """A tap on a seat's behalf, straight on the loop's queue (journaled like a player's tap)."""
        self.link.submit_tap(reader, tag_id)


def run_console(table: LiveTable | TableLink, *, reveal_hands: bool = False,
                records_path: Path | None = None, web: WebAddress | None = None) -> int:
    """Run the console on an open table (or a link to one) until the Priest quits; the caller closes it.
    `web`: the web console served beside it (`play --console --web`), whose code the c key shows."""
    app = ConsoleApp(table, reveal_hands=reveal_hands, records_path=records_path, web=web)
    result = app.run()
    return int(result or 0)
