"""Bring-up tests' helpers live in bringup_helpers.py (importlib mode puts no test folder on sys.path)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "devices"))  # device_helpers: the pty reader

from pcsc_helpers import pcscd  # noqa: E402,F401 - the machine's one pcscd, shared with tests/devices
from pn532_helpers import pn532  # noqa: E402,F401 - emulated PN532s on ptys
