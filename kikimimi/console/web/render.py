"""What the page shows: the game's view model (drawn by the page), and the terminal console's own panels.

The guide, what each output said, the alerts and the meeting are the very functions the terminal console
draws (`kikimimi.console.view`, `guide`, `records`); here their styled text becomes
escaped HTML spans with a few classes (bold, dim, a colour), so the page needs no inline style and its
Content-Security-Policy stays strict. Privacy is decided by those functions' `reveal`, as on the terminal:
an unrevealed snapshot never holds a hand or a private line.
"""

from __future__ import annotations

import html
import io
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text

from kikimimi.console.feed import Spoken
from kikimimi.console.guide import guide_of, name_actions, say_guide
from kikimimi.console.records import MeetingPanel
from kikimimi.console.view import action_label, alerts_text, describe_event, spoken_text
from kikimimi.console.words import Words, words
from kikimimi.games.base import Alert, hand
from kikimimi.games.registry import GameInfo, games
from kikimimi.games.tableview import table_model
from kikimimi.table.control import TableFacts, TableHealth, TableView

COLOURS = frozenset({"red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright_red", "bright_green",
                     "bright_yellow", "bright_cyan"})
MEETING_WIDTH = 72  # characters of the meeting's tables (a <pre> that scrolls sideways on a phone)
SHOWN_ALERTS = 12


def _console(width: int = 100) -> Console:
    return Console(file=io.StringIO(), width=width, color_system="truecolor", force_terminal=True,
                   legacy_windows=False)


def _classes(style: Style | None) -> str:
    if style is None:
        return ""
    names = []
    if style.bold:
        names.append("b")
    if style.dim:
        names.append("d")
    if style.italic:
        names.append("i")
    if style.color is not None and style.color.name in COLOURS:
        names.append(f"c-{style.color.name}")
    return " ".join(names)


def to_html(renderable: RenderableType, width: int = MEETING_WIDTH) -> str:
    """Escaped HTML of a rich renderable: styled runs as <span class="…">; the page keeps its line breaks.
    Text is not wrapped here (the browser wraps it to the screen); tables are laid out `width` wide."""
    console = _console(width)
    segments = renderable.render(console) if isinstance(renderable, Text) else console.render(renderable)
    out: list[str] = []
    for segment in segments:
        if segment.control or not segment.text:
            continue
        text = html.escape(segment.text, quote=False)
        classes = _classes(segment.style)
        out.append(f'<span class="{classes}">{text}</span>' if classes else text)
    return "".join(out)


def meeting_html(meeting: MeetingPanel, said: Words) -> str:
    """The Meeting tab in `said`'s language; the records' place (a path or URL) and what their library said
    are data, shown as they are and marked `translate="no"`."""
    shown = to_html(meeting.renderable(said, with_where=False))
    where = meeting.shown_where() if meeting.view is None else ""
    return shown + (f'\n<code translate="no">{html.escape(where, quote=False)}</code>' if where else "")


# -- what the page needs of the games ---------------------------------------------------------------------


def hand_readers(health: TableHealth) -> int:
    """How many seats this table has a hand reader for (its readers are in every health report)."""
    return sum(1 for role in health.readers if role.startswith("hand:"))


def setup_choices(info: GameInfo, seats: int, said: Words | None = None) -> list[dict[str, Any]]:
    """The game's set-up keys as the new-game form offers them: choices, or a range for a number with
    bounds; the seat key's choices only those this table's `seats` hand readers can seat. Each key has its
    label and one-line help in the table's language (the console catalog's `setup.<game>.<key>`), each
    choice its label."""
    said = said or words("en")
    keys = []
    for key in info.setup_keys:
        choices = list(key.choices) if key.choices is not None else None
        if choices is None and key.type is int and key.minimum is not None and key.maximum is not None \
                and key.maximum - key.minimum <= 20:
            choices = list(range(key.minimum, key.maximum + 1))
        seat_like = key.name == info.seat_key or (key.type is int and choices is not None
                                                    and max(choices) == info.seats[1] and min(choices) == 1)
        if seat_like and choices is not None:  # the seat count, or a seat (who begins): this table's seats
            choices = [c for c in choices if c <= seats] or choices[:1]
        kind = "bool" if key.type is bool else "int" if key.type is int else "text"
        default = key.default if choices is None or key.default in choices else choices[-1]
        where = f"setup.{info.id}.{key.name}"
        labels = {str(c): said.get(f"setup.{info.id}.choice.{c}.label", "")
                  or (said.say(f"setup.bool.{str(c).lower()}") if isinstance(c, bool) else str(c))
                  for c in (choices or [])}
        keys.append({"name": key.name, "type": kind, "choices": choices, "default": default,
                     "label": said.get(f"{where}.label", key.name), "help": said.get(f"{where}.help", key.describe()),
                     "labels": labels})
    return keys


def games_offered(lang: str, seats: int) -> list[dict[str, Any]]:
    """Every registered game the table could start, with its set-up keys (a game needing more seats than
    the table's hand readers is listed, marked, so the Priest sees why it is not offered)."""
    said = words(lang)
    return [{"id": info.id, "title": info.title(lang), "seats": list(info.seats),
             "fits": info.seats[0] <= max(seats, 1), "keys": setup_choices(info, seats, said)}
            for info in games()]


