"""Helpers for the bring-up tests: pty-backed serial readers, RDM6300 frames, table configs."""

from __future__ import annotations

# The pty-backed reader and the waiting helper are the device tests' own; frames come from the package.
from device_helpers import Pty, wait_for  # noqa: F401 - re-exported for the bring-up tests

from kikimimi.devices.frames import rdm6300_frame  # noqa: F401 - re-exported for the bring-up tests

ROLES = ("field", "hand:1", "hand:2", "hand:3")


def table_toml(readers: dict[str, dict], outputs: str = "", voice: str = 'backend = "none"', head: str = "") -> str:
    """A table config: `readers` role -> keys; outputs as TOML text (default: a transcript per output)."""
    lines = [head, 'deck = "trident-sim.toml"', "debounce = 0.3"]
    for role, keys in readers.items():
        lines.append(f'[readers."{role}"]')
        lines += [f"{k} = {v!r}".replace("'", '"') for k, v in keys.items()]
    lines += ["[voice]", voice]
    if not outputs:
        outputs = "\n".join(f'[outputs."{o}"]\nsink = "transcript"' for o in ("speaker", *ROLES[1:]))
    lines.append(outputs)
    return "\n".join(lines) + "\n"
