"""Where the shipped data folders (devices/, voices/) live, installed or in a checkout."""

from __future__ import annotations

import errno
import os
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


def data_home() -> Path:
    """The writable folder of this table's own files: journal, records, voice packs
    (`$KIKIMIMI_DATA`, else ~/.local/share/kikimimi; the boot service sets /var/lib/kikimimi)."""
    env = os.environ.get("KIKIMIMI_DATA")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "kikimimi"


def not_utf8(path: object, exc: UnicodeDecodeError) -> str:
    """`FILE:LINE: not UTF-8 text ...`: where a file's bad byte is and what to do about it."""
    data = exc.object if isinstance(exc.object, bytes | bytearray) else b""
    line = data.count(b"\n", 0, exc.start) + 1
    byte = data[exc.start] if exc.start < len(data) else 0
    return f"{path}:{line}: not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8"


def _nearest_existing(path: Path) -> Path:
    for parent in (path, *path.parents):
        if parent.exists():
            return parent
    return path


def folder_problem(folder: Path, exc: OSError | None = None) -> str | None:
    """Why `folder` cannot hold kikimimi's files (a read-only folder, a file in the way), or None when
    it can and `exc` (if any) has another cause, such as a damaged file."""
    folder = Path(folder)
    there = _nearest_existing(folder)
    if there.exists() and not there.is_dir():
        return f"cannot create folder {folder}: {there} is a file, not a folder"
    if not os.access(there, os.W_OK) or (exc is not None and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS)):
        return f"cannot write to {there}: permission denied"
    if exc is not None and exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"cannot create folder {folder}: {exc.strerror}"
    return None


def private_file(path: Path) -> None:
    """Create `path` readable by its owner only (hands and secrets are in it). SQLite gives its -wal and
    -shm files the database file's permissions, so they stay private too."""
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    elif path.stat().st_mode & 0o077:
        path.chmod(0o600)
