import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from console_helpers import table  # noqa: E402, F401  (the fixture)
