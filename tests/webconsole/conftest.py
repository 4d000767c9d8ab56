import sys
from pathlib import Path

import pytest

# web_helpers sits beside the tests (as the console and venue tests keep theirs); console_helpers opens the
# in-process simulated table the tests without a subprocess use.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "console"))
from console_helpers import table  # noqa: E402, F401  (the fixture)
from web_helpers import chromium  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    """One Chromium for a test module's pages."""
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no /usr/bin/chromium (Debian's chromium package) for the web console's page tests")
    with chromium() as browser:
        yield browser
