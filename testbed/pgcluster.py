"""A throwaway PostgreSQL server for the tests and the benchmarks: Debian's server in a temporary folder.

`throwaway_cluster()` runs `initdb` and `pg_ctl start` from Debian's `postgresql` package on a free
127.0.0.1 port (its unix socket in the same folder, trust authentication), creates a database and
yields its SQLAlchemy URL; at exit the server is stopped (`pg_ctl stop -m fast`) and the folder
removed. PostgreSQL refuses to run as root, so as root the server runs as the `postgres` system user.
With `fsync=False` (the default, for tests) the server does not wait for the disk; the benchmarks
turn it on to measure what a real server does.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

DATABASE = "kikimimi"
SUPERUSER = "kikimimi"


class ClusterUnavailable(RuntimeError):
    """A throwaway PostgreSQL server cannot be started here; the message says what is missing."""


def server_bin() -> Path:
    """The newest installed `/usr/lib/postgresql/<version>/bin` holding initdb and pg_ctl."""
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if not found:
        raise ClusterUnavailable(
            "no PostgreSQL server: initdb not found under /usr/lib/postgresql/*/bin; install Debian's "
            "postgresql package (`sudo apt-get install postgresql`, or `./run` on a fresh machine)"
        )
    return found[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runner() -> tuple[list[str], str | None]:
    """The command prefix to run the server's tools, and the user owning the folder (None: us)."""
    if os.geteuid() != 0:
        return [], None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise ClusterUnavailable(
            "running as root, and PostgreSQL refuses root: no `postgres` system user to run the server as "
            "(Debian's postgresql package creates it)"
        ) from None
    runuser = shutil.which("runuser")
    if runuser is None:
        raise ClusterUnavailable("running as root: `runuser` (util-linux) is needed to run PostgreSQL as postgres")
    return [runuser, "-u", "postgres", "--"], "postgres"


def _run(cmd: Sequence[str], what: str) -> None:
    done = subprocess.run(list(cmd), capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-8:])
        raise ClusterUnavailable(f"{what} failed (exit {done.returncode}):\n{tail}")


def _log_tail(log: Path, lines: int = 8) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return "(no server log)"


@contextmanager
def throwaway_cluster(fsync: bool = False) -> Iterator[str]:
    """Start a PostgreSQL server in a temporary folder; yields the URL of a database on it."""
    bindir = server_bin()
    prefix, owner = _runner()
    folder = Path(tempfile.mkdtemp(prefix="kikimimi-pg-"))
    data, log = folder / "data", folder / "server.log"
    started = False
    try:
        if owner is not None:
            shutil.chown(folder, owner, owner)
            folder.chmod(0o700)
        _run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
              "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"], "initdb")
        port = _free_port()
        options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} "
                   f"-c fsync={'on' if fsync else 'off'} -c synchronous_commit={'on' if fsync else 'off'} "
                   "-c full_page_writes=" + ("on" if fsync else "off") + " -c max_connections=200")
        done = subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options,
                               "-w", "-t", "60", "start"], capture_output=True, text=True)
        if done.returncode != 0:
            raise ClusterUnavailable(f"the PostgreSQL server did not start (pg_ctl exit {done.returncode}); "
                                     f"its log ends:\n{_log_tail(log)}")
        started = True
        server = f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{port}/postgres"
        yield create_database(server, DATABASE)
    finally:
        if started:
            subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                           capture_output=True, text=True)
        shutil.rmtree(folder, ignore_errors=True)


def create_database(url: str, name: str, template: str | None = None) -> str:
    """Create database `name` on the server of `url` (dropping one of that name), a copy of `template`
    if given; returns its URL."""
    for given in (name, template or "x"):
        if not given.replace("_", "").isalnum():
            raise ValueError(f"database name {given!r}: use letters, digits and _ only")
    copy = f' TEMPLATE "{template}"' if template else ""
    server = sa.make_url(url)
    engine = sa.create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"{copy}')
    finally:
        engine.dispose()
    return server.set(database=name).render_as_string(hide_password=False)
