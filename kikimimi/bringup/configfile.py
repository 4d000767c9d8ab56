"""Rewriting the `[readers.ROLE]` sections of a table's TOML file, keeping the owner's comments.

Only the lines of the keys that change are touched: a value is replaced in place (its trailing comment
stays), a new key is added under the section's last key, a key the new reader does not take is
removed. The result is parsed again and must equal the intended configuration exactly; if it does not
(a layout this editor does not follow, e.g. a multi-line array or an inline table), the whole file is
written out from the data instead, and the caller is told that comments were lost.

Writing is atomic: a temporary file in the same folder, fsync, rename; the previous file is kept as
`NAME.bak`.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kikimimi.durable import copy_durably, write_durably

_HEADER = re.compile(r"""^\s*\[\s*readers\s*\.\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*\]\s*(#.*)?$""")
_ANY_HEADER = re.compile(r"^\s*\[")
_KEY = re.compile(r"""^(\s*)(?:"([^"]+)"|([A-Za-z0-9_-]+))(\s*=\s*)(.*)$""")


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key(name: str) -> str:
    return name if re.match(r"^[A-Za-z0-9_-]+$", name) else toml_value(name)


def dump(data: Mapping[str, Any]) -> str:
    """The whole configuration as TOML (used only when the in-place edit cannot be done)."""
    lines: list[str] = []

    def table(prefix: str, values: Mapping[str, Any]) -> None:
        scalars = {k: v for k, v in values.items() if not isinstance(v, Mapping)}
        subtables = {k: v for k, v in values.items() if isinstance(v, Mapping)}
        if prefix and (scalars or not subtables):
            lines.append(f"\n[{prefix}]")
        lines.extend(f"{_key(k)} = {toml_value(v)}" for k, v in scalars.items())
        for k, v in subtables.items():
            table(f"{prefix}.{_key(k)}" if prefix else _key(k), v)

    table("", data)
    return "\n".join(lines).lstrip("\n") + "\n"


def _split_value(rest: str) -> tuple[str, str]:
    """`"a # b"  # note` -> ('"a # b"', '  # note'): the value is the longest prefix that parses."""
    for i, ch in enumerate(rest):
        if ch == "#":
            try:
                tomllib.loads(f"x = {rest[:i]}")
            except tomllib.TOMLDecodeError:
                continue
            value = rest[:i].rstrip()
            return value, rest[len(value):]
    return rest.rstrip(), ""


def _sections(lines: list[str]) -> dict[str, tuple[int, int]]:
    """role -> (header line index, end index exclusive) for every [readers.ROLE] header."""
    found: dict[str, tuple[int, int]] = {}
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if not m:
            continue
        end = next((j for j in range(i + 1, len(lines)) if _ANY_HEADER.match(lines[j])), len(lines))
        found[m.group(1) or m.group(2) or m.group(3)] = (i, end)
    return found


def _edit_section(lines: list[str], start: int, end: int, new: Mapping[str, Any]) -> list[str]:
    body = lines[start + 1:end]
    out: list[str] = []
    done: set[str] = set()
    last_key_at = -1
    for line in body:
        m = _KEY.match(line)
        if not m or line.lstrip().startswith("#"):
            out.append(line)
            continue
        key = m.group(2) or m.group(3)
        if key not in new:
            continue  # the new reader does not take this key
        value, comment = _split_value(m.group(5))
        if tomllib.loads(f"x = {value}")["x"] != new[key]:
            line = f"{m.group(1)}{m.group(2) and toml_value(key) or key}{m.group(4)}{toml_value(new[key])}{comment}"
        out.append(line)
        done.add(key)
        last_key_at = len(out) - 1
    added = [f"{_key(k)} = {toml_value(v)}" for k, v in new.items() if k not in done]
    insert_at = last_key_at + 1 if last_key_at >= 0 else 0
    out[insert_at:insert_at] = added
    return [lines[start], *out]


def rewrite_readers(text: str, sections: Mapping[str, Mapping[str, Any]]) -> tuple[str, bool]:
    """The file's text with each role's [readers.ROLE] replaced by `sections[role]`.

    Returns (new text, comments kept). Raises ValueError if the text is not valid TOML.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML: {exc}") from exc
    wanted = copy.deepcopy(data)
    wanted.setdefault("readers", {})
    for role, section in sections.items():
        wanted["readers"][role] = dict(section)
    lines = text.splitlines()
    try:
        where = _sections(lines)
        # Edit from the bottom up so that earlier line numbers stay right.
        for role in sorted((r for r in sections if r in where), key=lambda r: where[r][0], reverse=True):
            start, end = where[role]
            lines[start:end] = _edit_section(lines, start, end, sections[role])
        missing = [r for r in sections if r not in where]
        for role in missing:
            lines += ["", f"[readers.{_key(role)}]"]
            lines += [f"{_key(k)} = {toml_value(v)}" for k, v in sections[role].items()]
        edited = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
        if tomllib.loads(edited) == wanted:
            return edited, True
    except (tomllib.TOMLDecodeError, ValueError, TypeError):
        pass
    return dump(wanted), False


def write_atomic(path: Path, text: str, check: Callable[[Path], None] | None = None) -> Path | None:
    """Write `text` to `path` atomically and durably; `check(tmp)` may raise to refuse it. Returns the backup's path."""
    path = Path(path)
    backup = None
    if path.exists():
        backup = path.with_name(path.name + ".bak")
        copy_durably(path, backup)
    write_durably(path, text, check=check)
    return backup
