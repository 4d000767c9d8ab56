"""Turns reader and output health into alerts for the Priest: a reader down, an audio device lost, back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.games.base import Alert


class HealthWatch:
    """Compares each poll with the last; says when something goes down and when it comes back.

    A reader still starting ("reconnecting" before it was ever ok) is not an alert; a reader or an
    output that fails outright is, even if it was never ok.
    """

    def __init__(self) -> None:
        self._seen: dict[str, str] = {}
        self._down: set[str] = set()

    def check(self, readers: Mapping[str, Any], outputs: Mapping[str, Any]) -> list[Alert]:
        alerts: list[Alert] = []
        for role, h in readers.items():
            alerts += self._one(f"reader {role}", h.status, "reader", role, h.detail)
        for name, h in outputs.items():
            alerts += self._one(f"output {name}", h.status, "output", name, h.detail)
        return alerts

    def _one(self, key: str, status: str, kind: str, name: str, detail: str) -> list[Alert]:
        before = self._seen.get(key)
        self._seen[key] = status
        if status == "ok":
            if key in self._down:
                self._down.discard(key)
                return [Alert(f"{kind}.back", {kind: name})]
            return []
        if key in self._down or not (before == "ok" or status == "failed"):
            return []
        self._down.add(key)
        down = "reader.down" if kind == "reader" else "output.lost"
        return [Alert(down, {kind: name, "status": status, "detail": detail})]