def game_facts(info: GameInfo, view: TableView, facts: TableFacts, lang: str) -> dict[str, Any]:
    """The current game's ids and actions: what the page's buttons and pickers are made of (nothing here
    is secret: piece ids are printed on the pieces)."""
    said = words(lang)
    seats = info.seat_count(view.setup)
    readers = list(info.readers(view.setup))
    wanted = set(readers)
    sim = [role for role in facts.sim_readers if role in wanted] or list(facts.sim_readers)
    return {
        "id": info.id, "title": info.title(lang), "seats": seats, "readers": readers, "sim_readers": sim,
        "pieces": list(info.pieces), "controls": list(info.controls),
        "destinations": [[place, said.value(place)] for place in
                         [hand(seat) for seat in range(1, seats + 1)] + ["basket"]],
        "actions": [{"action": a.action, "label": action_label(info, a.action, said, a.label),
                     "params": list(a.params)} for a in info.referee_actions],
        "outputs": list(info.outputs(view.setup)),
    }


def health_json(health: TableHealth) -> dict[str, Any]:
    """Readers and outputs as the page's health cards show them (statuses, taps, errors, underruns, levels)."""
    readers = {role: {"status": h.status, "taps": h.taps, "errors": h.errors, "dropped": h.dropped,
                      "detail": h.detail if h.status != "ok" else ""} for role, h in health.readers.items()}
    outputs = {}
    for name, h in health.outputs.items():
        volume, muted = health.levels.get(name, (1.0, False))
        outputs[name] = {"status": h.status, "underruns": int(getattr(h, "underruns", 0) or 0),
                         "detail": h.detail if h.status != "ok" else "", "volume": volume, "muted": muted}
    return {"readers": readers, "outputs": outputs,
            "clock": list(health.clock) if health.clock is not None else None}


def guide_html(lines: Sequence[str], said: Words | None = None) -> str:
    """The guide's lines as escaped HTML, each action named by its button (the page puts the button's words
    in its language into the data-t span), one line a line."""
    said = said or words("en")
    before, after = html.escape(said.say("page.tap_open")), html.escape(said.say("page.tap_close"))

    def button(action: str) -> str:
        name = html.escape(said.get(f"page.{action}", action.replace("_", " ")))
        return f'{before}<span data-t="{html.escape(action)}">{name}</span>{after}'

    return "\n".join(name_actions(html.escape(line, quote=False), button) for line in lines)


def undo_offer(view: TableView, info: GameInfo, said: Words, reveal: bool) -> dict[str, Any] | None:
    """What undo would take back now (None: nothing), and the count that names it to the table."""
    if not view.undo_at or view.undoable is None:
        return None
    return {"at": view.undo_at, "event": describe_event(view.undoable, info, said, reveal=reveal)}


def said_model(model: dict[str, Any], said: Words) -> dict[str, Any]:
    """The table's model with its words said in the page's language (phrase keys become text)."""
    seats = [{**seat, "marks": [said.render(m) for m in seat["marks"]]} for seat in model["seats"]]
    return {**model, "seats": seats, "items": [said.render(item) for item in model["items"]],
            "penalties": [said.render(item) for item in model.get("penalties") or []],
            "result": [said.render(item) for item in model.get("result") or []],
            "phase": said.value(model["phase"]) if model.get("phase") else None}


def snapshot(*, view: TableView, health: TableHealth, facts: TableFacts, info: GameInfo,
             lines: Sequence[Spoken], alerts: Sequence[tuple[float, Alert]],
             meeting: MeetingPanel, reveal: bool, lang: str | None = None) -> dict[str, Any]:
    """Everything the page draws, for one reveal mode (an unrevealed one holds no hand, no private line), in
    `lang` (default: the table's language)."""
    lang = lang or facts.language
    said_words = words(lang)
    players, _titles = meeting.seats()
    seats = info.seat_count(view.setup)
    shown_alerts = sorted(alerts, key=lambda item: item[0])[-SHOWN_ALERTS:]

    def clock(t: float) -> str:  # the terminal's format
        return time.strftime("%H:%M:%S", time.localtime(t))

    said = {name: to_html(spoken_text(lines, name, reveal=reveal, limit=30, said=said_words))
            for name in facts.outputs}
    return {
        "reveal": reveal,
        "lang": lang,
        "game": game_facts(info, view, facts, lang),
        # Offered again by the new-game form: only enumerated keys (a choice, never a drawn secret), as the
        # terminal's dialog does.
        "setup": {key.name: view.setup[key.name] for key in info.setup_keys
                  if key.name in view.setup and (key.choices is not None or key.type is bool)},
        "events": view.events,
        "last_event": describe_event(view.last_event, info, said_words, reveal=reveal) if view.last_event else None,
        "undo": undo_offer(view, info, said_words, reveal),
        "over": view.over,
        "paused": view.paused,
        "game_id": view.game_id,
        "turn": view.public.get("turn"),
        "phase": view.public.get("phase"),
        "guide": guide_html(say_guide(guide_of(view), said_words), said_words),
        "table": said_model(table_model(info.model_function(), view.report, view.public, reveal=reveal,
                                        players=players, seats=seats), said_words),
        "said": said,
        "alerts": to_html(alerts_text([(clock(t), a) for t, a in shown_alerts], reveal=reveal,
                                      limit=SHOWN_ALERTS, said=said_words)),
        "health": health_json(health),
        "meeting": meeting_html(meeting, said_words),
        "outputs": list(facts.outputs),
    }

