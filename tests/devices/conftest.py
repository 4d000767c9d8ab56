import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # for device_helpers (tests run with --import-mode=importlib)
sys.path.insert(0, str(Path(__file__).parents[1] / "table"))  # table_helpers: games fed through emulated readers

from device_helpers import Pty  # noqa: E402
from pcsc_helpers import pcscd  # noqa: E402,F401 - the machine's one pcscd, shared
from pn532_helpers import pn532  # noqa: E402,F401 - emulated PN532s on ptys


@pytest.fixture
def pty_port(tmp_path):
    port = Pty(tmp_path / "ttyREADER")
    yield port
    port.close()

