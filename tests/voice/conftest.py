"""The voice tests' helpers live in voice_helpers.py (importlib mode puts no test folder on sys.path)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from voice_helpers import make_catalog  # noqa: E402


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Path:
    return make_catalog(tmp_path)
