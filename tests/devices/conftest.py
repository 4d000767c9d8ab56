import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # for device_helpers (tests run with --import-mode=importlib)

from device_helpers import Pty  # noqa: E402
from pcsc_helpers import pcscd  # noqa: E402,F401 - the machine's one pcscd, shared


@pytest.fixture
def pty_port(tmp_path):
    port = Pty(tmp_path / "ttyREADER")
    yield port
    port.close()

