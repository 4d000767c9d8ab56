"""Where the shipped data folders (devices/, voices/) live, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The `devices` or `voices` data folder: inside the wheel, else beside the package in a checkout."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"kikimimi data folder {name!r} not found in {installed} or {checkout}")
