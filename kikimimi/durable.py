"""Small files that survive a power cut whole: the new content or the old one, never half of each.

A file written in place and cut off mid-write is empty or half-written after the cut; one renamed into
place without a sync may come back empty (its name was kept, its data not) or as the old file (the rename
was lost). So: write a temporary file in the same folder, fsync it, rename it over the old one, fsync the
folder (the rename itself is on disk only then). Tested on a disk that forgets what was not synced
(tests/powercut/).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


def sync_folder(folder: str | Path) -> None:
    """Make the folder's names (a file created, renamed or removed in it) durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: str | Path, data: bytes | str, *, mode: int | None = None,
                  check: Callable[[Path], None] | None = None) -> None:
    """Replace `path` with `data` (str is written as UTF-8) so that a power cut leaves either the old file or
    the new one. `mode`: the new file's permissions (default: the old file's, else 0o666 less the umask).
    `check(temporary)` may raise to refuse the new content before it replaces anything."""
    path = Path(path)
    content = data.encode("utf-8") if isinstance(data, str) else data
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    temporary = Path(name)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        elif path.exists():
            shutil.copymode(path, temporary)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        if check is not None:
            check(temporary)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    sync_folder(path.parent)


def copy_durably(source: str | Path, target: str | Path) -> None:
    """A copy of `source` at `target` (its mode kept), whole after a power cut (e.g. a backup)."""
    write_durably(target, Path(source).read_bytes(), mode=os.stat(source).st_mode & 0o7777)
