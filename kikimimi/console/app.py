"""The Priest's console: the live table at a glance, its health, what was said, and the referee's actions.

    run_console(table)            # a LiveTable already opened (kikimimi play --console); returns 0

Every action goes through the table loop's queue (`loop.submit`, `loop.new_game`) and so into the
journal like a tap; the screen is redrawn from `loop.report()` after each step the loop reports.
The loop's listener runs on the loop's thread: it only posts a message to the app (thread-safe).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Static, TabbedContent, TabPane

from kikimimi.console.dialogs import DIALOG_CSS, Confirm, MovePiece, NewGame, Outputs, PickSeat, PickSuit
from kikimimi.console.feed import TableFeed
from kikimimi.console.guide import guide
from kikimimi.console.health import HealthWatch
from kikimimi.console.records import MeetingPanel, read_meeting
from kikimimi.console.simtable import BASKET, VirtualTable, widget_id
from kikimimi.console.view import alerts_text, health_text, spoken_text, state_text
from kikimimi.games.base import SPEAKER, Alert, GameOver, Referee, Scan, hand, seat_of
from kikimimi.games.trident.pieces import CONTROL_SET, PIECES
from kikimimi.table.live import LiveTable
from kikimimi.table.loop import Step
from kikimimi.voice.catalog import catalog

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
    """The loop applied a step (posted from the loop's thread)."""

    def __init__(self, step: Step) -> None:
        super().__init__()
        self.step = step


class ConsoleApp(App[int]):
    TITLE = "kikimimi — the Priest's console"
    ENABLE_COMMAND_PALETTE = False
    CSS = CSS + DIALOG_CSS
    BINDINGS = [
        Binding("h", "reveal", "hands"),
        Binding("n", "new_game", "new"),
        Binding("u", "undo", "undo"),
        Binding("f", "forgot", "forgot"),
        Binding("p", "penalty", "penalty"),
        Binding("t", "declare", "Trident"),
        Binding("s", "pass_for", "pass"),
        Binding("c", "suit", "suit"),
        Binding("m", "move", "move"),
        Binding("e", "end", "end"),
        Binding("r", "repeat", "repeat"),
        Binding("o", "outputs", "volume"),
        Binding("v", "virtual", "virtual table", show=False),
        Binding("g", "meeting", "meeting", show=False),
        Binding("q", "quit_console", "quit"),
    ]

    def __init__(self, table: LiveTable, *, reveal_hands: bool = False, records_path: Path | None = None,
                 rng: random.Random | None = None, clock: Callable[[float], str] | None = None) -> None:
        super().__init__()
        self.table = table
        self.loop = table.loop
        self.reveal = reveal_hands
        self.records_path = records_path
        self.rng = rng or random.Random()
        self.clock = clock or (lambda t: time.strftime("%H:%M:%S", time.localtime(t)))
        self.feed = TableFeed(catalog(table.config.language))
        self.health_watch = HealthWatch()
        self.console_alerts: list[tuple[float, Alert]] = []
        volumes = {spec.name: spec.volume for spec in table.config.outputs}
        self.outputs = list(table.voice.health()) if table.voice is not None else []
        self.levels: dict[str, list[Any]] = {name: [volumes.get(name, 1.0), False] for name in self.outputs}
        self.sim_readers = [spec.role for spec in table.config.readers if spec.protocol == "sim"]
        self.meeting = MeetingPanel()
        self._detached = False
        self.messages: deque[str] = deque(maxlen=50)

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
            with TabPane("What was said", id="said"), Horizontal():
                for name in self.outputs:
                    classes = "said speaker" if name == SPEAKER else "said"
                    with VerticalScroll(id=f"said-box-{widget_id(name)}", classes=classes):
                        yield Static(id=f"said-{widget_id(name)}")
            if self.sim_readers:
                with TabPane("Virtual table", id="virtual"):
                    yield VirtualTable(self.sim_readers, id="vt")
            with TabPane("Meeting", id="meeting"):
                yield Static(id="meeting-view")
        yield Footer()

    def _main(self, selector: str, expect: type[Any] = Widget) -> Any:
        """A widget of the main screen, even while a dialog is on top (App.query_one asks the top screen)."""
        return self._main_screen.query_one(selector, expect)

    def on_mount(self) -> None:
        self._main_screen = self.screen
        self._main("#health").border_title = "Health"
        self._main("#alerts-box").border_title = "Alerts"
        for name in self.outputs:
            box = self._main(f"#said-box-{widget_id(name)}")
            box.border_title = name if name == SPEAKER else f"{name} earphone"
        self.feed.on_change = self._from_loop
        self.loop.listeners.append(self.feed.on_step)
        self.refresh_meeting()
        self.refresh_all()
        self.set_interval(0.5, self._poll_health)

    def on_unmount(self) -> None:
        self._detached = True
        self.feed.on_change = None
        if self.feed.on_step in self.loop.listeners:
            self.loop.listeners.remove(self.feed.on_step)

    def notify(self, message: str, **options: Any) -> None:  # type: ignore[override]
        """Show a toast, and keep it: the Priest's recent messages (and what tests read)."""
        self.messages.append(message)
        super().notify(message, **options)

    # -- from the loop -----------------------------------------------------------------------------

    def _from_loop(self, step: Step) -> None:
        self.post_message(TableChanged(step))  # the loop's thread: post only, never touch widgets

    def on_table_changed(self, message: TableChanged) -> None:
        if self._detached or not self._main_screen.is_attached:
            return
        if any(isinstance(e, GameOver) for e in message.step.effects):
            self.refresh_meeting()
        self.refresh_all()

    # -- drawing -----------------------------------------------------------------------------------

    def refresh_all(self) -> None:
        self.refresh_state()
        self.refresh_said()
        self.refresh_health()

    def refresh_state(self) -> None:
        report = self.loop.report()
        box = self._main("#state-box")
        box.border_title = "The table — HANDS SHOWN" if self.reveal else "The table"
        box.set_class(self.reveal, "revealed")
        players, titles = self.meeting.seats()
        self._main("#state", Static).update(state_text(report, reveal=self.reveal, players=players,
                                                           titles=titles))
        drew = getattr(self.loop.state, "drew", None)
        title = "Priest" if report.get("rules") == "competition" else "Next"
        self._main("#guide", Static).update("\n".join(f"{title}: {line}" for line in guide(report, drew)))

    def refresh_said(self) -> None:
        lines = self.feed.lines()
        for name in self.outputs:
            self._main(f"#said-{widget_id(name)}", Static).update(
                spoken_text(lines, name, reveal=self.reveal))
            self._main(f"#said-box-{widget_id(name)}", VerticalScroll).scroll_end(animate=False)

    def _poll_health(self) -> None:
        if self._detached:
            return
        with contextlib.suppress(NoMatches):  # the timer ticked while the app is shutting down
            self.refresh_health()

    def refresh_health(self) -> None:
        readers = self.table.hub.health() if self.table.hub is not None else {}
        outputs = self.table.voice.health() if self.table.voice is not None else {}
        now = time.time()
        self.console_alerts += [(now, alert) for alert in self.health_watch.check(readers, outputs)]
        levels = {name: (level[0], level[1]) for name, level in self.levels.items()}
        self._main("#health", Static).update(health_text(readers, outputs, levels))
        self.refresh_alerts()

    def refresh_alerts(self) -> None:
        alerts = sorted([*self.loop.status.alerts, *self.console_alerts], key=lambda item: item[0])
        self._main("#alerts", Static).update(
            alerts_text([(self.clock(t), a) for t, a in alerts], reveal=self.reveal))

    def refresh_meeting(self) -> None:
        self.meeting = read_meeting(self.records_path)
        self._main("#meeting-view", Static).update(self.meeting.renderable())

    # -- actions -----------------------------------------------------------------------------------

    def action_reveal(self) -> None:
        self.reveal = not self.reveal
        self.notify("Hands revealed: players may see the screen." if self.reveal else "Hands hidden.")
        self.refresh_all()

    def action_new_game(self) -> None:
        report = self.loop.report()
        in_progress = report.get("phase") != "over" and bool(self.loop.session.events)

        def start(choice: tuple[int, str] | None) -> None:
            if choice is not None:
                self.loop.new_game(first=choice[0], rules=choice[1])

        self.push_screen(NewGame(int(report.get("first") or 1), str(report.get("rules")), in_progress), start)

    def action_undo(self) -> None:
        events = self.loop.session.events
        if not events:
            self.notify("Nothing to undo.", severity="warning")
            return
        question = f"Undo the last event: {self._describe(events[-1])}?"
        self._confirmed(question, Referee("undo"))

    def action_forgot(self) -> None:
        self._confirmed("Everyone forgot the required kind, and all three agree?\n"
                        "One piece from the basket goes to the field and sets it; the turn stays.",
                        Referee("forgot"))

    def action_end(self) -> None:
        self._confirmed("End the game now? Everyone is ranked by what they hold; no winner, no crash.",
                        Referee("end"))

    def action_penalty(self) -> None:
        self._for_seat("Give a penalty (wrong play: returns, owes 2) to which seat?",
                       lambda seat: Referee("penalty", {"seat": seat}))

    def action_declare(self) -> None:
        self._for_seat("Declare Trident on behalf of which seat?", lambda seat: Scan(hand(seat), "ctl-trident"))

    def action_pass_for(self) -> None:
        self._for_seat("Pass on behalf of which seat?", lambda seat: Scan(hand(seat), "ctl-pass"))

    def action_suit(self) -> None:
        report = self.loop.report()

        def with_seat(seat: int | None) -> None:
            if seat is None:
                return
            self.push_screen(PickSuit(f"Seat {seat} chooses which suit?"),
                             lambda suit: suit and self.loop.submit(Scan(hand(seat), f"ctl-{suit}")))

        if report.get("phase") == "choose_suit" and report.get("turn"):
            with_seat(int(report["turn"]))
        else:
            self.push_screen(PickSeat("Choose a suit on behalf of which seat?"), with_seat)

    def action_move(self) -> None:
        def move(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self.loop.submit(Referee("move", {"piece": choice[0], "to": choice[1]}))

        self.push_screen(MovePiece(), move)

    def action_repeat(self) -> None:
        if not self.feed.repeat_public(self.table.voice):
            self.notify("Nothing public has been said yet.", severity="warning")
        self.refresh_said()

    def action_outputs(self) -> None:
        if not self.outputs:
            self.notify("No outputs configured.", severity="warning")
            return
        self.push_screen(Outputs(self.outputs, self.levels, self._set_level), lambda _: self.refresh_health())

    def action_virtual(self) -> None:
        if self.sim_readers:
            self._main("#tabs", TabbedContent).active = "virtual"
            self._main("#vt", VirtualTable).focus_input()

    def action_meeting(self) -> None:
        self.refresh_meeting()
        self.refresh_state()
        self._main("#tabs", TabbedContent).active = "meeting"

    def action_quit_console(self) -> None:
        self.push_screen(Confirm("Close the console? The game stays in the journal and resumes next time."),
                         lambda yes: yes and self.exit(0))

    def _set_level(self, name: str, volume: float, muted: bool) -> None:
        self.table.voice.set_volume(name, volume)
        self.table.voice.mute(name, muted)

    def _confirmed(self, question: str, event: Referee) -> None:
        self.push_screen(Confirm(question), lambda yes: yes and self.loop.submit(event))

    def _for_seat(self, question: str, make: Callable[[int], Any]) -> None:
        self.push_screen(PickSeat(question), lambda seat: seat and self.loop.submit(make(seat)))

    def _describe(self, event: Any) -> str:
        if isinstance(event, Referee):
            params = " ".join(f"{k}={v}" for k, v in dict(event.params).items()
                              if self.reveal or k != "piece")
            return f"referee {event.action} {params}".rstrip()
        private = seat_of(event.reader) is not None and event.piece not in CONTROL_SET
        piece = "a piece" if private and not self.reveal else event.piece
        return f"{piece} on {event.reader}"

    # -- the virtual table -------------------------------------------------------------------------

    def on_virtual_table_tap(self, message: VirtualTable.Tap) -> None:
        tag_id = message.tag_id
        if tag_id == BASKET:
            basket = self.basket()
            if not basket:
                self.notify("The basket is empty.", severity="warning")
                return
            tag_id = self.rng.choice(basket)
        if tag_id not in PIECES and tag_id not in CONTROL_SET:
            self.notify(f"{tag_id!r} is not a piece or control id (heart-3, ctl-pass, …).", severity="error")
            return
        try:
            self.tap(message.reader, tag_id)
        except (KeyError, ValueError) as exc:
            self.notify(str(exc), severity="error")

    def basket(self) -> list[str]:
        report = self.loop.report()
        taken = set(report["field"]).union(*report["hands"].values())
        return sorted(p for p in PIECES if p not in taken)

    def tap(self, reader: str, tag_id: str) -> str:
        """Tap `tag_id` on the simulated `reader` (hub → deck → loop, as hardware would); returns the UID."""
        uids = self.table.config.deck.uids_of(tag_id)
        if not uids:
            raise KeyError(f"the deck has no tag for {tag_id}")
        seat = seat_of(reader)
        # Control tags come one set per seat: use the seat's own, as a player would.
        uid = uids[seat - 1] if tag_id in CONTROL_SET and seat and len(uids) >= seat else uids[0]
        self.table.hub.simulated(reader).tap_and_remove(uid)
        return uid


def run_console(table: LiveTable, *, reveal_hands: bool = False, records_path: Path | None = None) -> int:
    """Run the console on an open table until the Priest quits; the caller closes the table."""
    app = ConsoleApp(table, reveal_hands=reveal_hands, records_path=records_path)
    result = app.run()
    return int(result or 0)
