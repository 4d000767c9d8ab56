import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from console_helpers import open_sim_table  # noqa: E402


@pytest.fixture
def table(tmp_path, monkeypatch):
    """The shipped simulated table, English, text only, with its own journal and records folder."""
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    live = open_sim_table(tmp_path)
    yield live
    live.close()
