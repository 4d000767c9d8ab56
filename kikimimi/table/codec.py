"""The control socket's wire format: one JSON object per line (UTF-8), and the JSON forms of a step.

A step's event is a game event (a script line) or one of the table's own steps: {"table": "new", "setup": …},
{"table": "announce"} (what it said is the step's effects) or {"table": "pause", "paused": …}. The protocol
itself (the requests and pushes) is in `kikimimi.table.server`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.games.base import Effect, Event, Say
from kikimimi.games.codec import effect_from_json, effect_to_json, event_from_json, event_to_json
from kikimimi.table.loop import Step
from kikimimi.table.messages import Announcement, NewGame, PauseRequest, TableAction


def event_json(event: Event) -> dict[str, Any]:
    """An event with the tag's UID kept (the one codec's form)."""
    return event_to_json(event, keep_uid=True)


def event_from(data: Any) -> Event:
    """An event from a request's JSON, whatever was sent (the one codec says what is wrong with it)."""
    return event_from_json(data)


effect_json = effect_to_json  # the wire's names for the one codec's functions
effect_json = effect_to_json
effect_from = effect_from_json


def says_from(data: Any) -> list[Say]:
    if not isinstance(data, list) or not all(isinstance(d, dict) and isinstance(d.get("say"), str)
                                             and isinstance(d.get("key"), str) for d in data):
        raise ValueError('"says" is a list of {"say": OUTPUT, "key": PHRASE, "params": {…}}')
    return [Say(d["say"], d["key"], d.get("params") or {}) for d in data]


def step_json(step: Step) -> dict[str, Any]:
    event = table_action_json(step.event) if isinstance(step.event, TableAction) else event_json(step.event)
    return {"seq": step.seq, "event": event, "effects": [effect_json(e) for e in step.effects],
            "uid": step.uid, "journaled": step.journaled}


def step_from(data: Mapping[str, Any]) -> Step:
    effects = [effect_from(e) for e in data["effects"]]
    journaled = bool(data.get("journaled", True))
    obj = data["event"]
    if isinstance(obj, Mapping) and "referee" in obj and obj["referee"] in _OLD_TABLE_ACTIONS and not journaled:
        # A table that predates the typed steps sent its own as referee lines: read them as what they were.
        obj = {"table": obj["referee"], "setup": {k: v for k, v in obj.items() if k != "referee"},
               "paused": obj.get("paused")}
    event = table_action_from(obj, effects) if isinstance(obj, Mapping) and "table" in obj else event_from_json(obj)
    return Step(int(data["seq"]), event, effects, data.get("uid"), journaled=journaled)


_OLD_TABLE_ACTIONS = ("new", "announce", "pause")


def table_action_json(action: TableAction) -> dict[str, Any]:
    """The table's own step on the wire: `{"table": "new", "setup": …}`, `{"table": "announce"}` (what it
    said is the step's effects) or `{"table": "pause", "paused": …}`."""
    if isinstance(action, NewGame):
        return {"table": "new", "setup": dict(action.setup)}
    if isinstance(action, Announcement):
        return {"table": "announce"}
    return {"table": "pause", "paused": action.paused}


def table_action_from(obj: Mapping[str, Any], effects: Sequence[Effect]) -> TableAction:
    """The inverse of `table_action_json`; ValueError for an unknown kind."""
    kind = obj.get("table")
    if kind == "new":
        return NewGame(dict(obj.get("setup") or {}))
    if kind == "announce":
        return Announcement(tuple(e for e in effects if isinstance(e, Say)))
    if kind == "pause":
        return PauseRequest(bool(obj.get("paused")))
    raise ValueError(f'a table step is {{"table": "new"|"announce"|"pause", …}}, not {kind!r}')


def to_line(message: Mapping[str, Any]) -> bytes:
    # default=str: a game may put a tuple or a set in its report; the console only shows it
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_plain) + "\n").encode()


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)
