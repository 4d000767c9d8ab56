"""kikimimi.durable on an ordinary disk (the power cuts themselves: tests/powercut/)."""

from __future__ import annotations

import os

import pytest

from kikimimi.durable import copy_durably, write_durably


def test_a_file_is_replaced_whole_with_its_mode(tmp_path):
    target = tmp_path / "code.web"
    write_durably(target, '{"a": 1}', mode=0o600)
    assert target.read_text() == '{"a": 1}' and target.stat().st_mode & 0o777 == 0o600
    write_durably(target, b'{"a": 2}')  # the old file's mode is kept
    assert target.read_bytes() == b'{"a": 2}' and target.stat().st_mode & 0o777 == 0o600
    copy_durably(target, tmp_path / "code.bak")
    assert (tmp_path / "code.bak").read_bytes() == b'{"a": 2}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["code.bak", "code.web"]  # no temporary file left


def test_a_refused_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "manifest.json"
    target.write_text("old")

    def refuse(temporary):
        assert temporary.read_text() == "new" and temporary.parent == tmp_path
        raise ValueError("refused")

    with pytest.raises(ValueError):
        write_durably(target, "new", check=refuse)
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["manifest.json"]


def test_a_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        write_durably(tmp_path / "new.json", "{}")
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o600
