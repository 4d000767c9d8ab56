"""The Priest's console: the live table at a glance, its health, what was said, and the referee's actions.

    run_console(table)            # a LiveTable opened here (kikimimi play --console); returns 0
    run_console(link)             # or a TableLink: RemoteLink.attach(socket) for a table another process runs

The app talks to the table through one `TableLink` (kikimimi/console/link.py): the table in this process
or one attached over its control socket, alike. Every action goes through the table loop's queue and so
into the journal like a tap. After each step the table reports the app sets its reactive `view` from the
link's `view()`; the panels (console/panels.py) watch it, and the other reactive state (hands shown, paused,
health, the meeting, the game), and redraw themselves. The link's listener runs on a thread of its own: it
only posts a message to the app.

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
from pathlib import Path
from typing import Any, cast

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import var
from textual.widgets import Footer, TabbedContent, TabPane

from kikimimi.console.dialogs import (
    DIALOG_CSS,
    Confirm,
    MovePiece,
    NewGame,
    Outputs,
    PickOne,
    PickReader,
    PickTag,
    WebCode,
)
from kikimimi.console.feed import TableFeed
from kikimimi.console.health import HealthWatch
from kikimimi.console.link import LocalLink, TableLink
from kikimimi.console.panels import (
    AlertsPanel,
    GameKeys,
    HealthPanel,
    MeetingView,
    Questions,
    SaidPanel,
    StatePanel,
    VirtualTab,
    answered,
)
from kikimimi.console.records import MeetingPanel, read_meeting
from kikimimi.console.simtable import BASKET, VirtualTable, basket_of
from kikimimi.console.web.serve import WebAddress
from kikimimi.console.words import words
from kikimimi.games.base import Alert, GameOver, Referee, hand, seat_of
from kikimimi.games.registry import GameInfo, games, get_info
from kikimimi.table.control import TableHealth, TableView
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


class TableNews(Message):
    """The loop applied a step (posted from the link's thread); or the table refused an action (attached:
    its answer came back later), or it went away (`lost`)."""

    def __init__(self, step: Step | None = None, text: str = "", lost: bool = False) -> None:
        super().__init__()
        self.step, self.text, self.lost = step, text, lost


class ConsoleApp(App[int]):
    """The frame: its state is reactive (the panels in console/panels.py watch it and redraw themselves),
    its keys are actions that ask (collaborator `questions`) and send through the link."""

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

    # What the panels draw; each set redraws the panels that watch it. `view`, `health` and `meeting` are
    # set anew after each step, poll or read (always_update: a new value is news even if equal).
    view: var[TableView] = var(cast("TableView", None), always_update=True)  # set in __init__
    health: var[TableHealth] = var(cast("TableHealth", None), always_update=True)  # set in __init__
    meeting: var[MeetingPanel] = var(MeetingPanel, always_update=True)
    game: var[tuple[str, int]] = var(("", 0))  # the game and seats shown: its keys, model, outputs
    reveal = var(False)
    paused = var(False)

    def __init__(self, table: LiveTable | TableLink, *, reveal_hands: bool = False,
                 records_path: Path | None = None, rng: random.Random | None = None,
                 clock: Callable[[float], str] | None = None, web: WebAddress | None = None) -> None:
        super().__init__()
        self.web = web  # the web console served beside (play --console --web): its address and code
        self.link: TableLink = LocalLink(table) if isinstance(table, LiveTable) else table
        self.records_path = records_path
        self.rng = rng or random.Random()
        self.clock = clock or (lambda t: time.strftime("%H:%M:%S", time.localtime(t)))
        self.view = view = self.link.view()
        self.info: GameInfo = get_info(view.game)
        self.seats = self.info.seat_count(view.setup)
        self.game = (self.info.id, self.seats)
        self.health = self.link.health()
        self.reveal = reveal_hands
        self.paused = view.paused
        self.feed = TableFeed(catalog(self.link.facts.language, self.info.catalog))
        self.health_watch = HealthWatch()
        self.console_alerts: list[tuple[float, Alert]] = []
        self.outputs = list(self.link.facts.outputs)
        # Seats this table has: hand:1, hand:2... each with its earphone, counted up to the first missing.
        self.table_seats = next(seat for seat in range(len(self.outputs) + 1) if hand(seat + 1) not in self.outputs)
        self.sim_readers = list(self.link.facts.sim_readers)
        self._detached = False
        self.game_keys = GameKeys(GENERIC_KEYS)
        self._game_keys = self.game_keys.keys  # keys bound to the current game's referee actions
        self.questions = Questions(self)
        self.messages: deque[str] = deque(maxlen=50)
        self.said = words(self.link.facts.language)  # the console's own words, in the table's language
        for key, bindings in self._bindings.key_to_bindings.items():  # the keys bar too
            self._bindings.key_to_bindings[key] = [
                dataclasses.replace(b, description=self.said.say(f"terminal.key.{b.action}"))
                if self.said.has(f"terminal.key.{b.action}") else b for b in bindings]

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield StatePanel()
            with Vertical(id="side"):
                yield HealthPanel()
                yield AlertsPanel()
        with TabbedContent(id="tabs", initial="said"):
            with TabPane(self.said.say("terminal.said_tab"), id="said"):
                yield SaidPanel()
            if self.sim_readers:
                yield VirtualTab(self.said.say("terminal.virtual_tab"), id="virtual")
            with TabPane(self.said.say("terminal.meeting_tab"), id="meeting"):
                yield MeetingView()
        yield Footer()

    def on_mount(self) -> None:
        self._main_screen = self.screen  # App.query_one asks the top screen, maybe a dialog
        self.link.on_lost = lambda why: self.post_message(TableNews(text=why, lost=True))
        if hasattr(self.link, "on_error"):  # attached: a refusal comes back after the action was sent
            self.link.on_error = lambda why: self.post_message(TableNews(text=why))
        self.link.subscribe(self.feed.on_step)  # an attached console first gets the game's steps so far
        # the link's thread: post only, never touch widgets
        self.feed.on_change = lambda step: self.post_message(TableNews(step))
        self.meeting = read_meeting(self.records_path)
        self.game_keys.use(self, self.info)
        self.view = self.link.view()
        self.refresh_health()
        self.set_interval(0.5, self.refresh_health)

    def on_unmount(self) -> None:
        self._detached = True
        self.feed.on_change = None
        self.link.unsubscribe(self.feed.on_step)
        self.link.on_lost = None

    def notify(self, message: str, **options: Any) -> None:
        """Show a toast, and keep it: the Priest's recent messages (and what tests read)."""
        self.messages.append(message)
        super().notify(message, **options)

    def on_table_news(self, message: TableNews) -> None:
        if message.lost:
            self.exit(1, return_code=1,
                      message=f"console: the table is gone ({message.text}); the journal keeps the game")
            return
        if message.step is None:
            self.notify(self.said.say("terminal.refused", text=message.text), severity="error")
            return
        if self._detached or not self._main_screen.is_attached:
            return
        if any(isinstance(e, GameOver) for e in message.step.effects):
            self.meeting = read_meeting(self.records_path)
        for effect in message.step.effects:  # said to the Priest, who asked
            if isinstance(effect, Alert) and effect.key == "referee.refused":
                what, why = effect.params.get("action", "the action"), effect.params.get("why", "")
                said = self.said.say("terminal.game_refused", what=what, why=why) if why else \
                    self.said.say("terminal.game_refused_bare", what=what)
                self.notify(said, severity="warning")
        view = self.link.view()
        self.paused = view.paused  # another console may have paused the table
        self.refresh_bindings()
        self.info = get_info(view.game)
        self.seats = self.info.seat_count(view.setup)
        if (self.info.id, self.seats) != self.game:
            self.game_keys.use(self, self.info)
            self.game = (self.info.id, self.seats)
        self.view = view
        self.refresh_health()

    def refresh_health(self) -> None:
        """Poll the table's health: what went down or came back becomes the console's own alert."""
        if self._detached:
            return
        health = self.link.health()
        now = time.time()
        self.console_alerts += [(now, alert) for alert in self.health_watch.check(health.readers, health.outputs)]
        with contextlib.suppress(NoMatches):  # the timer ticked while the app is shutting down
            self.health = health

    # -- actions -----------------------------------------------------------------------------------

    def action_reveal(self) -> None:
        """Hiding is at once; showing the hands asks first (the players may see the screen)."""
        def show(reveal: bool) -> None:
            self.reveal = reveal
            self.notify(self.said.say("terminal.revealed") if reveal else self.said.say("terminal.hidden"))

        if self.reveal:
            show(False)
            return
        self.push_screen(Confirm(self.said.say("terminal.reveal_question")), answered(lambda _: show(True)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Actions the game cannot take now are shown disabled (None) rather than offered and refused:
        undo with nothing to undo, end once the game is over."""
        if action == "undo" and not self.link.view().undo_at:
            return None
        if action == "end" and self.link.view().over:
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
                         answered(lambda _: self.push_screen(WebCode(web.current()))))

    def action_new_game(self) -> None:
        view = self.link.view()
        in_progress = view.report.get("phase") != "over" and bool(view.events)
        self.push_screen(NewGame(games(), view.game, view.setup, in_progress, self.link.new_game,
                                 table_seats=self.table_seats))

    def action_undo(self) -> None:
        """Names the last *accepted* event (refused taps after it go with it); the count sent with the undo
        makes the table refuse it if it moved on while the question was open."""
        view = self.link.view()
        if view.undoable is None or not view.undo_at:
            self.notify(self.said.say("terminal.nothing_to_undo"), severity="warning")
            return
        question = self.said.say("terminal.undo_question", event=self.questions.describe(view.undoable))
        self.questions.confirmed(question, Referee("undo", {"at": view.undo_at}))

    def action_end(self) -> None:
        self.questions.confirmed(self.said.say("terminal.end_question"), Referee("end"))

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.link.pause(self.paused)
        self.notify(self.said.say("terminal.paused") if self.paused else self.said.say("terminal.resumed"))

    def action_tap_for(self) -> None:
        """A tap on a seat's behalf: any reader of the game, then any piece or control id of the game, straight
        on the loop's queue (journaled like a player's tap)."""
        info = self.info
        readers = list(info.readers(self.link.view().setup))

        def with_reader(reader: str | None) -> None:
            if not reader:
                return
            seat = seat_of(reader)
            said = self.said
            who = said.say("terminal.seat", seat=seat) if seat else said.say("terminal.reader_who", reader=reader)
            self.push_screen(PickTag(said.say("terminal.tap_which_tag", reader=reader, who=who),
                                     list(info.controls), list(info.pieces)),
                             answered(lambda tag: self.link.submit_tap(reader, tag)))

        self.push_screen(PickReader(self.said.say("terminal.tap_which_reader"), readers), with_reader)

    def action_game_actions(self) -> None:
        actions = self.info.referee_actions
        if not actions:
            self.notify(self.said.say("terminal.no_game_actions", game=self.info.title(self.said.lang)),
                        severity="warning")
            return
        label = self.questions.label
        options = [(a.action, f"{label(a)} [{a.key}]" if a.key else label(a)) for a in actions]
        self.push_screen(PickOne(self.said.say("terminal.which_action", game=self.info.title(self.said.lang)), options),
                         answered(self.action_game_action))

    def action_game_action(self, name: str) -> None:
        """One of the game's own referee actions: ask what its parameters name, then confirm or send."""
        action = next((a for a in self.info.referee_actions if a.action == name), None)
        if action is None:
            return
        self.questions.ask_params(action, list(action.params), {})

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
        self.push_screen(Outputs(self.outputs, levels, self.link.set_level), lambda _: self.refresh_health())

    def action_virtual(self) -> None:
        if not self.sim_readers:
            self.notify(self.said.say("terminal.no_sim_readers"), severity="warning")
            return
        self._main_screen.query_one("#tabs", TabbedContent).active = "virtual"
        self._main_screen.query_one("#vt", VirtualTable).focus_input()

    def action_said(self) -> None:
        """Back to what each output said (the tab the console opens on)."""
        self._main_screen.query_one("#tabs", TabbedContent).active = "said"
        self.set_focus(None)  # out of the virtual table's input: the console's keys work again

    def action_meeting(self) -> None:
        self.meeting = read_meeting(self.records_path)
        self._main_screen.query_one("#tabs", TabbedContent).active = "meeting"

    def action_quit_console(self) -> None:
        self.push_screen(Confirm(self.said.say("terminal.quit_question")), answered(lambda _: self.exit(0)))

    def basket(self) -> list[str]:
        """The game's pieces that its report places nowhere (not in a hand, on the field, in a row...)."""
        return basket_of(self.info, self.link.view().report)


def run_console(table: LiveTable | TableLink, *, reveal_hands: bool = False,
                records_path: Path | None = None, web: WebAddress | None = None) -> int:
    """Run the console on an open table (or a link to one) until the Priest quits; the caller closes it.
    `web`: the web console served beside it (`play --console --web`), whose code the c key shows."""
    app = ConsoleApp(table, reveal_hands=reveal_hands, records_path=records_path, web=web)
    result = app.run()
    return int(result or 0)
