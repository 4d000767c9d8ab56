"""Helpers for the bring-up tests: pty-backed serial readers, RDM6300 frames, table configs."""

from __future__ import annotations

import os
import time
import tty
from pathlib import Path

ROLES = ("field", "hand:1", "hand:2", "hand:3")


class Pty:
    """A pseudo-terminal behind a symlink (like /dev/serial/by-id/...): the reader opens `link`."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master: int | None = None
        self.target = ""
        self.plug()

    def plug(self) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.target = os.ttyname(slave)
        os.close(slave)
        tmp = self.link.with_name(self.link.name + ".new")
        os.symlink(self.target, tmp)
        os.replace(tmp, self.link)

    def unplug(self) -> None:
        os.unlink(self.link)
        if self.master is not None:
            os.close(self.master)
        self.master = None

    def write(self, data: bytes) -> None:
        assert self.master is not None
        os.write(self.master, data)

    def close(self) -> None:
        if self.master is not None:
            self.unplug()


def rdm6300_frame(uid10: str) -> bytes:
    """STX, 10 hex digits, 2 hex digits XOR checksum, ETX: what an RDM6300 sends while a tag is held."""
    checksum = 0
    for i in range(0, 10, 2):
        checksum ^= int(uid10[i:i + 2], 16)
    return b"\x02" + uid10.upper().encode() + f"{checksum:02X}".encode() + b"\x03"


def wait_for(predicate, limit: float = 10.0, what: str = "condition"):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def table_toml(readers: dict[str, dict], outputs: str = "", voice: str = 'backend = "none"', head: str = "") -> str:
    """A table config: `readers` role -> keys; outputs as TOML text (default: a transcript per output)."""
    lines = [head, 'deck = "sim.toml"', "debounce = 0.3"]
    for role, keys in readers.items():
        lines.append(f'[readers."{role}"]')
        lines += [f"{k} = {v!r}".replace("'", '"') for k, v in keys.items()]
    lines += ["[voice]", voice]
    if not outputs:
        outputs = "\n".join(f'[outputs."{o}"]\nsink = "transcript"' for o in ("speaker", *ROLES[1:]))
    lines.append(outputs)
    return "\n".join(lines) + "\n"
