"""The throwaway PostgreSQL server the tests and benchmarks start, and what it says when it cannot."""

from __future__ import annotations

import pytest
import sqlalchemy

from testbed import pgcluster
from testbed.pgcluster import ClusterUnavailable, create_database


def test_a_machine_without_the_server_is_told_which_package_to_install(monkeypatch):
    # The server is installed here; its absence is simulated by finding no initdb.
    monkeypatch.setattr(pgcluster.glob, "glob", lambda pattern: [])
    with pytest.raises(ClusterUnavailable, match="install Debian's postgresql package"), \
            pgcluster.throwaway_cluster():
        pass


def test_databases_are_created_on_the_running_server(postgres_cluster):
    url = create_database(postgres_cluster, "created_here")
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT current_database()").scalar() == "created_here"
            assert conn.exec_driver_sql("SHOW listen_addresses").scalar() == "127.0.0.1"
    finally:
        engine.dispose()
    with pytest.raises(ValueError, match="letters, digits and _"):
        create_database(postgres_cluster, "x; DROP DATABASE postgres")
