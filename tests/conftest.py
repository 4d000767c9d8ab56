"""Every test run keeps its data (journal, records) out of the user's home; records databases to test on."""

import itertools
import os
import sys
import tempfile
from pathlib import Path

import pytest
import sqlalchemy

from kikimimi.records import schema
from kikimimi.records.store import RecordStore
from testbed.pgcluster import ClusterUnavailable, create_database, throwaway_cluster

sys.path.insert(0, str(Path(__file__).parent))  # helpers shared by several folders (chromium_helpers)


def pytest_configure(config):
    os.environ["KIKIMIMI_DATA"] = tempfile.mkdtemp(prefix="kikimimi-tests-")


# -- records on SQLite and on PostgreSQL (issue 16) ------------------------------------------------

_DATABASES = itertools.count(1)
_EMPTIED = "records_test"


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throwaway PostgreSQL server for the session (Debian's postgresql), with a migrated records
    database the tests share (emptied before each). Skips naming what is missing."""
    try:
        with throwaway_cluster() as url:
            RecordStore(create_database(url, _EMPTIED)).close()
            yield url
    except ClusterUnavailable as exc:
        pytest.skip(f"no PostgreSQL server for the records tests: {exc}")


@pytest.fixture(scope="session")
def _postgres_emptier(postgres_cluster):
    """Empties the shared records database: every table truncated, every id sequence restarted. A
    CREATE DATABASE per test costs 0.3-1 s (it copies the template's 8 MB); this costs about 0.04 s."""
    url = sqlalchemy.make_url(postgres_cluster).set(database=_EMPTIED)
    engine = sqlalchemy.create_engine(url, poolclass=sqlalchemy.pool.NullPool)
    tables = ", ".join(table.name for table in schema.metadata.sorted_tables)

    def empty() -> str:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        return url.render_as_string(hide_password=False)

    yield empty
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def records_url(request, tmp_path):
    """An empty records database at the latest schema: a new SQLite file, or the session's PostgreSQL
    records database emptied (a test that changes the schema itself takes `fresh_records_url`)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'records.sqlite'}"
    return request.getfixturevalue("_postgres_emptier")()


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_records_url(request, tmp_path):
    """A database of its own, never migrated: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'records.sqlite'}"
    return create_database(request.getfixturevalue("postgres_cluster"), f"records_{next(_DATABASES)}")
