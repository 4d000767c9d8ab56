"""The terminal's drawing of the table: a game's view model (`kikimimi.games.tableview`) as rich Text.

The tablet draws the same model as a table with seats around it (console.js); the terminal lists it: the
phase and whose turn, one line per seat (turn marked, count, marks, score, the player's name and title), the
hand under it only when revealed, then the field, the basket, the game's own items, penalties and the end.
Every word is the console catalog's (`page.*` as on the tablet, `model.*` from the game): a game adds no
rendering code of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

from kikimimi.console.words import Words, words
from kikimimi.games.registry import GameInfo
from kikimimi.games.tableview import table_model


def model_text(model: Mapping[str, Any], said: Words, *, reveal: bool,
               titles: Mapping[str, str] | None = None,
               title_words: Callable[[str], str] = str) -> Text:
    """`model` (TableModel JSON, its items still [key, params]) in `said`'s language. `titles`: a player's
    name -> ladder title (said through `title_words`)."""
    text = Text()
    turn = next((seat["seat"] for seat in model["seats"] if seat.get("turn")), None)
    if model.get("phase"):
        text.append(said.say("terminal.phase") + " ", "dim").append(str(said.value(model["phase"])), "bold")
    text.append("   " + said.say("terminal.to_move") + " ", "dim")
    text.append(said.say("page.seat_n", seat=turn) if turn and not model.get("over") else "–", "bold cyan")
    text.append("\n\n")
    for seat in model["seats"]:
        mover = seat.get("turn") and not model.get("over")
        text.append("▶ " if mover else "  ", "bold cyan")
        text.append(said.say("page.seat_n", seat=seat["seat"]), "bold")
        if seat.get("count") is not None:
            text.append("  " + said.say("page.in_hand", count=seat["count"]))
        for shown in seat.get("marks") or []:
            text.append("  " + said.render(shown), "bold magenta")
        if seat.get("score") is not None:
            text.append("  " + said.say("page.points", score=seat["score"]), "green")
        name = seat.get("name")
        if name:
            title = (titles or {}).get(name)
            text.append(f"  {name}" + (f" ({title_words(title)})" if title else ""), "italic")
        text.append("\n")
        if seat.get("hand") is not None:
            text.append("      " + (" ".join(map(str, seat["hand"])) or said.say("terminal.empty")) + "\n", "yellow")
    if not reveal:
        text.append("  " + said.say("terminal.hands_hidden") + "\n", "dim")
    text.append("\n")
    if model.get("field"):
        text.append(said.say("page.field") + " ", "dim").append(" ".join(map(str, model["field"])) + "\n")
    if model.get("basket") is not None:
        text.append(said.say("page.basket_count", count=model["basket"]) + "\n")
    for item in model.get("items") or []:
        text.append(said.render(item) + "\n")
    _listed(text, said.say("page.penalties_title"), model.get("penalties"), said, "red")
    _listed(text, said.say("page.result_title"), model.get("result"), said, "bold green")
    return text


def _listed(text: Text, title: str, items: Any, said: Words, style: str) -> None:
    if not items:
        return
    text.append(title + "\n", "dim")
    for item in items:
        text.append("  " + said.render(item) + "\n", style)


def state_view(info: GameInfo) -> Callable[..., Any] | None:
    """The game's panel for the screens that print a state as text (the demo, a replay's end): the game's
    own text panel if it has one, else its view model drawn as the terminal console draws it, in English.
    A game writes no rendering code for it."""
    own = info.view_function()
    model = info.model_function()
    if own is not None or model is None:
        return own

    def view(report: Mapping[str, Any], *, reveal: bool = False, players: Mapping[int, str] | None = None,
             titles: Mapping[str, str] | None = None) -> Text:
        shown = table_model(model, report, report, reveal=reveal, players=players)
        return model_text(shown, words("en"), reveal=reveal, titles=titles)
    return view
