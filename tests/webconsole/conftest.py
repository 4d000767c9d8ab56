import sys
from pathlib import Path

# web_helpers sits beside the tests (as the console and venue tests keep theirs).
sys.path.insert(0, str(Path(__file__).parent))
