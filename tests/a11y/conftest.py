import sys
from pathlib import Path

# The pages' helpers: the web console's (tests/webconsole) and the venue's (tests/venue), and the axe helper.
HERE = Path(__file__).parent
for folder in (HERE, HERE.parent / "webconsole", HERE.parent / "venue"):
    sys.path.insert(0, str(folder))
