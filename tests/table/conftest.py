import sys
from pathlib import Path

import pytest

# table_helpers sits beside the tests; the device tests' pty helper is reused, not copied.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "devices"))

from table_helpers import write_config  # noqa: E402


@pytest.fixture
def sim_config(tmp_path) -> Path:
    return write_config(tmp_path)
