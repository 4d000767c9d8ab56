import sys
from pathlib import Path

import pytest

# web_helpers sits beside the tests (as the console and venue tests keep theirs); console_helpers opens the
# in-process simulated table the tests without a subprocess use.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import open_sim_table  # noqa: E402


@pytest.fixture
def table(tmp_path, monkeypatch):
    """The shipped simulated table in this process, with its own journal and records folder."""
    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    live = open_sim_table(tmp_path)
    yield live
    live.close()
