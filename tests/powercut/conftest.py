import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # the rig's own modules (rig, table_under_test)
