"""Events, effects and outcomes as JSON objects: the one codec that scripts, the journal and the table's
control socket all use, so that a line written by one reads back the same in the others.

Events are script lines: `{"scan": READER, "piece": ID}` (or `"uid"` for a tag the deck does not
know) and `{"referee": ACTION, ...params}`. Effects are `{"say": OUTPUT, "key", "params"}`,
`{"alert": KEY, "params"}` and `{"over": OUTCOME}`; an outcome is `Outcome.to_json()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import Alert, Effect, Event, GameOver, Outcome, Referee, Say, Scan


def event_to_json(event: Event, *, keep_uid: bool = False) -> dict[str, Any]:
    """An event as a script line; `keep_uid` keeps a known tag's UID too (the control socket's steps)."""
    if isinstance(event, Scan):
        if event.piece is None:
            return {"scan": event.reader, "uid": event.uid}
        data: dict[str, Any] = {"scan": event.reader, "piece": event.piece}
        if keep_uid and event.uid is not None:
            data["uid"] = event.uid
        return data
    return {"referee": event.action, **dict(event.params or {})}


def event_from_json(obj: Mapping[str, Any]) -> Event:
    """The inverse of `event_to_json`; ValueError for an object that is neither a scan nor a referee line."""
    if not isinstance(obj, Mapping) or not isinstance(obj.get("scan", obj.get("referee")), str):
        raise ValueError('an event is {"scan": READER, "piece": ID} or {"referee": ACTION, …}')
    if "scan" in obj:
        return Scan(obj["scan"], obj.get("piece"), obj.get("uid"))
    return Referee(obj["referee"], {k: v for k, v in obj.items() if k != "referee"})


def effect_to_json(effect: Effect) -> dict[str, Any]:
    if isinstance(effect, Say):
        return {"say": effect.to, "key": effect.key, "params": dict(effect.params)}
    if isinstance(effect, Alert):
        return {"alert": effect.key, "params": dict(effect.params)}
    return {"over": outcome_to_json(effect.outcome)}


def effect_from_json(data: Mapping[str, Any]) -> Effect:
    if "say" in data:
        return Say(data["say"], data["key"], data.get("params") or {})
    if "alert" in data:
        return Alert(data["alert"], data.get("params") or {})
    return GameOver(outcome_from_json(data["over"]))


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return outcome.to_json()


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    return Outcome.from_json(data)
