"""Where the records are: a SQLite file in the data folder, or a database URL (no SQLAlchemy here,
so that commands that only need the location start fast)."""

from __future__ import annotations

import os
from pathlib import Path

DB_NAME = "records.sqlite"
URL_ENV = "KIKIMIMI_RECORDS_URL"


def default_db_path() -> Path:
    """`$KIKIMIMI_DATA/records.sqlite`, else `~/.local/share/kikimimi/records.sqlite`."""
    folder = os.environ.get("KIKIMIMI_DATA")
    base = Path(folder).expanduser() if folder else Path.home() / ".local" / "share" / "kikimimi"
    return base / DB_NAME


def records_target(
    flag: str | os.PathLike[str] | None = None, config_url: str | None = None
) -> str | os.PathLike[str]:
    """Which records to open: `--db` (a path or URL), else $KIKIMIMI_RECORDS_URL, else the table
    config's `[records] url`, else the SQLite file in the data folder (`default_db_path`)."""
    if flag is not None and str(flag):
        return flag
    return os.environ.get(URL_ENV) or config_url or default_db_path()


def is_url(target: object) -> bool:
    return isinstance(target, str) and "://" in target
