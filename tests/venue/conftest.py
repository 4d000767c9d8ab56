import sys
from pathlib import Path

# venue_helpers sits beside the tests (as the table tests keep theirs).
sys.path.insert(0, str(Path(__file__).parent))
