"""The one KEY=VALUE reader of the command line (`--set first=2`, a phrase's `seat=2`)."""

from __future__ import annotations

import json
from typing import Any


def parse_key_values(items: list[str], what: str = "--set", example: str = "first=2") -> dict[str, Any]:
    """`KEY=VALUE` items as a dict: a value that reads as a JSON number or true/false is one (`2`, `0.5`,
    `true`), anything else is the text as written. ValueError names the item and the form."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{what} {item!r}: write KEY=VALUE, e.g. {example}")
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        out[key] = parsed if isinstance(parsed, bool | int | float) else value
    return out
