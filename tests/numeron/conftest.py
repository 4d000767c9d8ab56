import sys
from pathlib import Path

import pytest

# The helpers module sits beside the tests (pytest runs with --import-mode=importlib).
sys.path.insert(0, str(Path(__file__).parent))

from numeron_table import Table  # noqa: E402


@pytest.fixture
def table() -> Table:
    return Table()
