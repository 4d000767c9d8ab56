"""Which records database is opened (a path or a URL; --db, the environment, the table config) and
what is said when it cannot be."""

from __future__ import annotations

from pathlib import Path

import pytest

from kikimimi.app.cli import main
from kikimimi.records.schema import SchemaError
from kikimimi.records.store import URL_ENV, RecordStore, default_db_path, records_target, records_url
from kikimimi.table.config import TableConfigError, default_config_path, load_config


def test_a_path_is_a_sqlite_file_and_postgresql_urls_use_psycopg():
    assert records_url("/srv/club/records.sqlite").render_as_string() == "sqlite:////srv/club/records.sqlite"
    assert records_url("postgresql://club@db.lan/records").drivername == "postgresql+psycopg"
    assert records_url("postgres://club@db.lan/records").drivername == "postgresql+psycopg"
    assert records_url("postgresql+psycopg://club@db.lan/records").drivername == "postgresql+psycopg"
    assert records_url("sqlite:////srv/r.sqlite").database == "/srv/r.sqlite"


def test_other_databases_are_refused_without_showing_the_password():
    with pytest.raises(SchemaError, match="SQLite .* or PostgreSQL") as caught:
        records_url("mysql://club:s3cret@db.lan/records")
    assert "s3cret" not in str(caught.value) and "***" in str(caught.value)


def test_the_flag_wins_then_the_environment_then_the_config(monkeypatch, tmp_path):
    monkeypatch.delenv(URL_ENV, raising=False)
    assert records_target(None, None) == default_db_path()
    assert records_target(None, "postgresql://club@cfg/records") == "postgresql://club@cfg/records"
    monkeypatch.setenv(URL_ENV, "postgresql://club@env/records")
    assert records_target(None, "postgresql://club@cfg/records") == "postgresql://club@env/records"
    assert records_target(tmp_path / "flag.sqlite", "postgresql://club@cfg/records") == tmp_path / "flag.sqlite"


def test_the_environment_url_is_opened_by_default(monkeypatch, records_url):
    monkeypatch.setenv(URL_ENV, records_url)
    with RecordStore() as store:
        store.players.add("Ann")
    with RecordStore(records_url) as store:
        assert [p.name for p in store.players.all()] == ["Ann"]


def test_an_unreachable_server_is_named_without_its_password():
    with pytest.raises(SchemaError, match="cannot reach records database postgresql\\+psycopg://club:\\*\\*\\*@") as c:
        RecordStore("postgresql://club:s3cret@127.0.0.1:1/records")
    assert "s3cret" not in str(c.value) and "KIKIMIMI_RECORDS_URL" in str(c.value)


def test_the_table_config_names_its_records(tmp_path):
    sim = default_config_path()
    config = load_config(sim, overrides={"records": {"url": "postgresql://club@db.lan/records"}})
    assert config.records_url == "postgresql://club@db.lan/records"
    assert load_config(sim).records_url is None
    for bad, message in [({"url": "mysql://x:pw@h/d"}, "a mysql:// URL"), ({"url": "records.sqlite"}, "not a URL"),
                         ({"uri": "postgresql://h/d"}, "one key, url")]:
        with pytest.raises(TableConfigError, match=message) as caught:
            load_config(sim, overrides={"records": bad})
        assert "pw" not in str(caught.value)


def test_meeting_commands_take_the_records_url_of_the_config_given(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(URL_ENV, raising=False)
    db = tmp_path / "club.sqlite"
    config = tmp_path / "table.toml"
    text = Path(default_config_path()).read_text()  # its deck is found among the shipped ones
    config.write_text(f'{text}\n[records]\nurl = "sqlite:///{db}"\n')
    assert main(["meeting", "start", "--trial", "half", "--tables", "2", "--players", "A,B,C,D,E,F",
                 "--add-new", "--config", str(config)]) == 0
    results = tmp_path / "games.jsonl"
    results.write_text('{"ranking": ["A", "B", "C"]}\n')
    main(["meeting", "start", "--trial", "half", "--players", "A,B,C", "--config", str(config),
          "--results", str(results)])
    capsys.readouterr()
    with RecordStore(db) as store:
        assert [(m.tables, m.games_played) for m in store.meetings.all()] == [(2, 0), (1, 1)]
