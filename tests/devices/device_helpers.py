"""Shared helpers of the device tests (imported by name: conftest.py puts this folder on sys.path)."""

import os
import time
import tty

from waiting import wait_until

from kikimimi.devices.config import parse_readers
from kikimimi.devices.hub import Hub


def events_until_quiet(hub: Hub, quiet: float = 1.0, limit: float = 10.0) -> list:
    """Every event until none came for `quiet` seconds (never longer than `limit`)."""
    out, end = [], time.monotonic() + limit
    while time.monotonic() < end:
        event = hub.get(timeout=quiet)
        if event is None:
            break
        out.append(event)
    return out


def wait_for(predicate, limit: float = 10.0, what: str = "condition"):
    return wait_until(predicate, limit, what)


def summary(events) -> list[tuple[str, str, str]]:
    return [(e.reader, e.kind, e.uid) for e in events]


class Pty:
    """A pseudo-terminal: the reader opens `path` (a symlink, like /dev/serial/by-id), we write to master."""

    def __init__(self, link):
        self.link = link
        self.master = None
        self.target = ""  # the tty behind the link right now
        self.plug()

    def plug(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.target = os.ttyname(slave)
        os.close(slave)
        tmp = self.link.with_name(self.link.name + ".new")
        os.symlink(self.target, tmp)
        os.replace(tmp, self.link)

    def unplug(self):
        os.unlink(self.link)
        os.close(self.master)
        self.master = None

    def write(self, data: bytes):
        os.write(self.master, data)

    def close(self):
        if self.master is not None:
            self.unplug()


def make_hub(readers: dict, debounce: float = 0.3) -> Hub:
    return Hub(parse_readers(readers, "test"), debounce=debounce)
