"""The machine on its network: the address the club's devices (a tablet, the venue's tables and TV) type."""

from __future__ import annotations

import contextlib
import socket


def lan_address() -> str:
    """This machine's address on the LAN (what the tables and the TV type), 127.0.0.1 when there is none."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: only picks the outgoing interface
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
