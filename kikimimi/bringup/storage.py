"""Where the table's files would live, and whether they outlive a reboot.

A Raspberry Pi with an overlay root (raspi-config's overlay file system, for an SD card that a power cut
cannot damage) keeps every write to the root in RAM: a journal there is gone at the next boot, and with it
the game to resume and the meeting's unsent results. The journal, the records and the voice packs belong on
a writable data partition (hardware_docs/bringup.md, "A read-only root"). This module finds the mount a
path lives on (/proc/mounts, the longest mount point above it) and names the file systems that forget.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

FORGETFUL = {"tmpfs": "RAM (tmpfs)", "ramfs": "RAM (ramfs)", "overlay": "an overlay (its writes may be in RAM)"}


@dataclass(frozen=True)
class Mount:
    point: Path
    fstype: str
    source: str


def _unescape(field: str) -> str:
    """/proc/mounts writes a space as \\040 (and tab, newline, backslash likewise)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mounts(text: str | None = None) -> list[Mount]:
    if text is None:
        try:
            text = Path("/proc/mounts").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
    found = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            found.append(Mount(Path(_unescape(fields[1])), fields[2], _unescape(fields[0])))
    return found


def mount_of(path: Path, table: list[Mount] | None = None) -> Mount | None:
    """The mount `path` lives on (a path not made yet: the mount of its nearest existing folder)."""
    path = Path(os.path.abspath(Path(path).expanduser()))
    for there in (path, *path.parents):
        if there.exists():
            path = there.resolve()
            break
    best: Mount | None = None
    for mount in mounts() if table is None else table:  # the last mount of a point is the one in force
        if (path == mount.point or mount.point in path.parents) and (
                best is None or len(mount.point.parts) >= len(best.point.parts)):
            best = mount
    return best


def forgets(path: Path, table: list[Mount] | None = None) -> str | None:
    """Why files at `path` would be lost at a reboot (one line), or None."""
    mount = mount_of(path, table)
    if mount is None or mount.fstype not in FORGETFUL:
        return None
    return (f"{path} is on {FORGETFUL[mount.fstype]} mounted at {mount.point}: it is lost at the next reboot; "
            "keep it on a writable data partition (hardware_docs/bringup.md, \"A read-only root\")")
